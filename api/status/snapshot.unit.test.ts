import { describe, expect, it } from 'vitest';
import type { ViewsState } from '../views/state.js';
import { statusSource, type MetricSample, type StatusInputs } from './snapshot.js';

const views = (processed: bigint, confirmed: bigint, finalized: bigint): ViewsState => ({
  head: { processed, confirmed, finalized },
  height: { processed: undefined, confirmed: undefined, finalized: undefined },
  oldestBlock: undefined,
});

function inputs(o: { tip: bigint; metrics: Record<string, MetricSample[]>; clock: { now: number }; lag?: bigint }): StatusInputs {
  return {
    chainTip: () => o.tip,
    views: () => Promise.resolve(views(o.tip - 10n, o.tip - 12n, o.tip - 40n)),
    projectorLag: () => Promise.resolve(o.lag),
    metrics: () => Promise.resolve((name: string) => Promise.resolve(o.metrics[name])),
    now: () => o.clock.now,
  };
}

describe('statusSource', () => {
  it('an api alone: the projector lag from the heads table, the ingest said to run elsewhere, streams per interface', async () => {
    const clock = { now: 1_000 };
    const metrics: Record<string, MetricSample[]> = {
      slotstream_grpc_streams: [
        { labels: { method: 'geyser.Geyser/Subscribe' }, value: 3 },
        { labels: { method: 'stream.Stream/Subscribe' }, value: 0 },
      ],
      slotstream_pubsub_connections: [{ labels: {}, value: 2 }],
      slotstream_pubsub_subscriptions: [{ labels: { kind: 'logs' }, value: 5 }],
      slotstream_live_replays_running: [{ labels: {}, value: 1 }],
      slotstream_key_open_streams: [
        { labels: { key: 'bot-a', interface: 'geyser' }, value: 2 },
        { labels: { key: 'bot-a', interface: 'pubsub' }, value: 1 },
        { labels: { key: 'wallet', interface: 'stream' }, value: 0 },
      ],
      slotstream_jsonrpc_answers_total: [
        { labels: { method: 'getSlot', code: '0' }, value: 10 },
        { labels: { method: 'getBlock', code: '-32007' }, value: 2 },
      ],
    };
    const o = { tip: 1_000n, metrics, clock, lag: 42n };
    const snapshot = statusSource(inputs(o));
    const a = await snapshot();
    expect(a.chain).toEqual({ tip: '1000', views: { processed: '990', confirmed: '988', finalized: '960' } });
    expect(a.lag).toEqual([
      { role: 'ingest', here: false, slots: null, note: 'runs in another process: its /metrics has its lag' },
      expect.objectContaining({ role: 'projector', here: false, records: 42, slots: 10 }),
      expect.objectContaining({ role: 'api', here: true, slots: null, note: 'live tail at slot 1000' }),
    ]);
    expect(a.streams).toEqual({
      grpc: { 'geyser.Geyser/Subscribe': 3 },
      pubsubConnections: 2,
      pubsubSubscriptions: { logs: 5 },
      replays: 1,
      perKey: { 'bot-a': 3 },
    });
    expect(a.upstreams).toEqual([]);
    expect(a.throughput.slotsPerSecond).toBeNull();

    // Two seconds later: 5 slots and 8 requests more.
    clock.now = 3_000;
    o.tip = 1_005n;
    metrics.slotstream_jsonrpc_answers_total![0]!.value = 18;
    const b = await snapshot();
    expect(b.throughput).toEqual({
      slotsPerSecond: 2.5,
      rpcRequestsPerSecond: 4,
      ingestRecordsPerSecond: null,
      projectorEventsPerSecond: null,
    });
  });

  it('an ingest in this process: its lag, behind, and its upstream', async () => {
    const metrics: Record<string, MetricSample[]> = {
      slotstream_ingest_last_slot: [{ labels: {}, value: 995 }],
      slotstream_ingest_lag_slots: [{ labels: {}, value: 7 }],
      slotstream_ingest_lag_ms: [{ labels: {}, value: 2_800 }],
      slotstream_ingest_behind: [{ labels: {}, value: 1 }],
      slotstream_ingest_upstream_slot: [{ labels: {}, value: 1_002 }],
      slotstream_ingest_yellowstone_reconnects_total: [{ labels: {}, value: 4 }],
    };
    const s = await statusSource(inputs({ tip: 990n, metrics, clock: { now: 0 } }))();
    expect(s.lag[0]).toEqual({ role: 'ingest', here: true, slots: 7, ms: 2_800, behind: true, note: 'published up to slot 995' });
    expect(s.lag[2]).toMatchObject({ role: 'api', slots: 5 });
    expect(s.lag[1]).toMatchObject({ records: null });
    expect(s.upstreams).toEqual([{ source: 'yellowstone', tip: '1002', lagSlots: 7, behind: true, reconnects: 4 }]);
  });

  it('several Yellowstone upstreams: a row for each, its lag behind the fastest, down while retried, its reconnects', async () => {
    const each = (a: number, b: number): MetricSample[] => [
      { labels: { upstream: 'https://a.example' }, value: a },
      { labels: { upstream: 'http://10.0.0.5:10000' }, value: b },
    ];
    const metrics: Record<string, MetricSample[]> = {
      slotstream_ingest_last_slot: [{ labels: {}, value: 995 }],
      slotstream_ingest_lag_slots: [{ labels: {}, value: 1 }],
      slotstream_ingest_upstream_slot: [{ labels: {}, value: 996 }],
      slotstream_ingest_yellowstone_reconnects_total: [{ labels: {}, value: 3 }],
      slotstream_ingest_yellowstone_upstream_connected: each(1, 0),
      slotstream_ingest_yellowstone_upstream_lag_slots: each(0, 12),
      slotstream_ingest_yellowstone_upstream_reconnects_total: each(0, 3),
    };
    const s = await statusSource(inputs({ tip: 996n, metrics, clock: { now: 0 } }))();
    expect(s.upstreams).toEqual([
      { source: 'yellowstone', tip: '996', lagSlots: 1, behind: null, reconnects: 3 },
      { source: 'yellowstone https://a.example', tip: null, lagSlots: 0, behind: false, reconnects: 0 },
      { source: 'yellowstone http://10.0.0.5:10000', tip: null, lagSlots: 12, behind: true, reconnects: 3 },
    ]);
    // One upstream: its own row only (the per-upstream metrics say nothing the ingest's row does not).
    metrics['slotstream_ingest_yellowstone_upstream_connected'] = [{ labels: { upstream: 'https://a.example' }, value: 1 }];
    expect((await statusSource(inputs({ tip: 996n, metrics, clock: { now: 0 } }))()).upstreams).toHaveLength(1);
  });
});

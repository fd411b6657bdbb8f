// What the status page shows (GET /status.json on the JSON-RPC port): the chain's tip as the api's live layer reads it
// from Kafka and the views' heads at each commitment; the lag of every role (the ingest behind its upstream, the
// projector behind Kafka in records and the views behind the tip in slots, the api's live tail behind the ingest);
// throughput; open streams per interface; the upstream. Figures of a role running in another process are not
// reachable from here except through the stores: the projector's lag is read from the heads table it writes, so it
// shows wherever the api runs; the ingest's lag and upstream show when it runs in this process (`slotstream all`)
// and say so otherwise (its own /metrics has them).
import type { ClickHouseClient } from '@clickhouse/client';
import { processMetrics } from '../../platform/metrics.js';
import { COMMITMENTS, type ViewsState } from '../views/state.js';
import { queryRows, u64 } from '../views/query.js';
import { RateTracker } from './rates.js';

export interface MetricSample {
  labels: Record<string, string | number>;
  value: number;
}

export interface StatusInputs {
  /** The newest slot the live layer has read from the slots topic. */
  chainTip: () => bigint | undefined;
  views: () => Promise<ViewsState>;
  /** The projector group's lag in records (the heads table's kafka_lag); undefined before the projector wrote one. */
  projectorLag: () => Promise<bigint | undefined>;
  /**
   * One reading of the metrics (this process's, merged with its stream processes'): a metric's samples by name,
   * undefined when no part registered it. Read once per snapshot, so every figure comes from the same moment.
   */
  metrics: () => Promise<(name: string) => Promise<MetricSample[] | undefined>>;
  now: () => number;
}

export interface RoleLag {
  role: 'ingest' | 'projector' | 'api';
  /** Whether the figures come from this process (else from the stores, or not known here). */
  here: boolean;
  slots: number | null;
  ms?: number | null;
  records?: number | null;
  behind?: boolean | null;
  note: string;
}

export interface StatusSnapshot {
  at: string;
  chain: { tip: string | null; views: Record<string, string | null> };
  lag: RoleLag[];
  throughput: Record<'slotsPerSecond' | 'rpcRequestsPerSecond' | 'ingestRecordsPerSecond' | 'projectorEventsPerSecond', number | null>;
  streams: {
    grpc: Record<string, number>;
    pubsubConnections: number;
    pubsubSubscriptions: Record<string, number>;
    replays: number;
    /** Open gRPC streams and PubSub connections per API key id (api/access/), every interface together. */
    perKey: Record<string, number>;
  };
  /** The ingest's upstream; with several Yellowstone upstreams merged, then one row per upstream (`yellowstone
   * <endpoint>`): its lag behind the fastest upstream, `behind` while it is being retried, its reconnects. */
  upstreams: { source: string; tip: string | null; lagSlots: number | null; behind: boolean | null; reconnects: number | null }[];
}

const sum = (s: MetricSample[] | undefined): number | undefined => (s === undefined ? undefined : s.reduce((n, x) => n + x.value, 0));
const first = (s: MetricSample[] | undefined): number | undefined => s?.[0]?.value;
const byLabel = (s: MetricSample[] | undefined, label: string): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const x of s ?? []) if (x.value !== 0) out[String(x.labels[label])] = (out[String(x.labels[label])] ?? 0) + x.value;
  return out;
};
const round = (v: number | undefined): number | null => (v === undefined ? null : Math.round(v * 10) / 10);

/** The metrics a snapshot reads, by the short name the snapshot's steps use. */
const METRICS = {
  lastSlot: 'slotstream_ingest_last_slot',
  lagSlots: 'slotstream_ingest_lag_slots',
  lagMs: 'slotstream_ingest_lag_ms',
  behind: 'slotstream_ingest_behind',
  upstreamSlot: 'slotstream_ingest_upstream_slot',
  reconnects: 'slotstream_ingest_yellowstone_reconnects_total',
  eachConnected: 'slotstream_ingest_yellowstone_upstream_connected',
  eachLag: 'slotstream_ingest_yellowstone_upstream_lag_slots',
  eachReconnects: 'slotstream_ingest_yellowstone_upstream_reconnects_total',
  rpcRetries: 'slotstream_ingest_rpc_retries_total',
  records: 'slotstream_ingest_records_total',
  events: 'slotstream_projector_events_total',
  answers: 'slotstream_jsonrpc_answers_total',
  grpc: 'slotstream_grpc_streams',
  pubsubConnections: 'slotstream_pubsub_connections',
  pubsubSubscriptions: 'slotstream_pubsub_subscriptions',
  replays: 'slotstream_live_replays_running',
  perKey: 'slotstream_key_open_streams',
} as const;

type Samples = { [K in keyof typeof METRICS]: MetricSample[] | undefined };

/** What one snapshot is built from (read by `readState`; the rest of the steps are pure). */
interface Read {
  views: ViewsState;
  projectorLag: bigint | undefined;
  samples: Samples;
  tip: bigint | undefined;
}

async function readState(inputs: StatusInputs): Promise<Read> {
  const [views, projectorLag] = await Promise.all([inputs.views(), inputs.projectorLag().catch(() => undefined)]);
  const names = Object.keys(METRICS) as (keyof typeof METRICS)[];
  const metric = await inputs.metrics();
  const values = await Promise.all(names.map((n) => metric(METRICS[n])));
  const samples = Object.fromEntries(names.map((n, i) => [n, values[i]])) as Samples;
  return { views, projectorLag, samples, tip: inputs.chainTip() };
}

/** Each role's lag: the ingest's own figures when it runs here, the projector's records to store, the live tail. */
function lagOf({ samples: s, tip, views, projectorLag }: Read): RoleLag[] {
  const ingestHere = s.lastSlot !== undefined;
  const published = first(s.lastSlot);
  const processed = views.head.processed;
  return [
    ingestHere
      ? {
          role: 'ingest',
          here: true,
          slots: first(s.lagSlots) ?? null,
          ms: first(s.lagMs) ?? null,
          behind: first(s.behind) === 1,
          note: `published up to slot ${published ?? '-'}`,
        }
      : { role: 'ingest', here: false, slots: null, note: 'runs in another process: its /metrics has its lag' },
    {
      role: 'projector',
      here: s.events !== undefined,
      records: projectorLag === undefined ? null : Number(projectorLag),
      slots: tip !== undefined && processed !== undefined ? Math.max(0, Number(tip - processed)) : null,
      note: 'records still to store (heads table); slots: the views behind the chain tip',
    },
    {
      role: 'api',
      here: true,
      slots: ingestHere && published !== undefined && tip !== undefined ? Math.max(0, published - Number(tip)) : null,
      note: tip === undefined ? 'live tail has read no slot yet' : `live tail at slot ${tip}`,
    },
  ];
}

/** The ingest's upstream, when the ingest runs in this process. */
function upstreamsOf({ samples: s }: Read): StatusSnapshot['upstreams'] {
  if (s.lastSlot === undefined) return [];
  const published = first(s.lastSlot);
  const source = s.upstreamSlot !== undefined ? 'yellowstone' : s.rpcRetries !== undefined ? 'rpc' : 'simulator or file';
  const lagSlots = first(s.lagSlots);
  const upTip = first(s.upstreamSlot) ?? (published !== undefined && lagSlots !== undefined ? published + lagSlots : undefined);
  return [
    {
      source,
      tip: upTip === undefined ? null : String(upTip),
      lagSlots: lagSlots ?? null,
      behind: s.behind === undefined ? null : first(s.behind) === 1,
      reconnects: sum(s.reconnects) ?? null,
    },
    ...eachUpstream(s),
  ];
}

/** One row per Yellowstone upstream when several are merged (by the `upstream` label of their metrics). */
function eachUpstream(s: Samples): StatusSnapshot['upstreams'] {
  const at = (samples: MetricSample[] | undefined, name: string): number | undefined =>
    samples?.find((x) => String(x.labels['upstream']) === name)?.value;
  const names = [...new Set((s.eachConnected ?? []).map((x) => String(x.labels['upstream'])))];
  if (names.length < 2) return [];
  return names.map((name) => {
    const connected = at(s.eachConnected, name);
    return {
      source: `yellowstone ${name}`,
      tip: null,
      lagSlots: at(s.eachLag, name) ?? null,
      behind: connected === undefined ? null : connected === 0,
      reconnects: at(s.eachReconnects, name) ?? null,
    };
  });
}

/** The counters whose rates the page shows, for the rate tracker. */
function countersOf({ samples: s, tip }: Read): Map<string, number> {
  const counters = new Map<string, number>();
  if (tip !== undefined) counters.set('slots', Number(tip));
  for (const [k, v] of [
    ['rpc', sum(s.answers)],
    ['records', sum(s.records)],
    ['events', sum(s.events)],
  ] as const)
    if (v !== undefined) counters.set(k, v);
  return counters;
}

function snapshotOf(read: Read, at: number, r: ReturnType<RateTracker['sample']>): StatusSnapshot {
  const { samples: s, tip, views } = read;
  return {
    at: new Date(at).toISOString(),
    chain: {
      tip: tip === undefined ? null : tip.toString(),
      views: Object.fromEntries(COMMITMENTS.map((c) => [c, views.head[c]?.toString() ?? null])),
    },
    lag: lagOf(read),
    throughput: {
      slotsPerSecond: round(r.get('slots')),
      rpcRequestsPerSecond: round(r.get('rpc')),
      ingestRecordsPerSecond: round(r.get('records')),
      projectorEventsPerSecond: round(r.get('events')),
    },
    streams: {
      grpc: byLabel(s.grpc, 'method'),
      pubsubConnections: sum(s.pubsubConnections) ?? 0,
      pubsubSubscriptions: byLabel(s.pubsubSubscriptions, 'kind'),
      replays: sum(s.replays) ?? 0,
      perKey: byLabel(s.perKey, 'key'),
    },
    upstreams: upstreamsOf(read),
  };
}

/** Builds snapshots; keeps the samples its rates need (one per process, shared by every page that polls). */
export function statusSource(inputs: StatusInputs): () => Promise<StatusSnapshot> {
  const rates = new RateTracker();
  return async () => {
    const read = await readState(inputs);
    const at = inputs.now();
    return snapshotOf(read, at, rates.sample(at, countersOf(read)));
  };
}

/** The inputs from this process: its metrics (with its stream processes'), the views, the heads table. */
export function processInputs(o: {
  ch: ClickHouseClient;
  database: string;
  chainTip: () => bigint | undefined;
  views: () => Promise<ViewsState>;
}): StatusInputs {
  return {
    chainTip: o.chainTip,
    views: o.views,
    projectorLag: async () => {
      const [row] = await queryRows<{ slot: string }>(o.ch, `SELECT slot FROM {db:Identifier}.heads FINAL WHERE commitment = 'kafka_lag'`, {
        db: o.database,
      });
      return row === undefined ? undefined : u64(row.slot);
    },
    metrics: async () => {
      const merged = await processMetrics();
      return async (name) => {
        const metric = merged.getSingleMetric(name);
        if (metric === undefined) return undefined;
        return (await metric.get()).values.map((v) => ({ labels: v.labels as Record<string, string | number>, value: v.value }));
      };
    },
    now: () => Date.now(),
  };
}

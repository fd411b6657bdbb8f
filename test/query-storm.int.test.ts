/* eslint-disable @typescript-eslint/no-explicit-any -- JSON-RPC answers are checked by value */
// Issue 18, item 9: one client must not stall JSON-RPC for everyone. On a real broker (the PubSub live layer)
// and real embedded ClickHouse (chdb, which runs parameterized queries one at a time), the storm of the
// issue: five rounds of 100 signatureSubscribe with random signatures on one WebSocket, each unsubscribed
// as soon as its id arrives (every subscribe starts a getSignatureStatuses(searchTransactionHistory) look-up),
// and at the same time five concurrent JSON-RPC batches of 100 such look-ups. Meanwhile a third client asks
// getSlot over and over: its p99 must stay under 100 ms. Look-ups of gone subscriptions are cancelled, and a
// client over its share gets -32429 naming the limit.
// The servers and the clients share this process (and the machine its neighbours): the service's own part is
// the server-side time (slotstream_jsonrpc_request_seconds, from the request's parse to its answer), which must
// hold getSlot's p99 under 100 ms; the client-side p99 must stay under 100 ms plus the process's own event-loop
// lag p99 (CPU starvation of this process, not a queue in the service). Before the fix: 3.5-5.2 s either way.
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryAdmission } from '../api/views/admission.js';
import { rpcDuration } from '../api/jsonrpc/metrics.js';
import { clickHouseViews, LiveLayer } from '../api/live/index.js';
import { startPubSub, type PubSubServer } from '../api/pubsub/server.js';
import { viewsSignatureLookup } from '../api/pubsub/signature-lookup.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import { topicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { insertTransactions, openTestStore, sig, type TestStore, type TxRow } from './support/jsonrpc/store.js';
import { ADDR_A, HEADS, loadWorld, serve, type Served } from './support/jsonrpc/world.js';
import { RawClient } from './support/pubsub/raw-client.js';

const ROUNDS = 5;
const PER_ROUND = 100;
const BATCHES = 5;
const PER_BATCH = 100;
const randomSignature = (): string => bs58.encode(randomBytes(64));

describe('a query storm from one client (issue 18, item 9)', () => {
  const topics = topicNames(uniquePrefix('query-storm'));
  let kafka: Kafka;
  let live: LiveLayer;
  let store: TestStore;
  let rpc: Served;
  let pubsub: PubSubServer;
  const admission = new QueryAdmission({ maxRunning: 2, maxPerClient: 128 });

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'query-storm-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 1, retentionMs: -1, replicationFactor: 1 });
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 10_000, log: silentLogger });
    store = await openTestStore();
    const db = await store.database('query_storm');
    await loadWorld(store.ch, db);
    // History to search: 100,000 more finalized transactions.
    const txs: TxRow[] = Array.from({ length: 100_000 }, (_, i) => ({
      signature: sig(i, 42),
      slot: 1000 + (i % (HEADS.finalized - 1000)),
      position: 1000 + i,
      addresses: i % 1000 === 0 ? [ADDR_A] : [],
    }));
    await insertTransactions(store.ch, db, txs);
    rpc = await serve(store.ch, db, { stateTtlMs: 200, admission });
    pubsub = await startPubSub({
      live,
      host: '127.0.0.1',
      port: 0,
      maxConnections: 10,
      maxSubscriptionsPerConnection: 1_000,
      maxMessageBytes: 64 * 1024,
      maxBufferedBytes: 16 * 1024 * 1024,
      pingIntervalMs: 10_000,
      lookupSignature: viewsSignatureLookup(clickHouseViews(store.ch, db, admission)),
      log: silentLogger,
    });
  });
  afterAll(async () => {
    await pubsub?.close();
    await rpc?.server.close();
    await live?.close();
    await store?.close();
    await kafka?.close();
  });

  /** getSlot's server-side times so far, from the request-duration histogram: how many, how many within 100 ms. */
  async function getSlotServerTimes() {
    const values = (await rpcDuration.get()).values.filter((v) => v.labels.method === 'getSlot');
    const count = values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
    const within100ms =
      values.find((v) => v.metricName?.endsWith('_bucket') && (v.labels as Record<string, unknown>).le === 0.1)?.value ?? 0;
    return {
      count,
      within100ms,
      since: (o: { count: number; within100ms: number }) => ({ count: count - o.count, within100ms: within100ms - o.within100ms }),
    };
  }

  /** getSlot in a loop until stopped: each answer's latency in ms. */
  function probeGetSlot(): { stop(): Promise<number[]> } {
    const latencies: number[] = [];
    let running = true;
    const loop = (async () => {
      while (running) {
        const t0 = performance.now();
        const r = await rpc.call('getSlot', [{ commitment: 'finalized' }]);
        latencies.push(performance.now() - t0);
        expect(r.body.result).toBe(HEADS.finalized);
        await new Promise((res) => setTimeout(res, 5));
      }
    })();
    return { stop: async () => ((running = false), await loop, latencies) };
  }

  async function webSocketStorm(): Promise<{ subscribed: number; refused: any[] }> {
    const ws = await RawClient.connect(`ws://127.0.0.1:${pubsub.port}/`);
    let id = 0;
    let subscribed = 0;
    const refused: any[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const ids = Array.from({ length: PER_ROUND }, () => ++id);
        for (const n of ids) ws.call(n, 'signatureSubscribe', [randomSignature(), { commitment: 'finalized' }]);
        // Each subscription is dropped as soon as its id arrives.
        const unsubscribes: number[] = [];
        const pending = new Set(ids);
        await waitFor(
          () => {
            for (const n of pending) {
              const a = ws.answers.get(n);
              if (a === undefined) continue;
              pending.delete(n);
              if (a.error) refused.push(a.error);
              else {
                subscribed++;
                const u = ++id + 1_000_000;
                unsubscribes.push(u);
                ws.call(u, 'signatureUnsubscribe', [a.result]);
              }
            }
            return pending.size === 0;
          },
          { what: `round ${round}'s subscribe answers`, intervalMs: 5 },
        );
        await waitFor(() => unsubscribes.every((u) => ws.answers.get(u)?.result === true), {
          what: `round ${round}'s unsubscribes`,
          intervalMs: 5,
        });
      }
    } finally {
      ws.close();
    }
    return { subscribed, refused };
  }

  async function batchStorm(): Promise<any[]> {
    const batches = Array.from({ length: BATCHES }, (_, b) =>
      rpc.post(
        JSON.stringify(
          Array.from({ length: PER_BATCH }, (_, i) => ({
            jsonrpc: '2.0',
            id: b * PER_BATCH + i,
            method: 'getSignatureStatuses',
            params: [[randomSignature()], { searchTransactionHistory: true }],
          })),
        ),
      ),
    );
    return (await Promise.all(batches)).flatMap((r) => JSON.parse(r.text));
  }

  it('leaves a concurrent getSlot p99 under 100 ms; gone look-ups are cancelled; a client over its share is told so', async () => {
    // A server under way has read the views state before; the storm starts after the first getSlot.
    expect((await rpc.call('getSlot', [{ commitment: 'finalized' }])).body.result).toBe(HEADS.finalized);
    const quiet = probeGetSlot();
    await new Promise((res) => setTimeout(res, 1_000));
    const control = (await quiet.stop()).sort((a, b) => a - b);
    const queries = admission.stats();
    const served = await getSlotServerTimes();
    // The servers and the clients share this process: its event-loop lag is part of every latency measured.
    const lag = monitorEventLoopDelay({ resolution: 5 });
    lag.enable();
    const probe = probeGetSlot();
    const started = performance.now();
    const [ws, answers] = await Promise.all([webSocketStorm(), batchStorm()]);
    const stormMs = performance.now() - started;
    const latencies = (await probe.stop()).sort((a, b) => a - b);
    const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1]!;
    const after = admission.stats();
    const server = (await getSlotServerTimes()).since(served);
    lag.disable();
    console.log(
      `no storm: getSlot ${control.length} calls, p50 ${control[control.length >> 1]!.toFixed(1)} ms, p99 ${control[Math.ceil(control.length * 0.99) - 1]!.toFixed(1)} ms`,
    );
    console.log(
      `storm ${stormMs.toFixed(0)} ms; getSlot ${latencies.length} calls, p50 ${latencies[latencies.length >> 1]!.toFixed(1)} ms, ` +
        `p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms; queries run ${after.run - queries.run}, ` +
        `cancelled ${after.cancelled - queries.cancelled}, refused ${after.refused - queries.refused}; ` +
        `subscribed ${ws.subscribed}, subscribes refused ${ws.refused.length}; server side: ${server.within100ms} of ${server.count} getSlot within 100 ms; event-loop lag p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms, max ${(lag.max / 1e6).toFixed(0)} ms`,
    );

    expect(latencies.length).toBeGreaterThan(20);
    expect(server.count).toBeGreaterThanOrEqual(latencies.length);
    expect(server.within100ms / server.count).toBeGreaterThanOrEqual(0.99);
    expect(p99).toBeLessThan(100 + lag.percentile(99) / 1e6);
    // Every batch entry is answered: a status (null: random signatures are unknown) or the share error.
    expect(answers).toHaveLength(BATCHES * PER_BATCH);
    const tooMany = answers.filter((a) => a.error);
    for (const a of answers) {
      if (a.error)
        expect(a.error).toEqual({
          code: -32429,
          message: expect.stringMatching(/at most 128 queries in flight per client \(rpcMaxQueriesPerClient\)/),
        });
      else expect(a.result.value).toEqual([null]);
    }
    expect(tooMany.length).toBeGreaterThan(0); // 500 look-ups from one address: over its share of 128
    for (const e of ws.refused) expect(e.code).toBe(-32429);
    expect(ws.subscribed + ws.refused.length).toBe(ROUNDS * PER_ROUND);
    // Look-ups of subscriptions dropped at once are cancelled before they reach ClickHouse (most of them).
    expect(after.cancelled - queries.cancelled).toBeGreaterThan((ROUNDS * PER_ROUND) / 2);
    await waitFor(() => admission.stats().admitted === 0 || undefined, { what: 'every admitted query done' });
  });
});

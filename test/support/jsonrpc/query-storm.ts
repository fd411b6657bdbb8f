/* eslint-disable @typescript-eslint/no-explicit-any -- JSON-RPC answers are checked by value */
// The query storm of issue 18 item 9, shared by test/query-storm.int.test.ts (what the storm's clients and a
// concurrent getSlot get) and bench/query-storm.ts (how long getSlot takes meanwhile). On a real broker (the
// PubSub live layer) and real embedded ClickHouse (chdb, which runs parameterized queries one at a time): five
// rounds of 100 signatureSubscribe with random signatures on one WebSocket, each unsubscribed as soon as its id
// arrives (every subscribe starts a getSignatureStatuses(searchTransactionHistory) look-up), and at the same
// time five concurrent JSON-RPC batches of 100 such look-ups, while a third client asks getSlot over and over.
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import bs58 from 'bs58';
import { QueryAdmission, type AdmissionStats } from '../../../api/views/admission.js';
import { rpcDuration } from '../../../api/jsonrpc/metrics.js';
import { clickHouseViews, LiveLayer } from '../../../api/live/index.js';
import { startPubSub, type PubSubServer } from '../../../api/pubsub/server.js';
import { viewsSignatureLookup } from '../../../api/pubsub/signature-lookup.js';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { topicNames } from '../../../schemas/topics.js';
import { uniquePrefix, waitFor } from '../harness/kafka.js';
import { RawClient } from '../pubsub/raw-client.js';
import { insertTransactions, openTestStore, sig, type TestStore, type TxRow } from './store.js';
import { ADDR_A, HEADS, loadWorld, serve, type Served } from './world.js';

export const ROUNDS = 5;
export const PER_ROUND = 100;
export const BATCHES = 5;
export const PER_BATCH = 100;
/** The admission of the storm's servers: at most 128 queries in flight per client, two at a time in ClickHouse. */
export const MAX_PER_CLIENT = 128;
const randomSignature = (): string => bs58.encode(randomBytes(64));

/** The storm's servers: JSON-RPC and PubSub over one ClickHouse world with 100,000 more finalized transactions. */
export interface StormWorld {
  rpc: Served;
  pubsub: PubSubServer;
  admission: QueryAdmission;
  close(): Promise<void>;
}

export async function startStormWorld(brokers: string[]): Promise<StormWorld> {
  const topics = topicNames(uniquePrefix('query-storm'));
  const admission = new QueryAdmission({ maxRunning: 2, maxPerClient: MAX_PER_CLIENT });
  const kafka: Kafka = createKafka({ brokers, clientId: 'query-storm' });
  let live: LiveLayer | undefined;
  let store: TestStore | undefined;
  let rpc: Served | undefined;
  let pubsub: PubSubServer | undefined;
  const close = async (): Promise<void> => {
    await pubsub?.close();
    await rpc?.server.close();
    await live?.close();
    await store?.close();
    await kafka.close();
  };
  try {
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
    return { rpc, pubsub, admission, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** getSlot's server-side times so far, from the request-duration histogram: how many, how many within 100 ms. */
export async function getSlotServerTimes(): Promise<{ count: number; within100ms: number }> {
  const values = (await rpcDuration.get()).values.filter((v) => v.labels.method === 'getSlot');
  const count = values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0;
  const within100ms = values.find((v) => v.metricName?.endsWith('_bucket') && (v.labels as Record<string, unknown>).le === 0.1)?.value ?? 0;
  return { count, within100ms };
}

/** One getSlot answer: when it was asked and answered (performance.now()), and what it said. */
export interface GetSlotAnswer {
  sentAt: number;
  at: number;
  result: unknown;
}

/** getSlot (finalized) in a loop until stopped: every answer. */
export function probeGetSlot(rpc: Served): { stop(): Promise<GetSlotAnswer[]> } {
  const answers: GetSlotAnswer[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const sentAt = performance.now();
      const r = await rpc.call('getSlot', [{ commitment: 'finalized' }]);
      answers.push({ sentAt, at: performance.now(), result: r.body?.result ?? r.body?.error });
      await new Promise((res) => setTimeout(res, 5));
    }
  })();
  return { stop: async () => ((running = false), await loop, answers) };
}

/** The WebSocket half of the storm: how many subscribes were answered with an id, and the refusals. */
export async function webSocketStorm(port: number): Promise<{ subscribed: number; refused: any[] }> {
  const ws = await RawClient.connect(`ws://127.0.0.1:${port}/`);
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
        { what: `round ${round}'s subscribe answers`, intervalMs: 5, timeoutMs: 300_000 },
      );
      await waitFor(() => unsubscribes.every((u) => ws.answers.get(u)?.result === true), {
        what: `round ${round}'s unsubscribes`,
        intervalMs: 5,
        timeoutMs: 300_000,
      });
    }
  } finally {
    ws.close();
  }
  return { subscribed, refused };
}

/** The batch half of the storm: every entry's answer. */
export async function batchStorm(rpc: Served): Promise<any[]> {
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

/** What a storm run saw. Times are performance.now() in ms. */
export interface StormRun {
  /** getSlot alone for a second before the storm, and the admission counters around it. */
  quiet: { answers: GetSlotAnswer[]; before: AdmissionStats; after: AdmissionStats };
  /** getSlot from the storm's start to its end. */
  answers: GetSlotAnswer[];
  started: number;
  ended: number;
  ws: { subscribed: number; refused: any[] };
  batch: any[];
  /** Admission counters before and after the storm. */
  before: AdmissionStats;
  after: AdmissionStats;
  /** getSlot's server-side times during the storm. */
  server: { count: number; within100ms: number };
  /** This process's event-loop lag during the storm (ms): the servers and the clients share it. */
  lag: { p99: number; max: number };
}

export async function runStorm(world: StormWorld): Promise<StormRun> {
  const { rpc, pubsub, admission } = world;
  // A server under way has read the views state before; the storm starts after the first getSlot.
  await rpc.call('getSlot', [{ commitment: 'finalized' }]);
  const quietBefore = admission.stats();
  const quiet = probeGetSlot(rpc);
  await new Promise((res) => setTimeout(res, 1_000)); // how long the quiet sample lasts, not a bound
  const quietAnswers = await quiet.stop();
  const quietAfter = admission.stats();
  const served = await getSlotServerTimes();
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const before = admission.stats();
  const probe = probeGetSlot(rpc);
  const started = performance.now();
  const [ws, batch] = await Promise.all([webSocketStorm(pubsub.port), batchStorm(rpc)]);
  const ended = performance.now();
  const answers = await probe.stop();
  const after = admission.stats();
  const now = await getSlotServerTimes();
  lag.disable();
  return {
    quiet: { answers: quietAnswers, before: quietBefore, after: quietAfter },
    answers,
    started,
    ended,
    ws,
    batch,
    before,
    after,
    server: { count: now.count - served.count, within100ms: now.within100ms - served.within100ms },
    lag: { p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 },
  };
}

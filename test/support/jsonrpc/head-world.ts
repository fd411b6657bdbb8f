// A chain on the real stack with the head cache in front: its own Kafka topics, a live layer (the real tail) that
// feeds a HeadCache from the topics' start, two JSON-RPC servers on one embedded ClickHouse database (one with the
// cache, one on the views alone), and the projector started only when a test says so, so the views can be held
// back while the cache already answers.
import type { ClickHouseClient } from '@clickhouse/client';
import { HeadCache } from '../../../api/head/head-cache.js';
import { headAnswers } from '../../../api/jsonrpc/metrics.js';
import { JsonRpcServer } from '../../../api/jsonrpc/server.js';
import { LiveLayer } from '../../../api/live/index.js';
import { projectorSection } from '../../../cli/config-sections.js';
import { makeConfig } from '../../../cli/config.js';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { applyMigrations } from '../../../platform/migrations.js';
import { startProjector, type Projector } from '../../../projector/run.js';
import type { Commitment } from '../../../schemas/commitment.js';
import { topicNames, type TopicNames } from '../../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../harness/kafka.js';
import { heads } from '../projector/dump.js';

export type Heads = Record<Commitment, bigint>;

export interface HeadWorld {
  kafka: Kafka;
  topics: TopicNames;
  prefix: string;
  cache: HeadCache;
  /** The raw response text of one call to the server with the cache, or to the one on the views alone. */
  cached(method: string, params?: unknown): Promise<string>;
  views(method: string, params?: unknown): Promise<string>;
  /** The raw response text of one batch of calls (ids 0, 1, ... in order) to either server. */
  cachedBatch(calls: readonly (readonly [method: string, params?: unknown])[]): Promise<string>;
  viewsBatch(calls: readonly (readonly [method: string, params?: unknown])[]): Promise<string>;
  /** Starts the projector (the views catch up from the topics' start) and waits until their heads are `want`. */
  startViews(want: Heads): Promise<void>;
  /** Waits until the cache's heads are `want` and every block `slots` names is held whole (or below its floor). */
  cacheCaughtUp(want: Heads, slots: readonly bigint[]): Promise<void>;
  close(): Promise<void>;
}

const entry = (id: number, method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const post = async (url: string, body: unknown) => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return r.text();
};
const CALL = (url: string) => (method: string, params?: unknown) => post(url, entry(1, method, params));
const BATCH = (url: string) => (calls: readonly (readonly [method: string, params?: unknown])[]) =>
  post(
    url,
    calls.map(([method, params], id) => entry(id, method, params)),
  );

export async function openHeadWorld(ch: ClickHouseClient, name: string, slots = 150): Promise<HeadWorld> {
  const db = name;
  await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  await applyMigrations(ch, db);
  const prefix = uniquePrefix(name);
  const topics = topicNames(prefix);
  const kafka = createKafka({ brokers: testBrokers(), clientId: `${name}-test` });
  await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
  const live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 60_000, log: silentLogger });
  const cache = new HeadCache({ slots, fromStart: live.readsFromStart() });
  live.addConsumer(cache);
  const options = {
    ch,
    database: db,
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 1024 * 1024,
    maxBatch: 10,
    maxSlotLag: 150,
    chainTip: () => live.chainTip(),
    log: silentLogger,
    stateTtlMs: 0,
  };
  const withCache: JsonRpcServer = await JsonRpcServer.open({ ...options, head: cache });
  const viewsOnly: JsonRpcServer = await JsonRpcServer.open(options);
  let projector: Projector | undefined;
  const headsText = (h: Heads) => JSON.stringify((['confirmed', 'finalized', 'processed'] as const).map((c) => `${c}|${h[c]}`));
  return {
    kafka,
    topics,
    prefix,
    cache,
    cached: CALL(`http://127.0.0.1:${withCache.port}/`),
    views: CALL(`http://127.0.0.1:${viewsOnly.port}/`),
    cachedBatch: BATCH(`http://127.0.0.1:${withCache.port}/`),
    viewsBatch: BATCH(`http://127.0.0.1:${viewsOnly.port}/`),
    async startViews(want) {
      const config = makeConfig('projector', {
        kafkaBrokers: testBrokers(),
        topicPrefix: prefix,
        partitions: 3,
        clickhouseDatabase: db,
        groupId: `g-${name}`,
        batchRows: 2000,
        batchMs: 50,
        logLevel: 'silent',
      });
      projector = await startProjector(projectorSection(config), silentLogger, { ch, kafka, topics });
      await waitFor(async () => JSON.stringify(await heads(ch, db)) === headsText(want), {
        what: `the views of ${name} to reach heads ${headsText(want)}`,
        timeoutMs: 180_000,
        intervalMs: 200,
      });
    },
    async cacheCaughtUp(want, blockSlots) {
      await waitFor(
        () =>
          (['processed', 'confirmed', 'finalized'] as const).every((c) => cache.head(c) === want[c]) &&
          blockSlots.every((s) => s < (cache.floor ?? 0n) || cache.transactions(s) !== undefined),
        { what: `the head cache of ${name} to reach heads ${headsText(want)} with every block whole`, timeoutMs: 300_000, intervalMs: 50 },
      );
    },
    async close() {
      await projector?.stop();
      await withCache.close();
      await viewsOnly.close();
      await live.close();
    },
  };
}

/** The head cache's hits and misses so far, per method (the metric slotstream_jsonrpc_head_cache_total). */
export async function headOutcomes(): Promise<Map<string, { hit: number; miss: number }>> {
  const out = new Map<string, { hit: number; miss: number }>();
  for (const v of (await headAnswers.get()).values) {
    const method = String(v.labels.method);
    const o = out.get(method) ?? { hit: 0, miss: 0 };
    o[v.labels.outcome as 'hit' | 'miss'] += v.value;
    out.set(method, o);
  }
  return out;
}

/** The outcomes counted between two readings of `headOutcomes`. */
export function outcomesSince(before: Map<string, { hit: number; miss: number }>, after: Map<string, { hit: number; miss: number }>) {
  let hit = 0;
  let miss = 0;
  for (const [m, a] of after) {
    const b = before.get(m) ?? { hit: 0, miss: 0 };
    hit += a.hit - b.hit;
    miss += a.miss - b.miss;
  }
  return { hit, miss };
}

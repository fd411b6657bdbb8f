// The runner: one consumer of the projector group over the four event topics. Each fetched partition
// batch becomes a slice; slices are batched by count and age; a batch is inserted (one synchronous
// insert per table, with a dedup token naming its record ranges), its dead letters published, and
// only then its offsets committed. A crash at any point re-delivers from the last commit; the
// tokens and the ReplacingMergeTree keys make the second delivery change nothing.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Consumer, EachBatchPayload, Kafka, OffsetsByTopicPartition } from 'kafkajs';
import { insertTabSeparated } from '../platform/clickhouse.js';
import type { Logger } from '../platform/log.js';
import { toTabSeparated, type TsvValue } from '../platform/tab-separated.js';
import { TOPIC_KINDS, type TopicKind, type TopicNames } from '../schemas/topics.js';
import { Batcher } from './batcher.js';
import type { DeadLetterSink } from './deadletter.js';
import { planBatch, type BatchPlan, type TableInsert } from './plan.js';
import { FREE_TEXT_COLUMNS, VIEW_COLUMNS, VIEW_TABLES, type ViewTable } from './projections/rows.js';
import { markerSlice, projectSlice, type Slice } from './slice.js';

export interface RunnerOptions {
  kafka: Kafka;
  ch: ClickHouseClient;
  database: string;
  topics: TopicNames;
  groupId: string;
  batchRows: number;
  batchMs: number;
  deadLetters: DeadLetterSink;
  log: Logger;
  /** Called after each committed batch (metrics, tests). */
  onBatch?: (plan: BatchPlan, ms: number) => void;
  /** Called after each acknowledged table insert, before the batch commits (crash tests). */
  afterInsert?: (table: string) => void;
  /** Group session timeout (default 30 s): how long a crashed member holds its partitions. */
  sessionTimeoutMs?: number;
}

export interface RunnerStats {
  events: number;
  batches: number;
  deadLetters: number;
}

export interface Runner {
  stats(): RunnerStats;
  stop(): Promise<void>;
}

const PLAIN_COLUMNS = Object.fromEntries(
  VIEW_TABLES.map((t) => [t, new Set<string>((VIEW_COLUMNS[t] as readonly string[]).filter((c) => !FREE_TEXT_COLUMNS.has(c)))]),
) as unknown as Record<ViewTable, ReadonlySet<string>>;

/** TabSeparated: ClickHouse parses it faster than JSON and the embedded engine takes it without a
 * copy (bench/README.md, Projector). */
function tabSeparatedOf(ins: TableInsert): Buffer {
  return toTabSeparated(ins.rows as Record<string, TsvValue>[], VIEW_COLUMNS[ins.table] as readonly string[], PLAIN_COLUMNS[ins.table]);
}

/** Batches' worth of events taken from Kafka and not yet stored before fetching pauses: the flush in
 * progress plus the next fetches being projected meanwhile (2 left the JS thread idle ~28% of the time). */
const QUEUED_BATCHES = 6;

type Commit = (offsets: OffsetsByTopicPartition) => Promise<void>;
interface Pending {
  slice: Slice;
  commit: Commit;
}

class Stopping extends Error {
  override name = 'Stopping';
}

export async function startRunner(o: RunnerOptions): Promise<Runner> {
  const kindOf = new Map<string, TopicKind>(TOPIC_KINDS.map((k) => [o.topics[k], k]));
  const stats: RunnerStats = { events: 0, batches: 0, deadLetters: 0 };
  let stopping = false;
  let lastCommit: Commit | undefined;

  const consumer: Consumer = o.kafka.consumer({
    groupId: o.groupId,
    sessionTimeout: o.sessionTimeoutMs ?? 30_000,
    heartbeatInterval: Math.min(3_000, Math.floor((o.sessionTimeoutMs ?? 30_000) / 3)),
    // Short fetch waits keep stop() quick; records still arrive as soon as they exist.
    maxWaitTimeInMs: 500,
    // Small fetches (about 3,500 records per partition) keep the pipeline fine-grained: the next
    // fetch is decoded and projected while ClickHouse inserts the previous one (bench/README.md).
    maxBytesPerPartition: 1024 * 1024,
    maxBytes: 64 * 1024 * 1024,
    allowAutoTopicCreation: false,
    // read_committed (the default): only records of committed ingest transactions.
    readUncommitted: false,
  });

  let abandoned = false;
  /** Retries `what` until it succeeds or the runner stops: a ClickHouse outage stalls, never skips. */
  const retrying = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        await fn();
        return;
      } catch (err) {
        if (stopping && attempt >= 2) {
          abandoned = true;
          throw new Stopping(`projector stopping: ${what} abandoned`);
        }
        o.log.warn({ err, attempt }, `projector: ${what} failed; retrying`);
        await new Promise((r) => setTimeout(r, Math.min(5_000, 100 * 2 ** attempt)));
      }
    }
  };

  // Once a batch was abandoned (stopping while ClickHouse failed), no later batch may commit: its
  // offsets would cover the abandoned records.
  const flush = async (pending: Pending[]): Promise<void> => {
    if (abandoned) throw new Stopping('projector stopping: an earlier batch was abandoned');
    const started = Date.now();
    const plan = planBatch(pending.map((p) => p.slice));
    o.log.debug({ slices: pending.length, events: plan.events }, 'projector: flush');
    // Tables one after the other: embedded chdb runs one query at a time anyway, and a retry
    // re-sends only what is left (a re-sent table is dropped by its token). The engine inserts off
    // the event loop, so the next table's body is built meanwhile.
    let next = plan.inserts.length > 0 ? tabSeparatedOf(plan.inserts[0]!) : undefined;
    for (let i = 0; i < plan.inserts.length; i++) {
      const ins = plan.inserts[i]!;
      const body = next!;
      const inserted = retrying(`insert into ${ins.table}`, () =>
        insertTabSeparated(o.ch, {
          table: `${o.database}.${ins.table}`,
          columns: VIEW_COLUMNS[ins.table] as readonly string[],
          body,
          // optimize_on_insert=0: no replacing pass at insert time; merges and FINAL converge anyway.
          settings: { insert_deduplication_token: ins.token, async_insert: 0, optimize_on_insert: 0 },
        }),
      );
      next = i + 1 < plan.inserts.length ? tabSeparatedOf(plan.inserts[i + 1]!) : undefined;
      await inserted;
      o.afterInsert?.(ins.table);
    }
    if (plan.deadLetters.length > 0) {
      for (const d of plan.deadLetters) {
        o.log.warn({ topic: d.topic, partition: d.partition, offset: d.offset, reason: d.reason }, 'projector: record dead-lettered');
      }
      await retrying('dead-letter publish', () => o.deadLetters.send(plan.deadLetters));
    }
    const commit = pending[pending.length - 1]!.commit;
    try {
      await commit({ topics: groupByTopic(plan.commits) });
    } catch (err) {
      // Rows are stored; without this commit they are re-delivered (to us or to the partition's new
      // owner after a rebalance) and dropped by the dedup tokens / merged by the table keys.
      o.log.warn({ err }, 'projector: offset commit failed; the batch will be re-delivered');
    }
    stats.events += plan.events;
    stats.batches += 1;
    stats.deadLetters += plan.deadLetters.length;
    o.onBatch?.(plan, Date.now() - started);
    o.log.debug({ commits: plan.commits }, 'projector: committed');
  };

  const batcher = new Batcher<Pending>({
    maxEvents: o.batchRows,
    maxMs: o.batchMs,
    sizeOf: (p) => p.slice.events,
    flush,
  });

  await consumer.connect();
  await consumer.subscribe({ topics: TOPIC_KINDS.map((k) => o.topics[k]), fromBeginning: true });

  // A fetch holding only transaction markers never reaches eachBatch; move the commit past them so
  // the committed offsets (and the lag) reach the end of the log.
  consumer.on(consumer.events.END_BATCH_PROCESS, (e) => {
    const p = e.payload;
    if (p.batchSize !== 0 || lastCommit === undefined || stopping) return;
    batcher.add({ slice: markerSlice(p.topic, p.partition, String(p.lastOffset)), commit: lastCommit }).catch(() => {});
  });

  const admin = o.kafka.admin();
  await admin.connect();
  let partitions = 0;
  try {
    const meta = await admin.fetchTopicMetadata({ topics: TOPIC_KINDS.map((k) => o.topics[k]) });
    for (const t of meta.topics) partitions += t.partitions.length;
  } finally {
    await admin.disconnect();
  }

  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: true,
    // Every partition of a fetch is handled at once, so one flush covers the whole fetch.
    partitionsConsumedConcurrently: Math.max(1, partitions),
    eachBatch: async ({ batch, commitOffsetsIfNecessary, heartbeat }: EachBatchPayload) => {
      const kind = kindOf.get(batch.topic);
      if (kind === undefined) throw new Error(`projector: record from unexpected topic ${batch.topic}`);
      const slice = projectSlice(
        kind,
        batch.topic,
        batch.partition,
        batch.messages.map((m) => ({ offset: m.offset, key: m.key, value: m.value })),
        batch.lastOffset(),
      );
      // The batch's own commit function goes straight to the group (it works while stopping too).
      const commit: Commit = (offsets) => commitOffsetsIfNecessary(offsets);
      lastCommit = commit;
      o.log.debug({ topic: batch.topic, partition: batch.partition, first: String(slice.firstOffset), events: slice.events }, 'projector: slice');
      // The slice is stored and committed by the batcher. Returning before that lets kafkajs fetch
      // and decode the next batch while ClickHouse inserts this one (chdb inserts off the JS thread);
      // committing stays strictly after the insert, and flushes commit in order.
      batcher.add({ slice, commit }).catch((err: unknown) => {
        if (!(err instanceof Stopping)) o.log.error({ err }, 'projector: batch failed; it will be re-delivered');
      });
      await batcher.waitForRoom(QUEUED_BATCHES * o.batchRows);
      await heartbeat().catch(() => {});
    },
  });

  return {
    stats: () => ({ ...stats }),
    async stop() {
      stopping = true;
      // Store and commit what was taken while still a group member, then leave.
      consumer.pause(TOPIC_KINDS.map((k) => ({ topic: o.topics[k] })));
      batcher.hurry();
      await batcher.idle();
      await consumer.stop();
      await batcher.idle();
      await consumer.disconnect();
    },
  };
}

function groupByTopic(commits: BatchPlan['commits']): OffsetsByTopicPartition['topics'] {
  const byTopic = new Map<string, { partition: number; offset: string }[]>();
  for (const c of commits) {
    const list = byTopic.get(c.topic) ?? [];
    list.push({ partition: c.partition, offset: c.offset });
    byTopic.set(c.topic, list);
  }
  return [...byTopic].map(([topic, partitions]) => ({ topic, partitions }));
}

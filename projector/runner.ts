// The runner: one consumer of the projector group over the event topics (RECORD_KINDS). Each fetched partition
// batch becomes a slice; slices are batched by count and age; a batch is inserted (one synchronous
// insert per table, with a dedup token naming its record ranges), its dead letters published, and
// only then its offsets committed. A crash at any point re-delivers from the last commit; the
// tokens and the ReplacingMergeTree keys make the second delivery change nothing.
import type { ClickHouseClient } from '@clickhouse/client';
import type { CommitOffset, GroupConsumer, Kafka, PartitionBatch } from '../platform/kafka/index.js';
import { insertTabSeparated } from '../platform/clickhouse.js';
import { insertRowBinary } from '../platform/row-binary-insert.js';
import type { Logger } from '../platform/log.js';
import { retry, type RetryPolicy } from '../platform/retry.js';
import { isStop, StopError } from '../platform/stop.js';
import { RECORD_KINDS, type TopicKind, type TopicNames } from '../schemas/topics.js';
import { Batcher } from './batcher.js';
import type { DeadLetterSink } from './deadletter.js';
import { planBatch, type BatchPlan } from './plan.js';
import { VIEW_COLUMNS, type TableRows } from './projections/rows.js';
import { batchSeconds, deadLettered, eventsStored } from './metrics.js';
import { markerSlice, projectSlice, type Slice } from './slice.js';
import { rowBinaryRows } from './row-binary.js';
import { sameRows, tabSeparatedRows } from './tsv.js';

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
  /** The inserts' format (default INSERT_FORMAT); the other is kept for the A/B bench (bench/projector.ts). */
  insertFormat?: InsertFormat;
}

export type InsertFormat = 'RowBinary' | 'TabSeparated';

/** RowBinary: ClickHouse stores it for about half the CPU of TabSeparated, and it costs the same to build
 * (bench/README.md, "Insert formats"; decisions.md). */
export const INSERT_FORMAT: InsertFormat = 'RowBinary';

export interface RunnerStats {
  events: number;
  batches: number;
  deadLetters: number;
}

/** The bodies of a batch's inserts, each built once for tables holding the same rows in the same columns:
 * account_writes, program_accounts and program_account_changes get the same row objects (projections/index.ts),
 * and their text was built three times (5-8% of the busy main thread in the soak's profiles, issue 22). */
function bodiesOf(plan: BatchPlan, format: InsertFormat): (i: number) => Buffer {
  const built = new Map<string, { rows: readonly unknown[]; body: Buffer }>();
  return (i) => {
    const ins = plan.inserts[i]!;
    const columns = VIEW_COLUMNS[ins.table].join('\t');
    const prev = built.get(columns);
    if (prev !== undefined && sameRows(prev.rows, ins.rows)) return prev.body;
    const rows = ins.rows as TableRows[typeof ins.table][];
    const body = format === 'RowBinary' ? rowBinaryRows(ins.table, rows) : tabSeparatedRows(ins.table, rows);
    built.set(columns, { rows: ins.rows, body });
    return body;
  };
}

/** Batches' worth of events taken from Kafka and not yet stored before fetching pauses: the flush in
 * progress plus the next fetches being projected meanwhile (2 left the JS thread idle ~28% of the time). */
const QUEUED_BATCHES = 6;

interface Pending {
  slice: Slice;
}

/** The runner. Open with `Runner.open`; `stop` is idempotent. */
export class Runner {
  // Invariants: `consumer` is set by `open` before any fetch is taken, and the batcher flushes (and commits through
  // it) only slices taken from a fetch, so every flush finds it set. `state.stopping` is set once, by `stop`; from
  // then on fetches are dropped. `counts` counts committed batches only.
  private readonly counts: RunnerStats = { events: 0, batches: 0, deadLetters: 0 };
  private readonly state: RunnerState = { stopping: false, abandoned: false };
  private readonly kindOf: ReadonlyMap<string, TopicKind>;
  private readonly batcher: Batcher<Pending>;
  private consumer!: GroupConsumer;
  private stopping: Promise<void> | undefined;

  private constructor(private readonly o: RunnerOptions) {
    this.kindOf = new Map<string, TopicKind>(RECORD_KINDS.map((k) => [o.topics[k], k]));
    const flush = makeFlush(o, this.counts, this.state, (offsets) => this.consumer.commit(offsets));
    this.batcher = new Batcher<Pending>({ maxEvents: o.batchRows, maxMs: o.batchMs, sizeOf: (p) => p.slice.events, flush });
  }

  /** Joins the projector group over the event topics and starts storing what it fetches. */
  static async open(o: RunnerOptions): Promise<Runner> {
    const runner = new Runner(o);
    runner.consumer = await o.kafka.groupConsumer({
      groupId: o.groupId,
      topics: RECORD_KINDS.map((k) => o.topics[k]),
      sessionTimeoutMs: o.sessionTimeoutMs,
      // Short fetch waits keep stop() quick; records still arrive as soon as they exist.
      maxWaitMs: 500,
      // Small fetches (about 3,500 records per partition) keep the pipeline fine-grained: the next
      // fetch is decoded and projected while ClickHouse inserts the previous one (bench/README.md).
      maxBytesPerPartition: 1024 * 1024,
      onBatches: (batches) => takeFetch(o, runner.kindOf, runner.batcher, runner.state, batches),
      onError: (err) => o.log.warn({ err: err.message }, 'projector: Kafka fetch failed; retrying'),
    });
    return runner;
  }

  stats(): RunnerStats {
    return { ...this.counts };
  }

  /** Stores and commits what was taken while still a group member, then leaves. Fetches arriving meanwhile are
   * dropped (takeFetch): uncommitted, so they are re-delivered to the next owner. Idempotent. */
  stop(): Promise<void> {
    this.stopping ??= this.leave();
    return this.stopping;
  }

  private async leave(): Promise<void> {
    this.state.stopping = true;
    this.batcher.hurry();
    await this.batcher.idle();
    await this.consumer.stop();
    await this.batcher.idle();
  }
}

interface RunnerState {
  stopping: boolean;
  /** Once a batch was abandoned (stopping while ClickHouse failed), no later batch may commit: its
   * offsets would cover the abandoned records. */
  abandoned: boolean;
}

/** One fetch: each partition batch becomes a slice for the batcher (a batch with no records, only
 * transaction markers, becomes a marker slice so commits and lag reach the end of the log). */
async function takeFetch(
  o: RunnerOptions,
  kindOf: ReadonlyMap<string, TopicKind>,
  batcher: Batcher<Pending>,
  state: RunnerState,
  batches: PartitionBatch[],
): Promise<void> {
  if (state.stopping) return;
  for (const b of batches) {
    const kind = kindOf.get(b.topic);
    if (kind === undefined) throw new Error(`projector: record from unexpected topic ${b.topic}`);
    const lastOffset = String(b.nextOffset - 1n);
    const slice =
      b.records.length === 0
        ? markerSlice(b.topic, b.partition, lastOffset)
        : projectSlice(
            kind,
            b.topic,
            b.partition,
            b.records.map((r) => ({ offset: String(r.offset), key: r.key, value: r.value })),
            lastOffset,
          );
    o.log.debug({ topic: b.topic, partition: b.partition, first: String(slice.firstOffset), events: slice.events }, 'projector: slice');
    // The slice is stored and committed by the batcher. Returning before that lets the consumer fetch
    // and decode the next batch while ClickHouse inserts this one (chdb inserts off the JS thread);
    // committing stays strictly after the insert, and flushes commit in order.
    batcher.add({ slice }).catch((err: unknown) => {
      if (!isStop(err)) o.log.error({ err }, 'projector: batch failed; it will be re-delivered');
    });
  }
  await batcher.waitForRoom(QUEUED_BATCHES * o.batchRows);
}

/** A ClickHouse or dead-letter write: 100 ms doubling to 5 s, never giving up while the runner runs. */
const STORE_RETRY: RetryPolicy = { initialMs: 100, maxMs: 5_000 };

/** Retries `what` until it succeeds or the runner stops (then after its third attempt): a ClickHouse outage
 * stalls, never skips. */
async function retrying(o: RunnerOptions, state: RunnerState, what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await retry(fn, {
      policy: STORE_RETRY,
      isRetriable: (_err, attempt) => !(state.stopping && attempt >= 2),
      onRetry: (err, attempt) => o.log.warn({ err, attempt }, `projector: ${what} failed; retrying`),
    });
  } catch {
    // Only a stopping runner gives up.
    state.abandoned = true;
    throw new StopError(`projector stopping: ${what} abandoned`);
  }
}

/** Stores a batch: inserts per table, dead letters, then the offsets commit. */
function makeFlush(o: RunnerOptions, stats: RunnerStats, state: RunnerState, commit: (offsets: CommitOffset[]) => Promise<void>) {
  return async (pending: Pending[]): Promise<void> => {
    if (state.abandoned) throw new StopError('projector stopping: an earlier batch was abandoned');
    const started = Date.now();
    const plan = planBatch(pending.map((p) => p.slice));
    o.log.debug({ slices: pending.length, events: plan.events }, 'projector: flush');
    await insertTables(o, state, plan);
    if (plan.deadLetters.length > 0) {
      for (const d of plan.deadLetters) {
        o.log.warn({ topic: d.topic, partition: d.partition, offset: d.offset, reason: d.reason }, 'projector: record dead-lettered');
      }
      await retrying(o, state, 'dead-letter publish', () => o.deadLetters.send(plan.deadLetters));
    }
    try {
      await commit(plan.commits.map((c) => ({ topic: c.topic, partition: c.partition, offset: BigInt(c.offset) })));
    } catch (err) {
      // Rows are stored; without this commit they are re-delivered (to us or to the partition's new
      // owner after a rebalance) and dropped by the dedup tokens / merged by the table keys.
      o.log.warn({ err: (err as Error).message }, 'projector: offset commit failed; the batch will be re-delivered');
    }
    stats.events += plan.events;
    stats.batches += 1;
    stats.deadLetters += plan.deadLetters.length;
    const labels = { database: o.database };
    eventsStored.inc(labels, plan.events);
    if (plan.deadLetters.length > 0) deadLettered.inc(labels, plan.deadLetters.length);
    batchSeconds.observe(labels, (Date.now() - started) / 1000);
    o.onBatch?.(plan, Date.now() - started);
    o.log.debug({ commits: plan.commits }, 'projector: committed');
  };
}

/** Tables one after the other: a retry re-sends only what is left (a re-sent table is dropped by its
 * token), and on one engine session (the default) they would run one at a time anyway. The engine
 * inserts off the event loop, so the next table's body is built meanwhile. */
async function insertTables(o: RunnerOptions, state: RunnerState, plan: BatchPlan): Promise<void> {
  const format = o.insertFormat ?? INSERT_FORMAT;
  const bodyOf = bodiesOf(plan, format);
  let next = plan.inserts.length > 0 ? bodyOf(0) : undefined;
  for (let i = 0; i < plan.inserts.length; i++) {
    const ins = plan.inserts[i]!;
    const body = next!;
    const table = `${o.database}.${ins.table}`;
    const columns = VIEW_COLUMNS[ins.table];
    // optimize_on_insert=0: no replacing pass at insert time; merges and FINAL converge anyway.
    const settings = { insert_deduplication_token: ins.token, async_insert: 0, optimize_on_insert: 0 } as const;
    const inserted = retrying(o, state, `insert into ${ins.table}`, () =>
      format === 'RowBinary'
        ? insertRowBinary(o.ch, { table, columns, body, settings })
        : insertTabSeparated(o.ch, { table, columns, body, settings }),
    );
    next = i + 1 < plan.inserts.length ? bodyOf(i + 1) : undefined;
    await inserted;
    o.afterInsert?.(ins.table);
  }
}

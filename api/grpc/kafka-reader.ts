// A kafkajs consumer used as a plain reader: a throw-away group id (every api process and every replay
// reads everything; nothing is committed), explicit start offsets per partition, read_committed (the
// ingest publishes in Kafka transactions), and exact per-partition positions (the next offset to read,
// counting control records and aborted records), which the live/replay hand-over is built on.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { TopicKind } from '../../schemas/topics.js';

export interface ReaderRecord {
  kind: TopicKind;
  topic: string;
  partition: number;
  offset: bigint;
  value: Buffer | null;
}

export type PartitionOffsets = Map<string, Map<number, bigint>>;

export interface ReaderOptions {
  kafka: Kafka;
  /** Topic name to kind. */
  topics: ReadonlyMap<string, TopicKind>;
  /** Where each partition starts; partitions not listed start at their current end. */
  start: PartitionOffsets;
  /** Called synchronously for each record of a batch; position is advanced right after the batch. */
  onRecords: (records: ReaderRecord[]) => void;
  /** Called after any position moved (also for batches holding only control records). */
  onPosition?: (topic: string, partition: number, next: bigint) => void;
  purpose: string;
  maxWaitMs?: number;
}

/** Records handed over per synchronous step. */
const CHUNK = 256;

type Admin = ReturnType<Kafka['admin']>;

/** Log start and end offsets of every partition of a topic. Retries the transient errors a topic that was
 * just created answers with (its leader is not settled yet). */
export async function partitionRanges(admin: Admin, topic: string): Promise<Map<number, { low: bigint; high: bigint }>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const out = new Map<number, { low: bigint; high: bigint }>();
      for (const p of await admin.fetchTopicOffsets(topic)) out.set(p.partition, { low: BigInt(p.low), high: BigInt(p.high) });
      return out;
    } catch (err) {
      const retriable = (err as { retriable?: boolean }).retriable === true || /leader/i.test((err as Error).message);
      if (!retriable || Date.now() > deadline) throw new Error(`cannot read the offsets of topic ${topic}: ${(err as Error).message}`, { cause: err });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export function uniqueGroupId(purpose: string): string {
  return `slotstream-${purpose}-${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

export class KafkaReader {
  private readonly pos: PartitionOffsets = new Map();
  private consumer: Consumer | undefined;
  private stopped = false;
  private pausedAll = false;
  private readonly pausedParts: { topic: string; partitions: number[] }[] = [];

  private constructor(private readonly o: ReaderOptions) {}

  static async start(o: ReaderOptions): Promise<KafkaReader> {
    const r = new KafkaReader(o);
    await r.run();
    return r;
  }

  /** Next offset to read per topic and partition (a copy). */
  positions(): PartitionOffsets {
    const copy: PartitionOffsets = new Map();
    for (const [t, m] of this.pos) copy.set(t, new Map(m));
    return copy;
  }

  position(topic: string, partition: number): bigint | undefined {
    return this.pos.get(topic)?.get(partition);
  }

  pause(topic: string, partition: number): void {
    this.pausedParts.push({ topic, partitions: [partition] });
    this.applyPauses();
  }

  /** Stops (or restarts) fetching every topic; positions are kept, nothing is skipped. */
  pauseAll(paused: boolean): void {
    this.pausedAll = paused;
    if (!paused) {
      try {
        this.consumer?.resume([...this.o.topics.keys()].map((topic) => ({ topic })));
      } catch {
        // not running yet: nothing is paused
      }
    }
    this.applyPauses();
  }

  /** Pauses survive a consumer restart (kafkajs rebuilds its group state on rejoin), so they are re-applied
   * on every join; before the first join kafkajs refuses them, and the join applies them. */
  private applyPauses(): void {
    const c = this.consumer;
    if (!c) return;
    try {
      if (this.pausedAll) c.pause([...this.o.topics.keys()].map((topic) => ({ topic })));
      if (this.pausedParts.length > 0) c.pause(this.pausedParts);
    } catch {
      // consumer group not initialized yet: GROUP_JOIN applies them
    }
  }

  private advance(topic: string, partition: number, next: bigint): void {
    let m = this.pos.get(topic);
    if (!m) this.pos.set(topic, (m = new Map()));
    const cur = m.get(partition);
    if (cur === undefined || next > cur) {
      m.set(partition, next);
      this.o.onPosition?.(topic, partition, next);
    }
  }

  private async run(): Promise<void> {
    const { kafka, topics, start } = this.o;
    const admin = kafka.admin();
    await admin.connect();
    const initial: PartitionOffsets = new Map();
    try {
      for (const topic of topics.keys()) {
        const m = new Map<number, bigint>();
        for (const [partition, { low, high }] of await partitionRanges(admin, topic)) {
          const wanted = start.get(topic)?.get(partition);
          // Clamp into what the log holds: below the log start Kafka would answer OFFSET_OUT_OF_RANGE.
          m.set(partition, wanted === undefined ? high : wanted < low ? low : wanted > high ? high : wanted);
        }
        initial.set(topic, m);
      }
    } finally {
      await admin.disconnect();
    }
    for (const [t, m] of initial) this.pos.set(t, new Map(m));

    const consumer = kafka.consumer({
      groupId: uniqueGroupId(this.o.purpose),
      readUncommitted: false,
      maxWaitTimeInMs: this.o.maxWaitMs ?? 100,
      minBytes: 1,
      maxBytesPerPartition: 4 * 1024 * 1024,
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
      retry: { retries: 10 },
    });
    this.consumer = consumer;
    // Batches that hold only control records or aborted records never reach eachBatch; they still move
    // the position (the instrumentation event carries their last offset).
    consumer.on(consumer.events.END_BATCH_PROCESS, (e) => {
      const { topic, partition, lastOffset } = e.payload as { topic: string; partition: number; lastOffset: string };
      this.advance(topic, partition, BigInt(lastOffset) + 1n);
    });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.seekAll(consumer);
      this.applyPauses();
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [...topics.keys()], fromBeginning: false });
    const kinds = topics;
    await consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: 1,
      eachBatchAutoResolve: false,
      eachBatch: async (payload: EachBatchPayload) => {
        const { batch } = payload;
        const kind = kinds.get(batch.topic);
        if (kind === undefined || this.stopped) return;
        // Hand records over in chunks and yield between them, so one large fetch cannot monopolize the
        // event loop (clients must get a chance to read, or a burst alone would fill their queues). The
        // position moves with each chunk, so a stream registering between chunks still sees a consistent
        // split: everything before the position was handed over, everything from it will be.
        let records: ReaderRecord[] = [];
        for (const m of batch.messages) {
          const offset = BigInt(m.offset);
          // Seek races: a fetch issued before a seek may return older records; skip what is behind us.
          if (offset < (this.position(batch.topic, batch.partition) ?? 0n)) continue;
          records.push({ kind, topic: batch.topic, partition: batch.partition, offset, value: m.value });
          if (records.length === CHUNK) {
            this.o.onRecords(records);
            this.advance(batch.topic, batch.partition, offset + 1n);
            payload.resolveOffset(m.offset); // kafkajs fetches on from the last resolved offset
            records = [];
            await new Promise<void>((r) => setImmediate(r));
            if (this.stopped || !payload.isRunning() || payload.isStale()) return;
          }
        }
        if (records.length > 0) this.o.onRecords(records);
        this.advance(batch.topic, batch.partition, BigInt(batch.lastOffset()) + 1n);
        payload.resolveOffset(batch.lastOffset());
      },
    });
  }

  /** Points every partition at our own position; runs on each group join, so a consumer that crashed and
   * restarted resumes exactly where this reader stopped (no gap, no duplicate). */
  private seekAll(consumer: Consumer): void {
    for (const [topic, m] of this.pos) {
      for (const [partition, offset] of m) consumer.seek({ topic, partition, offset: offset.toString() });
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.consumer?.disconnect().catch(() => undefined);
  }
}

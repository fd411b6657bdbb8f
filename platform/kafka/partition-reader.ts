// A reader with manual assignment: no group membership, nothing committed, explicit start offsets,
// and exact positions (the next offset to read, past transaction markers and aborted records).
// The api's live tail and replay, the ingest's resume scan, tests and benches read through it.
// The bookkeeping (positions, seeks racing consume calls, pauses) is read-state.ts's, pure; this class
// moves the consumer by it.
import type { KafkaConsumer, Message } from '@confluentinc/kafka-javascript';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { KafkaAdmin } from './admin.js';
import type { KafkaOptions } from './client.js';
import {
  connectConsumer,
  consumerConfig,
  disconnectConsumer,
  startFetchLoop,
  toInRecord,
  type FetchLoop,
  type InRecord,
  type Isolation,
} from './native-consumer.js';
import { OffsetMap, tpKey } from './offset-map.js';
import { ReadState, type CallMarks, type TopicPartition } from './read-state.js';

export interface PartitionReaderOptions {
  topics: readonly string[];
  /** Where each partition starts (clamped into the log); partitions not listed start at their end. */
  start?: OffsetMap;
  /** Called synchronously with the records of one fetch, in offset order per partition; the positions
   * move right after it returns. A returned promise holds the next fetch until it settles. */
  onRecords: (records: InRecord[]) => void | Promise<void>;
  /** Called after a partition's position moved (also past markers, with no records). */
  onPosition?: (topic: string, partition: number, next: bigint) => void;
  onError?: (err: Error) => void;
  isolation?: Isolation;
  maxWaitMs?: number;
  /** Names the reader in its throw-away group id (visible in broker logs). */
  purpose: string;
  /** Records per consume call (default 1,000). */
  chunk?: number;
}

export interface PartitionReader {
  /** Next offset to read per topic and partition (a copy). */
  positions(): OffsetMap;
  position(topic: string, partition: number): bigint | undefined;
  /** Moves a partition to `offset`; records fetched before the seek are dropped. */
  seek(topic: string, partition: number, offset: bigint): Promise<void>;
  pause(topic: string, partition: number): void;
  resume(topic: string, partition: number): void;
  /** Stops (or restarts) fetching every partition; positions are kept, nothing is skipped. */
  pauseAll(paused: boolean): void;
  stop(): Promise<void>;
}

export function uniqueGroupId(purpose: string): string {
  return `slotstream-${purpose}-${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

type Eof = { topic: string; partition: number; offset: number };

export async function openPartitionReader(k: KafkaOptions, admin: KafkaAdmin, o: PartitionReaderOptions): Promise<PartitionReader> {
  return ManualReader.open(k, admin, o);
}

class ManualReader implements PartitionReader {
  // The fetch loop: started by the constructor, ended by `stop` (once: librdkafka never answers a second
  // disconnect made while the first is running, so `stopping` keeps the one stop).
  private readonly loop: FetchLoop;
  private stopping: Promise<void> | undefined;
  // The last seek queued per partition (tpKey), settled either way: `seek` chains the next one behind it. At most
  // one entry per assigned partition.
  private readonly seeks = new Map<string, Promise<void>>();

  private constructor(
    // Assigned once in `open` and never reassigned; the consumer is touched only by this class's steps.
    private readonly consumer: KafkaConsumer,
    // Positions, seeks in flight and pauses (read-state.ts): changed only by the steps below.
    private readonly state: ReadState,
    private readonly o: PartitionReaderOptions,
  ) {
    this.loop = startFetchLoop<CallMarks>(consumer, o.chunk ?? 1_000, {
      // Seeks made before this call are applied by librdkafka to what it returns.
      onCall: () => this.state.callIssued(),
      // The next call goes out while this one's records are handled, unless a seek is pending or this call
      // came back stale: the re-seek must be made with no call in flight, or that call would come back
      // stale in turn.
      prefetch: (marks) => this.state.mayPrefetch(marks),
      onMessages: (messages, eofs, marks) => this.onMessages(messages, eofs, marks),
      onError: (err) => o.onError?.(err),
    });
  }

  /** Assigns every partition of the topics at its start, clamped into the log, and starts fetching. */
  static async open(k: KafkaOptions, admin: KafkaAdmin, o: PartitionReaderOptions): Promise<ManualReader> {
    const start = new OffsetMap();
    const assigned: TopicPartition[] = [];
    for (const topic of o.topics) {
      for (const [partition, { low, high }] of await admin.offsetRanges(topic)) {
        const wanted = o.start?.get(topic, partition);
        // Clamp into what the log holds: below the log start Kafka would answer OFFSET_OUT_OF_RANGE.
        start.set(topic, partition, wanted === undefined ? high : wanted < low ? low : wanted > high ? high : wanted);
        assigned.push({ topic, partition });
      }
    }
    const consumer = await connectConsumer(
      k,
      consumerConfig(k, {
        groupId: uniqueGroupId(o.purpose),
        isolation: o.isolation,
        maxWaitMs: o.maxWaitMs ?? 100,
        maxBytesPerPartition: 4 * 1024 * 1024,
      }),
    );
    consumer.assign(assigned.map(({ topic, partition }) => ({ topic, partition, offset: Number(start.get(topic, partition) ?? 0n) })));
    return new ManualReader(consumer, new ReadState(assigned, start), o);
  }

  /** One consume call's records: the fresh ones handed over, then the positions moved (and stale
   * partitions sought again). */
  private onMessages(messages: Message[], eofs: Eof[], marks: CallMarks): void | Promise<void> {
    this.state.callReturned(marks);
    const records: InRecord[] = [];
    // Per record only map lookups (no string keys): this loop carries every record the api reads.
    const last = new Map<string, Map<number, InRecord>>();
    for (const m of messages) {
      const offset = BigInt(m.offset);
      if (!this.state.accepts(marks, m.topic, m.partition, offset)) continue;
      const r = toInRecord(m, offset);
      records.push(r);
      let byPartition = last.get(m.topic);
      if (!byPartition) last.set(m.topic, (byPartition = new Map()));
      byPartition.set(m.partition, r);
    }
    if (records.length === 0) return this.settle(last, eofs, marks);
    const handed = this.o.onRecords(records);
    return handed ? handed.then(() => this.settle(last, eofs, marks)) : this.settle(last, eofs, marks);
  }

  /** After a call's records were handed over: positions past them (and past markers, to the ends seen), then
   * the re-seek of the partitions the call was stale for. A call in flight across a seek may hold records of
   * the old position or, when librdkafka applied the seek during the call, of the new one; both were dropped,
   * and librdkafka's own position moved past the latter. Seeking again now, with no call in flight, makes the
   * next call start exactly at the position. */
  private settle(last: Map<string, Map<number, InRecord>>, eofs: Eof[], marks: CallMarks): void | Promise<void> {
    for (const byPartition of last.values()) for (const r of byPartition.values()) this.advance(r.topic, r.partition, r.offset + 1n);
    for (const e of eofs)
      if (this.state.acceptsEof(marks, e.topic, e.partition, e.offset)) this.advance(e.topic, e.partition, BigInt(e.offset));
    if (marks.size > 0) return this.reseek(marks);
  }

  private advance(topic: string, partition: number, next: bigint): void {
    if (this.state.advance(topic, partition, next)) this.o.onPosition?.(topic, partition, next);
  }

  private async reseek(marks: CallMarks): Promise<void> {
    for (const x of this.state.reseeks(marks)) {
      const at = this.state.positions.get(x.topic, x.partition);
      if (at !== undefined) await this.seek(x.topic, x.partition, at);
    }
  }

  positions(): OffsetMap {
    return this.state.positions.copy();
  }

  position(topic: string, partition: number): bigint | undefined {
    return this.state.positions.get(topic, partition);
  }

  async seek(topic: string, partition: number, offset: bigint): Promise<void> {
    this.state.seekStarted(topic, partition, offset);
    // One librdkafka seek of a partition at a time, in call order: librdkafka versions a seek when the libuv thread
    // running it makes it, so two made at once (a caller's and this reader's re-seek after a stale call) could land
    // in either order, the consumer ending where the earlier call said, and the superseded one answered "Outdated".
    const key = tpKey(topic, partition);
    const turn = (this.seeks.get(key) ?? Promise.resolve()).then(() => this.seekOnce(topic, partition, offset));
    this.seeks.set(
      key,
      turn.catch(() => undefined),
    );
    try {
      await turn;
    } finally {
      this.state.seekEnded(topic, partition);
    }
  }

  private seekOnce(topic: string, partition: number, offset: bigint): Promise<void> {
    return new Promise<void>((resolve, reject) =>
      this.consumer.seek({ topic, partition, offset: Number(offset) }, 10_000, (err) =>
        err ? reject(new Error(`seek ${topic}/${partition} to ${offset}: ${err.message}`)) : resolve(),
      ),
    );
  }

  pause(topic: string, partition: number): void {
    this.setPaused(this.state.pause(topic, partition), true);
  }

  resume(topic: string, partition: number): void {
    this.setPaused(this.state.resume(topic, partition), false);
  }

  pauseAll(paused: boolean): void {
    this.setPaused(this.state.pauseAll(paused), paused);
  }

  private setPaused(list: TopicPartition[], pause: boolean): void {
    if (list.length === 0) return;
    if (pause) this.consumer.pause(list);
    else this.consumer.resume(list);
  }

  stop(): Promise<void> {
    return (this.stopping ??= this.loop.stop().then(() => disconnectConsumer(this.consumer)));
  }
}

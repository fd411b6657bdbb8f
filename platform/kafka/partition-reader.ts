// A reader with manual assignment: no group membership, nothing committed, explicit start offsets,
// and exact positions (the next offset to read, past transaction markers and aborted records).
// The api's live tail and replay, the ingest's resume scan, tests and benches read through it.
import type { KafkaConsumer } from '@confluentinc/kafka-javascript';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { KafkaAdmin } from './admin.js';
import type { KafkaOptions } from './client.js';
import { connectConsumer, consumerConfig, disconnectConsumer, startFetchLoop, toInRecord, type FetchLoop, type InRecord, type Isolation } from './native-consumer.js';

/** topic → partition → offset. */
export type PartitionOffsets = Map<string, Map<number, bigint>>;

export interface PartitionReaderOptions {
  topics: readonly string[];
  /** Where each partition starts (clamped into the log); partitions not listed start at their end. */
  start?: PartitionOffsets;
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
  positions(): PartitionOffsets;
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

const tp = (topic: string, partition: number) => `${topic}\u0000${partition}`;

export async function openPartitionReader(k: KafkaOptions, admin: KafkaAdmin, o: PartitionReaderOptions): Promise<PartitionReader> {
  const pos: PartitionOffsets = new Map();
  const all: { topic: string; partition: number }[] = [];
  for (const topic of o.topics) {
    const m = new Map<number, bigint>();
    for (const [partition, { low, high }] of await admin.offsetRanges(topic)) {
      const wanted = o.start?.get(topic)?.get(partition);
      // Clamp into what the log holds: below the log start Kafka would answer OFFSET_OUT_OF_RANGE.
      m.set(partition, wanted === undefined ? high : wanted < low ? low : wanted > high ? high : wanted);
      all.push({ topic, partition });
    }
    pos.set(topic, m);
  }
  const consumer: KafkaConsumer = await connectConsumer(
    k,
    consumerConfig(k, { groupId: uniqueGroupId(o.purpose), isolation: o.isolation, maxWaitMs: o.maxWaitMs ?? 100, maxBytesPerPartition: 4 * 1024 * 1024 }),
  );
  consumer.assign(all.map(({ topic, partition }) => ({ topic, partition, offset: Number(pos.get(topic)!.get(partition)!) })));

  // Per consume call, the partitions sought while it was in flight, or whose seek had not completed when
  // it started: what that call returns for them (records, or an end-of-partition at the old position,
  // which would move the position past the re-read) is stale. At most one call is in flight.
  let inFlight: Set<string> | undefined;
  const seeking = new Map<string, number>();
  const paused = new Set<string>();
  let pausedAll = false;

  const advance = (topic: string, partition: number, next: bigint) => {
    const m = pos.get(topic);
    if (!m) return;
    const cur = m.get(partition);
    if (cur === undefined || next > cur) {
      m.set(partition, next);
      o.onPosition?.(topic, partition, next);
    }
  };

  const loop: FetchLoop = startFetchLoop<Set<string>>(consumer, o.chunk ?? 1_000, {
    onCall: () => {
      // Seeks made before this call are applied by librdkafka to what it returns.
      inFlight = new Set(seeking.keys());
      return inFlight;
    },
    // The next call goes out while this one's records are handled, unless a seek is pending or this call
    // came back stale: the re-seek below must be made with no call in flight, or that call would come
    // back stale in turn.
    prefetch: (sought) => sought.size === 0 && seeking.size === 0,
    onMessages(messages, eofs, stale) {
      if (inFlight === stale) inFlight = undefined;
      const records: InRecord[] = [];
      // Per record only map lookups (no string keys): this loop carries every record the api reads.
      const last = new Map<string, Map<number, InRecord>>();
      for (const m of messages) {
        if (stale.size > 0 && stale.has(tp(m.topic, m.partition))) continue;
        const offset = BigInt(m.offset);
        const cur = pos.get(m.topic)?.get(m.partition);
        if (cur !== undefined && offset < cur) continue;
        const r = toInRecord(m, offset);
        records.push(r);
        let byPartition = last.get(m.topic);
        if (!byPartition) last.set(m.topic, (byPartition = new Map()));
        byPartition.set(m.partition, r);
      }
      const moved = () => {
        for (const byPartition of last.values()) for (const r of byPartition.values()) advance(r.topic, r.partition, r.offset + 1n);
        for (const e of eofs) if (!stale.has(tp(e.topic, e.partition)) && e.offset >= 0) advance(e.topic, e.partition, BigInt(e.offset));
      };
      // A call in flight across a seek may hold records of the old position or, when librdkafka applied
      // the seek during the call, of the new one; both were dropped above, and librdkafka's own position
      // moved past the latter. Seeking again now, with no call in flight, makes the next call start
      // exactly at the position.
      const settle = () => {
        moved();
        if (stale.size > 0) return reseek(stale);
      };
      if (records.length === 0) return settle();
      const r = o.onRecords(records);
      return r ? r.then(settle) : settle();
    },
    onError: (err) => o.onError?.(err),
  });

  const reseek = async (stale: Set<string>) => {
    for (const x of all) {
      if (stale.has(tp(x.topic, x.partition))) await reader.seek(x.topic, x.partition, pos.get(x.topic)!.get(x.partition)!);
    }
  };

  let stopping: Promise<void> | undefined;
  const setPaused = (list: { topic: string; partition: number }[], pause: boolean) => {
    if (list.length === 0) return;
    if (pause) consumer.pause(list);
    else consumer.resume(list);
  };

  const reader: PartitionReader = {
    positions() {
      const copy: PartitionOffsets = new Map();
      for (const [t, m] of pos) copy.set(t, new Map(m));
      return copy;
    },
    position: (topic, partition) => pos.get(topic)?.get(partition),
    async seek(topic, partition, offset) {
      const key = tp(topic, partition);
      inFlight?.add(key);
      seeking.set(key, (seeking.get(key) ?? 0) + 1);
      pos.get(topic)?.set(partition, offset);
      try {
        await new Promise<void>((resolve, reject) =>
          consumer.seek({ topic, partition, offset: Number(offset) }, 10_000, (err) => (err ? reject(new Error(`seek ${topic}/${partition} to ${offset}: ${err.message}`)) : resolve())),
        );
      } finally {
        const n = seeking.get(key)! - 1;
        if (n === 0) seeking.delete(key);
        else seeking.set(key, n);
      }
    },
    pause(topic, partition) {
      paused.add(tp(topic, partition));
      setPaused([{ topic, partition }], true);
    },
    resume(topic, partition) {
      paused.delete(tp(topic, partition));
      if (!pausedAll) setPaused([{ topic, partition }], false);
    },
    pauseAll(p) {
      pausedAll = p;
      if (p) setPaused(all, true);
      else setPaused(all.filter((x) => !paused.has(tp(x.topic, x.partition))), false);
    },
    // Once: librdkafka never answers a second disconnect made while the first is running.
    stop: () => (stopping ??= loop.stop().then(() => disconnectConsumer(consumer))),
  };
  return reader;
}

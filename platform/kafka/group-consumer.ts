// A member of a consumer group that commits explicitly: the projector commits a batch's offsets
// only after ClickHouse acknowledged it. Partitions are spread over the members by Kafka; what a
// member had taken but not committed before a rebalance is re-delivered to the new owner.
import type { ConsumerGlobalConfig, KafkaConsumer, Message } from '@confluentinc/kafka-javascript';
import type { KafkaOptions } from './client.js';
import { tpKey } from './offset-map.js';
import {
  commitOffsets,
  connectConsumer,
  consumerConfig,
  disconnectConsumer,
  startFetchLoop,
  toInRecord,
  type FetchLoop,
  type InRecord,
} from './native-consumer.js';

/** The records one fetch returned for one partition, and where the partition's position is after them
 * (past transaction markers too: a batch may hold no records and only move the position). */
export interface PartitionBatch {
  topic: string;
  partition: number;
  records: InRecord[];
  nextOffset: bigint;
}

export interface CommitOffset {
  topic: string;
  partition: number;
  /** The next offset to read (last processed + 1). */
  offset: bigint;
}

export interface GroupConsumerOptions {
  groupId: string;
  topics: readonly string[];
  /** Every partition batch of one fetch; the next fetch waits until the promise settles (backpressure). */
  onBatches: (batches: PartitionBatch[]) => Promise<void>;
  onError?: (err: Error) => void;
  maxWaitMs?: number;
  maxBytesPerPartition?: number;
  sessionTimeoutMs?: number;
  /** Longest a member may hold the loop (waiting on its store) before the group considers it gone. */
  maxPollIntervalMs?: number;
}

export interface GroupConsumer {
  /** Commits to the group; rejects when the group no longer assigns us a partition (rebalanced away). */
  commit(offsets: readonly CommitOffset[]): Promise<void>;
  pauseAll(): void;
  stop(): Promise<void>;
}

type Eof = { topic: string; partition: number; offset: number };

/**
 * One fetch's records grouped into partition batches, in fetch order, each with the partition's position after it;
 * a partition that only reached its end (past transaction markers) gets an empty batch when its position moved past
 * `handed` (the last position handed over per partition), which is updated.
 */
export function partitionBatches(messages: readonly Message[], eofs: readonly Eof[], handed: Map<string, bigint>): PartitionBatch[] {
  const byTp = new Map<string, PartitionBatch>();
  // A fetch holds runs of records of one partition: the key string is built once per run, not per record.
  let b: PartitionBatch | undefined;
  for (const m of messages) {
    if (!b || b.partition !== m.partition || b.topic !== m.topic) {
      const key = tpKey(m.topic, m.partition);
      b = byTp.get(key);
      if (!b) byTp.set(key, (b = { topic: m.topic, partition: m.partition, records: [], nextOffset: 0n }));
    }
    const r = toInRecord(m);
    b.records.push(r);
    b.nextOffset = r.offset + 1n;
  }
  for (const e of eofs) {
    if (e.offset < 0) continue;
    const key = tpKey(e.topic, e.partition);
    const batch = byTp.get(key);
    const next = BigInt(e.offset);
    if (batch) {
      if (next > batch.nextOffset) batch.nextOffset = next;
    } else if ((handed.get(key) ?? -1n) < next) {
      byTp.set(key, { topic: e.topic, partition: e.partition, records: [], nextOffset: next });
    }
  }
  for (const [key, batch] of byTp) handed.set(key, batch.nextOffset);
  return [...byTp.values()];
}

/** The group member over the native binding. Open with `NativeGroupConsumer.open`; `stop` is idempotent. */
export class NativeGroupConsumer implements GroupConsumer {
  // Invariants: `consumer` is connected and subscribed from `open` until `stop`; `loop` is the one fetch loop over
  // it. `handed` holds the last position handed over per partition, so an EOF past markers only yields a batch when
  // it moves. `stopping` is set by the first `stop` and returned by every later one.
  private readonly handed = new Map<string, bigint>();
  private readonly loop: FetchLoop;
  private stopping: Promise<void> | undefined;

  private constructor(
    private readonly consumer: KafkaConsumer,
    private readonly o: GroupConsumerOptions,
  ) {
    this.loop = startFetchLoop(consumer, 10_000, {
      onMessages: (messages, eofs) => this.hand(messages, eofs),
      onError: (err) => o.onError?.(err),
    });
  }

  /** Connects a member of `o.groupId`, subscribes to `o.topics` and starts fetching. */
  static async open(k: KafkaOptions, o: GroupConsumerOptions): Promise<NativeGroupConsumer> {
    const consumer = await connectConsumer(k, NativeGroupConsumer.config(k, o));
    consumer.subscribe([...o.topics]);
    return new NativeGroupConsumer(consumer, o);
  }

  private static config(k: KafkaOptions, o: GroupConsumerOptions): ConsumerGlobalConfig {
    const sessionTimeoutMs = o.sessionTimeoutMs ?? 30_000;
    return consumerConfig(k, {
      groupId: o.groupId,
      maxWaitMs: o.maxWaitMs ?? 500,
      maxBytesPerPartition: o.maxBytesPerPartition,
      extra: {
        'session.timeout.ms': sessionTimeoutMs,
        'heartbeat.interval.ms': Math.min(3_000, Math.floor(sessionTimeoutMs / 3)),
        'max.poll.interval.ms': o.maxPollIntervalMs ?? 600_000,
        // Offsets committed after the store; the binding's rebalance callback assigns what Kafka gives.
        rebalance_cb: true,
      },
    });
  }

  /** One fetch, as partition batches, to `onBatches` (whose promise holds the next fetch back). */
  private async hand(messages: Message[], eofs: Eof[]): Promise<void> {
    const batches = partitionBatches(messages, eofs, this.handed);
    if (batches.length > 0) await this.o.onBatches(batches);
  }

  /** Off the event loop (commitOffsets): the engine's JSON-RPC and streams share the thread the projector commits on. */
  commit(offsets: readonly CommitOffset[]): Promise<void> {
    return commitOffsets(this.consumer, offsets);
  }

  pauseAll(): void {
    try {
      this.consumer.pause(this.consumer.assignments());
    } catch {
      // not assigned yet: nothing to pause
    }
  }

  /** Once: librdkafka never answers a second disconnect made while the first is running. Leaving the group first:
   * a disconnect that lands in the middle of a group join crashes the native binding (its rebalance callback runs
   * on a closing handle). */
  stop(): Promise<void> {
    this.stopping ??= this.loop.stop().then(() => this.leave());
    return this.stopping;
  }

  private async leave(): Promise<void> {
    try {
      this.consumer.unsubscribe();
    } catch {
      // not subscribed any more
    }
    await disconnectConsumer(this.consumer);
  }
}

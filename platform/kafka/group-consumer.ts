// A member of a consumer group that commits explicitly: the projector commits a batch's offsets
// only after ClickHouse acknowledged it. Partitions are spread over the members by Kafka; what a
// member had taken but not committed before a rebalance is re-delivered to the new owner.
import type { KafkaConsumer } from '@confluentinc/kafka-javascript';
import { kafkaError, type KafkaOptions } from './client.js';
import { tpKey } from './offset-map.js';
import {
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
  /** Commits to the group; throws when the group no longer assigns us a partition (rebalanced away). */
  commit(offsets: readonly CommitOffset[]): void;
  pauseAll(): void;
  stop(): Promise<void>;
}

export async function openGroupConsumer(k: KafkaOptions, o: GroupConsumerOptions): Promise<GroupConsumer> {
  const consumer: KafkaConsumer = await connectConsumer(
    k,
    consumerConfig(k, {
      groupId: o.groupId,
      maxWaitMs: o.maxWaitMs ?? 500,
      maxBytesPerPartition: o.maxBytesPerPartition,
      extra: {
        'session.timeout.ms': o.sessionTimeoutMs ?? 30_000,
        'heartbeat.interval.ms': Math.min(3_000, Math.floor((o.sessionTimeoutMs ?? 30_000) / 3)),
        'max.poll.interval.ms': o.maxPollIntervalMs ?? 600_000,
        // Offsets committed after the store; the binding's rebalance callback assigns what Kafka gives.
        rebalance_cb: true,
      },
    }),
  );
  consumer.subscribe([...o.topics]);
  // Last position handed over per partition, so an EOF past markers only yields a batch when it moves.
  const handed = new Map<string, bigint>();
  const loop: FetchLoop = startFetchLoop(consumer, 10_000, {
    async onMessages(messages, eofs) {
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
        const b = byTp.get(key);
        const next = BigInt(e.offset);
        if (b) {
          if (next > b.nextOffset) b.nextOffset = next;
        } else if ((handed.get(key) ?? -1n) < next) {
          byTp.set(key, { topic: e.topic, partition: e.partition, records: [], nextOffset: next });
        }
      }
      if (byTp.size === 0) return;
      for (const [key, b] of byTp) handed.set(key, b.nextOffset);
      await o.onBatches([...byTp.values()]);
    },
    onError: (err) => o.onError?.(err),
  });

  let stopping: Promise<void> | undefined;
  return {
    commit(offsets) {
      if (offsets.length === 0) return;
      try {
        consumer.commitSync(offsets.map((c) => ({ topic: c.topic, partition: c.partition, offset: Number(c.offset) })));
      } catch (err) {
        throw kafkaError('commit offsets', err);
      }
    },
    pauseAll() {
      try {
        consumer.pause(consumer.assignments());
      } catch {
        // not assigned yet: nothing to pause
      }
    },
    // Once: librdkafka never answers a second disconnect made while the first is running.
    // Leaving the group first: a disconnect that lands in the middle of a group join crashes the
    // native binding (its rebalance callback runs on a closing handle).
    stop: () =>
      (stopping ??= loop.stop().then(async () => {
        try {
          consumer.unsubscribe();
        } catch {
          // not subscribed any more
        }
        await disconnectConsumer(consumer);
      })),
  };
}

// Test helpers on a real broker: publish slot batches the way the ingest does (one Kafka transaction
// per group of slots) and read every committed record back, independently of the projector.
import { partitionForKey, type Kafka } from '../../../platform/kafka/index.js';
import { decodeRecord, encodeRecord } from '../../../schemas/codec.js';
import { RECORD_KINDS, type TopicNames } from '../../../schemas/topics.js';
import { readTopics } from '../kafka/read-topics.js';
import type { SlotBatch } from './chain.js';
import type { ConsumedRecord } from './expected.js';

export async function publishChain(kafka: Kafka, topics: TopicNames, batches: Iterable<SlotBatch>, slotsPerTxn = 10): Promise<number> {
  const publisher = await stepPublisher(kafka, topics);
  let count = 0;
  try {
    let group: SlotBatch[] = [];
    for (const b of batches) {
      group.push(b);
      if (group.length < slotsPerTxn) continue;
      count += await publisher.publish(group);
      group = [];
    }
    if (group.length > 0) count += await publisher.publish(group);
  } finally {
    await publisher.close();
  }
  return count;
}

/** One transactional producer for many steps: `publish` sends one group of slots as one Kafka transaction (what
 * publishChain does for each group of its slots) and returns the number of records sent, without opening a producer
 * per call (a producer's start and close for each of its ~25 steps cost test/projector-accounts.int.test.ts about a
 * CPU second of ten). */
export interface StepPublisher {
  publish(batches: readonly SlotBatch[]): Promise<number>;
  close(): Promise<void>;
}

export async function stepPublisher(kafka: Kafka, topics: TopicNames): Promise<StepPublisher> {
  const producer = await kafka.transactionalProducer({ transactionalId: `test-${topics.transactions}-${Math.random()}` });
  const partitions = new Map<string, number>();
  return {
    async publish(batches) {
      let count = 0;
      await producer.begin();
      try {
        for (const b of batches) {
          for (const e of b.events) {
            const topic = topics[e.kind];
            if (!partitions.has(topic)) partitions.set(topic, await kafka.admin().partitionCount(topic));
            const { key, value } = encodeRecord(e);
            producer.send({ topic, partition: partitionForKey(key, partitions.get(topic)!), key, value });
            count++;
          }
        }
        await producer.commit();
      } catch (err) {
        await producer.abort().catch(() => {});
        throw err;
      }
      return count;
    },
    close: () => producer.close(),
  };
}

/** Every committed, decodable record of the topics the projector reads, read to the current end. */
export async function consumeAll(kafka: Kafka, topics: TopicNames): Promise<ConsumedRecord[]> {
  const contents = await readTopics(
    kafka,
    RECORD_KINDS.map((k) => topics[k]),
  );
  const out: ConsumedRecord[] = [];
  for (const kind of RECORD_KINDS) {
    const topic = topics[kind];
    contents.get(topic)!.forEach((records, partition) => {
      for (const r of records) {
        const d = decodeRecord(kind, r.value);
        if (d.ok) out.push({ topic, partition, offset: r.offset, event: d.value });
      }
    });
  }
  return out;
}

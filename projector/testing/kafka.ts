// Test helpers on a real broker: publish slot batches the way the ingest does (one Kafka transaction
// per group of slots) and read every committed record back, independently of the projector.
import type { Kafka } from 'kafkajs';
import { decodeRecord, encodeRecord } from '../../schemas/codec.js';
import { TOPIC_KINDS, type TopicNames } from '../../schemas/topics.js';
import type { SlotBatch } from './chain.js';
import type { ConsumedRecord } from './expected.js';

export async function publishChain(kafka: Kafka, topics: TopicNames, batches: Iterable<SlotBatch>, slotsPerTxn = 10): Promise<number> {
  const producer = kafka.producer({ transactionalId: `test-${topics.transactions}-${Math.random()}`, idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  let count = 0;
  try {
    let group: SlotBatch[] = [];
    const flush = async () => {
      if (group.length === 0) return;
      const byTopic = new Map<string, { key: Buffer; value: Buffer }[]>();
      for (const b of group) {
        for (const e of b.events) {
          const t = topics[e.kind];
          const list = byTopic.get(t) ?? [];
          list.push(encodeRecord(e));
          byTopic.set(t, list);
          count++;
        }
      }
      const t = await producer.transaction();
      try {
        await t.sendBatch({ topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })), acks: -1 });
        await t.commit();
      } catch (err) {
        await t.abort();
        throw err;
      }
      group = [];
    };
    for (const b of batches) {
      group.push(b);
      if (group.length >= slotsPerTxn) await flush();
    }
    await flush();
  } finally {
    await producer.disconnect();
  }
  return count;
}

/** Every committed, decodable record of the four topics, read to the current end. */
export async function consumeAll(kafka: Kafka, topics: TopicNames): Promise<ConsumedRecord[]> {
  const names = TOPIC_KINDS.map((k) => topics[k]);
  const kindOf = new Map(TOPIC_KINDS.map((k) => [topics[k], k]));
  const admin = kafka.admin();
  await admin.connect();
  const ends = new Map<string, bigint>();
  for (const t of names) for (const p of await admin.fetchTopicOffsets(t)) ends.set(`${t}:${p.partition}`, BigInt(p.high));
  await admin.disconnect();
  const out: ConsumedRecord[] = [];
  const consumer = kafka.consumer({ groupId: `test-read-${Math.random()}`, maxWaitTimeInMs: 200 });
  await consumer.connect();
  await consumer.subscribe({ topics: names, fromBeginning: true });
  const reached = new Map<string, bigint>();
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const check = () => {
    for (const [k, end] of ends) if ((reached.get(k) ?? 0n) < end) return;
    resolveDone();
  };
  consumer.on(consumer.events.END_BATCH_PROCESS, (e) => {
    reached.set(`${e.payload.topic}:${e.payload.partition}`, BigInt(e.payload.lastOffset) + 1n);
    check();
  });
  await consumer.run({
    eachBatch: async ({ batch }) => {
      for (const m of batch.messages) {
        const d = decodeRecord(kindOf.get(batch.topic)!, m.value);
        if (d.ok) out.push({ topic: batch.topic, partition: batch.partition, offset: BigInt(m.offset), event: d.value });
      }
    },
  });
  check();
  await done;
  await consumer.disconnect();
  return out;
}

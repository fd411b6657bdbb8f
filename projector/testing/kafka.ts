// Test helpers on a real broker: publish slot batches the way the ingest does (one Kafka transaction
// per group of slots) and read every committed record back, independently of the projector.
import type { Kafka } from 'kafkajs';
import { decodeRecord, encodeRecord } from '../../schemas/codec.js';
import { TOPIC_KINDS, type TopicNames } from '../../schemas/topics.js';
import { readTopics } from '../../test/harness/read-topics.js';
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
  const contents = await readTopics(kafka, TOPIC_KINDS.map((k) => topics[k]));
  const out: ConsumedRecord[] = [];
  for (const kind of TOPIC_KINDS) {
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

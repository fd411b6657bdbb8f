// The publisher against the real broker: a record over its topic's limit goes to the dead-letter
// topic with the reason, in the same Kafka transaction, and the rest of the slot is published.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import { topicNames, u64Key, type TopicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix } from '../test/support/harness/kafka.js';
import { readTopics } from '../test/support/kafka/read-topics.js';
import { recordLimit } from './dead-letter.js';
import { Publisher } from './publisher.js';

let kafka: Kafka;
let topics: TopicNames;
beforeAll(async () => {
  kafka = createKafka({ brokers: testBrokers(), clientId: 'publisher-int' });
  topics = topicNames(uniquePrefix('publisher'));
  await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: 3_600_000, replicationFactor: 1 });
});
afterAll(async () => {
  await kafka?.close();
});

it('sends a record over its topic limit to the dead-letter topic with the reason, and publishes the rest', async () => {
  const key = u64Key(7n);
  const small = Buffer.from('a transaction that fits');
  const huge = Buffer.alloc(recordLimit('transactions') + 1, 9);
  const marker = Buffer.from('slot record');
  const publisher = new Publisher({ kafka, topics, transactionalId: `${topics.transactions}.tx`, log: silentLogger });
  expect(await publisher.open()).toBeUndefined();
  try {
    await publisher.publish([
      {
        slot: 7n,
        records: [
          { kind: 'transactions', key, value: small },
          { kind: 'transactions', key, value: huge },
          { kind: 'slots', key, value: marker },
        ],
        bytes: small.length + huge.length + marker.length + 3 * key.length,
      },
    ]);
  } finally {
    await publisher.close();
  }
  const got = await readTopics(kafka, [topics.transactions, topics.slots, topics.deadletter]);
  const values = (t: string) => got.get(t)!.flat().map((r) => r.value);
  expect(values(topics.transactions)).toEqual([small]);
  expect(values(topics.slots)).toEqual([marker]);
  const dead = got.get(topics.deadletter)!.flat();
  expect(dead).toHaveLength(1);
  expect(dead[0]!.key.equals(key)).toBe(true);
  expect(dead[0]!.value.equals(huge)).toBe(true);
  expect(dead[0]!.headers).toMatchObject({
    'slotstream-topic': topics.transactions,
    'slotstream-slot': '7',
    'slotstream-reason': expect.stringContaining(`-byte limit of ${topics.transactions}`),
  });
});

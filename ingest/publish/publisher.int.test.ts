// The publisher and the framer against the real broker: a slot spanning several Kafka transactions
// ends with its marker and the marker's counts equal what the partitions hold; a restart mid-slot
// skips by identity what Kafka already holds, even when the source yields the slot in another order;
// a record over its topic's limit goes to the dead-letter topic with the reason and is not counted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { decodeRecord, TransactionEvent, type ChainEvent } from '../../schemas/codec.js';
import { topicNames, type TopicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix } from '../../test/support/harness/kafka.js';
import { checkMarkers, syntheticSlot } from '../../test/support/ingest/framed-slot.js';
import { readTopics, type TopicContents } from '../../test/support/kafka/read-topics.js';
import { recordLimit } from './dead-letter.js';
import { SlotFramer } from './framer.js';
import { identityOf } from './identity.js';
import { Publisher } from './publisher.js';

let kafka: Kafka;
beforeAll(() => {
  kafka = createKafka({ brokers: testBrokers(), clientId: 'publisher-int' });
});
afterAll(async () => {
  await kafka?.close();
});

async function freshTopics(name: string): Promise<TopicNames> {
  const topics = topicNames(uniquePrefix(name));
  await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: 3_600_000, replicationFactor: 1 });
  return topics;
}

const KINDS = ['transactions', 'accounts', 'slots', 'entries'] as const;
const readAll = (topics: TopicNames): Promise<TopicContents> => readTopics(kafka, [...KINDS.map((k) => topics[k]), topics.deadletter]);

function identities(contents: TopicContents, topics: TopicNames): string[] {
  const out: string[] = [];
  for (const kind of KINDS) {
    for (const part of contents.get(topics[kind])!) {
      for (const r of part) {
        const d = decodeRecord(kind, r.value);
        if (!d.ok) throw new Error(d.reason);
        out.push(identityOf(d.value));
      }
    }
  }
  return out.sort();
}

const publisherFor = (topics: TopicNames) =>
  new Publisher({ kafka, topics, transactionalId: `${topics.transactions}.tx`, log: silentLogger });

/** The slot in `parts` pieces: every piece but the last is partial. */
const pieces = (slot: bigint, events: ChainEvent[], parts: number) => {
  const size = Math.ceil(events.length / parts);
  return Array.from({ length: parts }, (_, i) => ({ slot, events: events.slice(i * size, (i + 1) * size), partial: i < parts - 1 }));
};

it('publishes a slot over several Kafka transactions, ending with its marker whose counts match the partitions', async () => {
  const topics = await freshTopics('framing');
  const publisher = publisherFor(topics);
  const resume = await publisher.open();
  expect(resume).toEqual({ afterSlot: undefined, openSlot: undefined, held: new Set() });
  const framer = new SlotFramer(publisher.partitionCounts, topics);
  try {
    for (const slot of [10n, 11n]) {
      for (const piece of pieces(slot, syntheticSlot(slot, 40), 4)) {
        const records = framer.frame(piece);
        expect(records.length).toBeGreaterThan(0);
        await publisher.publish(records);
      }
    }
  } finally {
    await publisher.close();
  }
  expect(publisher.lastSlot).toBe(11n);
  const got = await readAll(topics);
  const check = checkMarkers(got, topics, KINDS);
  expect(check).toEqual({ markers: 2, wrong: [], late: [] });
  // The slot's own marker is the last record of its slot on its partition.
  const slots = got
    .get(topics.slots)!
    .flat()
    .map((r) => decodeRecord('slots', r.value));
  const marker10 = slots.findIndex(
    (d) => d.ok && d.value.kind === 'slots' && d.value.event.slot === 10n && d.value.event.end !== undefined,
  );
  expect(marker10).toBeGreaterThanOrEqual(0);
  expect(identities(got, topics)).toHaveLength(2 * (2 + 40 + 40 + 2));
});

it('resumes a slot cut off mid-way: skips by identity what Kafka holds, in whatever order the slot comes again', async () => {
  const topics = await freshTopics('framing-resume');
  const slot9 = syntheticSlot(9n, 5);
  const slot10 = syntheticSlot(10n, 60);
  // A first run: slot 9 whole, then two of slot 10's four pieces, then a crash (no marker for 10).
  const first = publisherFor(topics);
  await first.open();
  const framer1 = new SlotFramer(first.partitionCounts, topics);
  await first.publish(framer1.frame({ slot: 9n, events: slot9 }));
  const parts = pieces(10n, slot10, 4);
  await first.publish(framer1.frame(parts[0]!));
  await first.publish(framer1.frame(parts[1]!));
  await first.close();

  const second = publisherFor(topics);
  const resume = await second.open();
  try {
    expect(resume.afterSlot).toBe(9n);
    expect(resume.openSlot).toBe(10n);
    // What the two pieces hold (the PROCESSED record stayed back as the marker-to-be).
    const published = [...parts[0]!.events, ...parts[1]!.events].filter((e) => !(e.kind === 'slots' && e.event.slot === 10n));
    for (const id of published.map(identityOf)) expect(resume.held.has(id)).toBe(true);
    // The read-back may take in status records of the slot before (resume-point.ts): never more.
    const before = new Set(slot9.map(identityOf));
    for (const id of resume.held) if (!published.map(identityOf).includes(id)) expect(before.has(id)).toBe(true);
    // The restarted source yields slot 10 again, whole and in another order.
    const framer2 = new SlotFramer(second.partitionCounts, topics);
    await second.publish(framer2.frame({ slot: 10n, events: [...slot10].reverse() }));
  } finally {
    await second.close();
  }
  const got = await readAll(topics);
  const ids = identities(got, topics);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual([...slot9, ...slot10].map(identityOf).sort());
  expect(checkMarkers(got, topics, KINDS)).toEqual({ markers: 2, wrong: [], late: [] });
  // A third start finds nothing open.
  const third = publisherFor(topics);
  try {
    const again = await third.open();
    expect(again.afterSlot).toBe(10n);
    expect(again.openSlot).toBeUndefined();
  } finally {
    await third.close();
  }
});

it('sends a record over its topic limit to the dead-letter topic with the reason, and leaves it out of the counts', async () => {
  const topics = await freshTopics('publisher');
  const huge = TransactionEvent.fromPartial({
    slot: 7n,
    index: 99,
    signatures: [Buffer.alloc(64, 1)],
    logMessages: ['x'.repeat(recordLimit('transactions') + 1)],
  });
  const publisher = publisherFor(topics);
  await publisher.open();
  try {
    const framer = new SlotFramer(publisher.partitionCounts, topics);
    await publisher.publish(framer.frame({ slot: 7n, events: [...syntheticSlot(7n, 3), { kind: 'transactions', event: huge }] }));
  } finally {
    await publisher.close();
  }
  const got = await readAll(topics);
  expect(got.get(topics.transactions)!.flat()).toHaveLength(3);
  expect(checkMarkers(got, topics, KINDS)).toEqual({ markers: 1, wrong: [], late: [] });
  const dead = got.get(topics.deadletter)!.flat();
  expect(dead).toHaveLength(1);
  expect(dead[0]!.headers).toMatchObject({
    'slotstream-topic': topics.transactions,
    'slotstream-slot': '7',
    'slotstream-reason': expect.stringContaining(`-byte limit of ${topics.transactions}`),
  });
});

// Foundation "done when": topics are created from config, and one record of each event type survives
// encode → real broker → consumer group → decode unchanged, keys included.
import { randomBytes } from 'node:crypto';
import { ConfigResourceTypes, type Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, ensureTopics } from '../platform/kafka.js';
import {
  decodeRecord,
  encodeRecord,
  SlotStatus,
  type ChainEvent,
  type EpochEvent,
} from '../schemas/codec.js';
import { topicNames, TOPIC_KINDS, type TopicKind } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './harness/kafka.js';

const key32 = (): Buffer => randomBytes(32);
const PARTITIONS = 3;
const RETENTION_MS = 3 * 24 * 3600 * 1000;

function sampleEvents(): ChainEvent[] {
  const fee = key32();
  const program = key32();
  return [
    {
      kind: 'transactions',
      event: {
        slot: 250_000_123n,
        index: 17,
        signatures: [randomBytes(64), randomBytes(64)],
        versioned: true,
        numRequiredSignatures: 2,
        numReadonlySignedAccounts: 0,
        numReadonlyUnsignedAccounts: 2,
        accountKeys: [fee, key32(), key32(), program],
        recentBlockhash: key32(),
        instructions: [
          { programIdIndex: 3, accounts: Buffer.from([0, 1, 4, 5]), data: Buffer.from('0102deadbeef', 'hex') },
          { programIdIndex: 2, accounts: Buffer.from([]), data: Buffer.from('hello memo') },
        ],
        addressTableLookups: [
          { accountKey: key32(), writableIndexes: Buffer.from([1, 7]), readonlyIndexes: Buffer.from([3]) },
        ],
        loadedWritable: [key32(), key32()],
        loadedReadonly: [key32()],
        isVote: false,
        err: '{"InstructionError":[2,{"Custom":6002}]}',
        fee: 10_000n,
        memos: ['hello memo', 'second ✓ memo'],
        blockTime: 1_732_000_000n,
      },
    },
    {
      kind: 'accounts',
      event: {
        pubkey: key32(),
        lamports: 2_039_280n,
        owner: key32(),
        executable: false,
        rentEpoch: 18_446_744_073_709_551_615n,
        data: randomBytes(165),
        writeVersion: 1_234_567_890_123n,
        slot: 250_000_123n,
        txnSignature: randomBytes(64),
        isStartup: false,
      },
    },
    {
      kind: 'slots',
      event: {
        slot: 250_000_124n,
        status: SlotStatus.SLOT_STATUS_PROCESSED,
        block: {
          parentSlot: 250_000_123n,
          blockhash: key32(),
          blockHeight: 229_000_001n,
          blockTime: 1_732_000_001n,
          leader: key32(),
          transactionCount: 1_432,
          voteTransactionCount: 1_001,
        },
      },
    },
    { kind: 'epochs', event: epochEvent(579n, 1_500, 4) },
  ];
}

/** A mainnet-sized epoch: 432,000 slots in 108,000 leader runs. */
function epochEvent(epoch: bigint, leaders: number, slotsPerLeader: number): EpochEvent {
  const slotsPerEpoch = 432_000n;
  const runs = Number(slotsPerEpoch) / slotsPerLeader;
  return {
    epoch,
    firstSlot: epoch * slotsPerEpoch,
    slotsPerEpoch,
    slotsPerLeader,
    identities: Array.from({ length: leaders }, key32),
    schedule: Array.from({ length: runs }, (_, i) => (i * 7919) % leaders),
  };
}

interface Received {
  topic: string;
  key: Buffer | null;
  value: Buffer | null;
}

describe('topics on a real broker', () => {
  const prefix = uniquePrefix('topics');
  const topics = topicNames(prefix);
  let kafka: Kafka;

  beforeAll(() => {
    kafka = createKafka(testBrokers(), 'topics-int-test');
  });

  afterAll(async () => {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: Object.values(topics) }).catch(() => {});
    await admin.disconnect();
  });

  it('ensureTopics creates the topics with configured partitions and retention, idempotently', async () => {
    const opts = { partitions: PARTITIONS, retentionMs: RETENTION_MS, replicationFactor: 1 };
    await ensureTopics(kafka, topics, opts);
    await ensureTopics(kafka, topics, opts); // second call: no error, nothing changes
    // Two processes starting at once both try to create them.
    await Promise.all([ensureTopics(kafka, topics, opts), ensureTopics(kafka, topics, opts)]);

    const admin = kafka.admin();
    await admin.connect();
    try {
      const all = new Set(await admin.listTopics());
      for (const kind of [...TOPIC_KINDS, 'deadletter' as const]) expect(all.has(topics[kind])).toBe(true);

      const meta = await admin.fetchTopicMetadata({ topics: Object.values(topics) });
      const partitions = Object.fromEntries(meta.topics.map((t) => [t.name, t.partitions.length]));
      expect(partitions).toEqual({
        [topics.transactions]: PARTITIONS,
        [topics.accounts]: PARTITIONS,
        [topics.slots]: PARTITIONS,
        [topics.epochs]: 1,
        [topics.deadletter]: 1,
      });

      const configs = await admin.describeConfigs({
        includeSynonyms: false,
        resources: Object.values(topics).map((name) => ({
          type: ConfigResourceTypes.TOPIC,
          name,
          configNames: ['retention.ms', 'max.message.bytes'],
        })),
      });
      for (const r of configs.resources) {
        const get = (n: string): string | undefined => r.configEntries.find((c) => c.configName === n)?.configValue;
        expect(get('retention.ms'), r.resourceName).toBe(String(RETENTION_MS));
        if (r.resourceName === topics.epochs) {
          expect(Number(get('max.message.bytes'))).toBeGreaterThanOrEqual(2 * 1024 * 1024 + 64 * 1024);
        }
      }
    } finally {
      await admin.disconnect();
    }
  });

  it('rejects nonsense options with a message naming them', async () => {
    await expect(ensureTopics(kafka, topics, { partitions: 0, retentionMs: 1, replicationFactor: 1 })).rejects.toThrow(
      /partitions must be a positive integer, got 0/,
    );
    await expect(
      ensureTopics(kafka, topics, { partitions: 1, retentionMs: 1, replicationFactor: 1.5 }),
    ).rejects.toThrow(/replicationFactor/);
  });

  it('one record of each type round-trips through a consumer group unchanged', async () => {
    await ensureTopics(kafka, topics, { partitions: PARTITIONS, retentionMs: RETENTION_MS, replicationFactor: 1 });
    const events = sampleEvents();
    // A ~2 MB epoch record (65k identities) proves the epochs topic and the broker accept it.
    const bigEpoch: ChainEvent = { kind: 'epochs', event: epochEvent(580n, 65_000, 4) };
    const sent = [...events, bigEpoch].map((e) => ({ e, rec: encodeRecord(e) }));
    expect(sent.at(-1)!.rec.value.length).toBeGreaterThan(2 * 1024 * 1024);

    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      for (const { e, rec } of sent) {
        await producer.send({ topic: topics[e.kind], acks: -1, messages: [{ key: rec.key, value: rec.value }] });
      }
    } finally {
      await producer.disconnect();
    }

    const received: Received[] = [];
    const consumer = kafka.consumer({ groupId: `${prefix}.group`, maxBytesPerPartition: 8 * 1024 * 1024 });
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: TOPIC_KINDS.map((k) => topics[k]), fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ topic, message }) => {
          received.push({ topic, key: message.key, value: message.value });
        },
      });
      await waitFor(() => received.length >= sent.length, { timeoutMs: 60_000, what: `${sent.length} records` });
    } finally {
      await consumer.disconnect();
    }
    expect(received).toHaveLength(sent.length);

    const kindOf = (topic: string): TopicKind => {
      const kind = (Object.keys(topics) as TopicKind[]).find((k) => topics[k] === topic);
      if (!kind) throw new Error(`record from unexpected topic ${topic}`);
      return kind;
    };
    const decoded = received.map((r) => {
      const res = decodeRecord(kindOf(r.topic), r.value);
      if (!res.ok) throw new Error(res.reason);
      return { key: r.key, event: res.value };
    });
    const find = (e: ChainEvent, key: Buffer): ChainEvent => {
      const match = decoded.find((d) => d.key?.equals(key) && d.event.kind === e.kind);
      expect(match, `${e.kind} record keyed ${key.toString('hex')}`).toBeDefined();
      return match!.event;
    };
    for (const { e, rec } of sent.slice(0, events.length)) expect(find(e, rec.key)).toEqual(e);
    // Deep equality over 65k Buffers is slow in vitest; protobuf encoding is deterministic, so equal
    // bytes after re-encoding mean equal fields.
    const big = sent.at(-1)!;
    expect(encodeRecord(find(big.e, big.rec.key)).value.equals(big.rec.value)).toBe(true);
  });
});

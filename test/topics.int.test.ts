// Foundation "done when": topics are created from config, and one record of each event type survives
// encode → real broker → consumer group → decode unchanged, keys included.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKafka,
  KafkaError,
  MAX_MESSAGE_BYTES,
  RECORD_OVERHEAD_BYTES,
  topicSpecs,
  type EnsureTopicsOptions,
  type Kafka,
  type KafkaAdmin,
} from '../platform/kafka/index.js';
import { decodeRecord, encodeRecord, SlotStatus, type ChainEvent, type EpochEvent, type RecordEvent } from '../schemas/codec.js';
import { noTransactionMeta } from '../schemas/meta.js';
import { topicNames, RECORD_KINDS, type TopicKind } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { readTopics } from './support/kafka/read-topics.js';

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
        addressTableLookups: [{ accountKey: key32(), writableIndexes: Buffer.from([1, 7]), readonlyIndexes: Buffer.from([3]) }],
        loadedWritable: [key32(), key32()],
        loadedReadonly: [key32()],
        isVote: false,
        err: '{"InstructionError":[2,{"Custom":6002}]}',
        fee: 10_000n,
        memos: ['hello memo', 'second ✓ memo'],
        blockTime: 1_732_000_000n,
        ...noTransactionMeta(),
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
          previousBlockhash: key32(),
          rewards: [],
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

/** Every topic ensureTopics creates, the ones the projector does not read included. */
const ALL_KINDS = Object.keys(topicNames()) as TopicKind[];

describe('topics on a real broker', () => {
  const prefix = uniquePrefix('topics');
  const topics = topicNames(prefix);
  // Topics of their own for the size limits, so the round trip below sees only its records.
  const sizeTopics = topicNames(uniquePrefix('topic-sizes'));
  const opts: EnsureTopicsOptions = { partitions: PARTITIONS, retentionMs: RETENTION_MS, replicationFactor: 1 };
  let kafka: Kafka;
  let admin: KafkaAdmin;

  beforeAll(() => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'topics-int-test' });
    admin = kafka.admin();
  });

  afterAll(async () => {
    await admin.deleteTopics([...Object.values(topics), ...Object.values(sizeTopics)]).catch(() => {});
    await kafka.close();
  });

  it('ensureTopics creates the topics with configured partitions and retention, idempotently', async () => {
    await admin.ensureTopics(topics, opts);
    await admin.ensureTopics(topics, opts); // second call: no error, nothing changes
    // Two processes starting at once both try to create them (each with clients of its own).
    const other = createKafka({ brokers: testBrokers(), clientId: 'topics-int-test-2' });
    try {
      await Promise.all([admin.ensureTopics(topics, opts), other.admin().ensureTopics(topics, opts)]);
    } finally {
      await other.close();
    }

    const all = new Set(await admin.listTopics());
    for (const kind of ALL_KINDS) expect(all.has(topics[kind]), topics[kind]).toBe(true);

    const partitions = Object.fromEntries(
      await Promise.all(Object.values(topics).map(async (t) => [t, await admin.partitionCount(t)] as const)),
    );
    expect(partitions).toEqual({
      [topics.transactions]: PARTITIONS,
      [topics.accounts]: PARTITIONS,
      [topics.slots]: PARTITIONS,
      [topics.entries]: PARTITIONS,
      [topics.epochs]: 1,
      [topics.parsed]: PARTITIONS,
      [topics.deadletter]: 1,
    });

    // The seam reads no topic configuration back; ensureTopics creates each topic with the settings
    // topicSpecs gives it (retention here; that the broker applied them shows in the size limits below).
    const specs = topicSpecs(topics, opts);
    expect(specs.map((s) => s.topic).sort()).toEqual(Object.values(topics).sort());
    for (const spec of specs) expect(spec.config['retention.ms'], spec.topic).toBe(String(RETENTION_MS));
  });

  it('each topic takes a record just under its size limit, read back intact, and refuses one just over it', async () => {
    await admin.ensureTopics(sizeTopics, opts);
    // The broker itself takes 16 MiB and the clients the largest topic limit (12 MiB) plus framing:
    // a refusal at a topic's limit comes from that topic's max.message.bytes.
    const key = randomBytes(8);
    const under = new Map<TopicKind, Buffer>();
    const producer = await kafka.producer();
    try {
      for (const kind of ALL_KINDS) {
        const value = randomBytes(MAX_MESSAGE_BYTES[kind] - RECORD_OVERHEAD_BYTES - key.length);
        under.set(kind, value);
        await producer.send([{ topic: sizeTopics[kind], partition: 0, key, value }]);
      }
    } finally {
      await producer.close();
    }
    expect(MAX_MESSAGE_BYTES.epochs).toBeGreaterThanOrEqual(2 * 1024 * 1024 + 64 * 1024 + RECORD_OVERHEAD_BYTES);
    expect(MAX_MESSAGE_BYTES.accounts).toBe(12 * 1024 * 1024);

    for (const kind of ALL_KINDS) {
      // A producer per refusal: a refused record must not leave the next one behind a failed sequence.
      const p = await kafka.producer();
      try {
        const err = await p.send([{ topic: sizeTopics[kind], partition: 0, key, value: Buffer.alloc(MAX_MESSAGE_BYTES[kind] + 1) }]).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, `${kind}: a record of ${MAX_MESSAGE_BYTES[kind] + 1} B`).toBeInstanceOf(KafkaError);
        expect((err as KafkaError).tooLarge, `${kind}: ${(err as Error).message}`).toBe(true);
      } finally {
        await p.close();
      }
    }

    const contents = await readTopics(
      kafka,
      ALL_KINDS.map((k) => sizeTopics[k]),
    );
    for (const kind of ALL_KINDS) {
      const got = contents.get(sizeTopics[kind])!.flat();
      expect(got, kind).toHaveLength(1);
      expect(got[0]!.key.equals(key), kind).toBe(true);
      expect(got[0]!.value.length, kind).toBe(under.get(kind)!.length);
      expect(got[0]!.value.equals(under.get(kind)!), kind).toBe(true);
    }
  });

  it('rejects nonsense options with a message naming them', async () => {
    await expect(admin.ensureTopics(topics, { partitions: 0, retentionMs: 1, replicationFactor: 1 })).rejects.toThrow(
      /partitions must be a positive integer, got 0/,
    );
    await expect(admin.ensureTopics(topics, { partitions: 1, retentionMs: 1, replicationFactor: 1.5 })).rejects.toThrow(
      /replicationFactor/,
    );
  });

  it('one record of each type round-trips through a consumer group unchanged', async () => {
    await admin.ensureTopics(topics, opts);
    const events = sampleEvents();
    // A ~2 MB epoch record (65k identities) proves the epochs topic and the broker accept it.
    const bigEpoch: ChainEvent = { kind: 'epochs', event: epochEvent(580n, 65_000, 4) };
    const sent = [...events, bigEpoch].map((e) => ({ e, rec: encodeRecord(e) }));
    expect(sent.at(-1)!.rec.value.length).toBeGreaterThan(2 * 1024 * 1024);

    // The seam's plain producer is idempotent and waits for every in-sync replica (acks=all).
    const producer = await kafka.producer();
    try {
      for (const { e, rec } of sent) await producer.send([{ topic: topics[e.kind], key: rec.key, value: rec.value }]);
    } finally {
      await producer.close();
    }

    const received: Received[] = [];
    // A new group starts at the beginning of each partition.
    const consumer = await kafka.groupConsumer({
      groupId: `${prefix}.group`,
      topics: RECORD_KINDS.map((k) => topics[k]),
      maxBytesPerPartition: 8 * 1024 * 1024,
      onBatches: async (batches) => {
        for (const b of batches) for (const r of b.records) received.push({ topic: r.topic, key: r.key, value: r.value });
      },
    });
    try {
      await waitFor(() => received.length >= sent.length, { timeoutMs: 300_000, what: `${sent.length} records` });
    } finally {
      await consumer.stop();
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
    const find = (e: ChainEvent, key: Buffer): RecordEvent => {
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

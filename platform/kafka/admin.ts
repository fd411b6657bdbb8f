// Topic and group administration: creating topics, partition counts, log ranges and group commits.
// Every offset lookup retries the same way (client.ts `retrying`): a topic that was just created or
// a coordinator that is still loading answers with retriable errors for a moment.
import KafkaJs from '@confluentinc/kafka-javascript';
import type { DeleteGroupsResult, DeleteRecordsResult, GroupDescriptions, IAdminClient, ListOffsetsResult, Metadata, NewTopic, TopicDescription, TopicPartition, TopicPartitionOffset, KafkaConsumer } from '@confluentinc/kafka-javascript';
import { connectConsumer, consumerConfig, disconnectConsumer } from './native-consumer.js';
import type { TopicNames } from '../../schemas/topics.js';
import { baseConfig, bridgeLogs, call, retrying, type KafkaOptions } from './client.js';
import { topicSpecs, type EnsureTopicsOptions } from './topics.js';

const { AdminClient, OffsetSpec, IsolationLevel } = KafkaJs;

// librdkafka's consumer group states, by number (rd_kafka_consumer_group_state_t).
const GROUP_STATES = ['Unknown', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead', 'Empty'];

export interface OffsetRange {
  /** First offset the log still holds. */
  low: bigint;
  /** The last stable offset: the end a read_committed reader reaches (an open transaction holds it back). */
  high: bigint;
}

/** `topic/partition` → offset. */
export type OffsetMap = Map<string, bigint>;

export const partitionKey = (topic: string, partition: number): string => `${topic}/${partition}`;

export interface KafkaAdmin {
  /** Creates the topics that are missing (idempotent, safe against a concurrent creator), then waits
   * until every partition has a leader. Existing topics are never altered. */
  ensureTopics(topics: TopicNames, opts: EnsureTopicsOptions): Promise<void>;
  listTopics(): Promise<string[]>;
  deleteTopics(names: readonly string[]): Promise<void>;
  partitionCount(topic: string): Promise<number>;
  /** Log start and last stable offset of every partition of a topic. */
  offsetRanges(topic: string): Promise<Map<number, OffsetRange>>;
  /** End offsets (last stable) of every partition of the topics, keyed by partitionKey. */
  endOffsets(topics: readonly string[]): Promise<OffsetMap>;
  /** The group's committed offsets (0 where it has none), keyed by partitionKey. */
  committedOffsets(groupId: string, topics: readonly string[]): Promise<OffsetMap>;
  deleteGroup(groupId: string): Promise<void>;
  /** The group's state (e.g. `Stable`) and member count. */
  describeGroup(groupId: string): Promise<{ state: string; members: number }>;
  /** Moves a partition's log start to `before` (what retention does segment by segment): tests of history limits. */
  deleteRecords(topic: string, partition: number, before: bigint): Promise<void>;
  /** Ids of the brokers the cluster's metadata lists (a quick liveness probe, no retries). */
  brokerIds(timeoutMs?: number): Promise<number[]>;
  /** Each topic's id (base64), which Kafka draws anew whenever a topic is created: a new broker or a
   * recreated topic has another one, even under the same name. */
  topicIds(topics: readonly string[]): Promise<Map<string, string>>;
  close(): Promise<void>;
}

export function createAdmin(o: KafkaOptions): KafkaAdmin {
  const client: IAdminClient = AdminClient.create(baseConfig({ ...o, clientId: `${o.clientId}-admin` }));
  bridgeLogs(client as unknown as Parameters<typeof bridgeLogs>[0], o);
  let closed = false;
  const offsetReaders = new Map<string, Promise<KafkaConsumer>>();
  const offsetReader = (groupId: string): Promise<KafkaConsumer> => {
    let c = offsetReaders.get(groupId);
    if (!c) offsetReaders.set(groupId, (c = connectConsumer(o, consumerConfig({ ...o, clientId: `${o.clientId}-offsets` }, { groupId }))));
    return c;
  };

  const describe = (topics: readonly string[]): Promise<TopicDescription[]> =>
    retrying(`describe ${topics.join(', ')}`, () =>
      call<TopicDescription[]>('describeTopics', (cb) => client.describeTopics([...topics], { timeout: 10_000 }, cb)),
    );

  const admin: KafkaAdmin = {
    async ensureTopics(topics, opts) {
      const specs = topicSpecs(topics, opts);
      const existing = new Set(await admin.listTopics());
      for (const s of specs.filter((x) => !existing.has(x.topic))) {
        const t: NewTopic = { topic: s.topic, num_partitions: s.numPartitions, replication_factor: s.replicationFactor, config: { ...s.config } };
        try {
          await call('createTopic', (cb) => client.createTopic(t, 30_000, cb));
        } catch (err) {
          if (!/already exists/i.test((err as Error).message)) throw err;
        }
      }
      const names = specs.map((s) => s.topic);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const described = await describe(names).catch((): TopicDescription[] => []);
        const ready = described.length === names.length && described.every((t) => !t.error && t.partitions.length > 0 && t.partitions.every((p) => p.leader));
        if (ready) {
          for (const t of described) {
            const want = specs.find((s) => s.topic === t.name)?.numPartitions;
            if (want !== undefined && t.partitions.length !== want) {
              opts.log?.('topic exists with a different partition count; left unchanged', { topic: t.name, partitions: t.partitions.length, configured: want });
            }
          }
          return;
        }
        if (Date.now() > deadline) throw new Error(`ensureTopics: no partition leaders for ${names.join(', ')} after 30 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },

    listTopics: () => retrying('listTopics', () => call<string[]>('listTopics', (cb) => client.listTopics({ timeout: 10_000 }, cb))),

    async deleteTopics(names) {
      for (const n of names) await call('deleteTopic', (cb) => client.deleteTopic(n, 30_000, cb));
    },

    async partitionCount(topic) {
      const [t] = await describe([topic]);
      if (!t || t.error || t.partitions.length === 0) throw new Error(`topic ${topic} has no partitions (does it exist?)`);
      return t.partitions.length;
    },

    async offsetRanges(topic) {
      const n = await admin.partitionCount(topic);
      const list = (spec: InstanceType<typeof OffsetSpec>) =>
        retrying(`offsets of ${topic}`, () =>
          call<ListOffsetsResult[]>('listOffsets', (cb) =>
            client.listOffsets(
              Array.from({ length: n }, (_, partition) => ({ topic, partition, offset: spec })),
              { timeout: 10_000, isolationLevel: IsolationLevel.READ_COMMITTED },
              cb,
            ),
          ).then((rows) => {
            const bad = rows.find((r) => r.error);
            if (bad) throw bad.error;
            return rows;
          }),
        );
      const [lows, highs] = await Promise.all([list(OffsetSpec.EARLIEST), list(OffsetSpec.LATEST)]);
      const out = new Map<number, OffsetRange>();
      for (const l of lows) out.set(l.partition, { low: BigInt(l.offset), high: 0n });
      for (const h of highs) out.get(h.partition)!.high = BigInt(h.offset);
      return out;
    },

    async endOffsets(topics) {
      const out: OffsetMap = new Map();
      for (const topic of topics) for (const [p, r] of await admin.offsetRanges(topic)) out.set(partitionKey(topic, p), r.high);
      return out;
    },

    async committedOffsets(groupId, topics) {
      const partitions: TopicPartition[] = [];
      for (const topic of topics) {
        const n = await admin.partitionCount(topic);
        for (let partition = 0; partition < n; partition++) partitions.push({ topic, partition });
      }
      // Asked through a consumer of the group that never joins it: the native admin's
      // listConsumerGroupOffsets crashes the process (SIGSEGV, binding 1.10.1) when asked while the
      // group is joining or has no commits yet, which is exactly when the projector's heads ask.
      const reader = await offsetReader(groupId);
      const rows = await retrying(`offsets of group ${groupId}`, () =>
        call<TopicPartitionOffset[]>('committed', (cb) => reader.committed(partitions, 10_000, cb)),
      );
      const out: OffsetMap = new Map();
      // A partition without a commit comes back with no offset (or a negative one): it starts at 0.
      for (const p of rows) {
        if (typeof p.topic !== 'string') continue;
        out.set(partitionKey(p.topic, p.partition), typeof p.offset === 'number' && p.offset >= 0 ? BigInt(p.offset) : 0n);
      }
      for (const p of partitions) if (!out.has(partitionKey(p.topic, p.partition))) out.set(partitionKey(p.topic, p.partition), 0n);
      return out;
    },

    async deleteGroup(groupId) {
      const [r] = await call<DeleteGroupsResult[]>('deleteGroups', (cb) => client.deleteGroups([groupId], { timeout: 10_000 }, cb));
      if (r?.error) throw new Error(`cannot delete group ${groupId}: ${r.error.message}`);
    },

    async deleteRecords(topic, partition, before) {
      const [r] = await call<DeleteRecordsResult[]>('deleteRecords', (cb) =>
        client.deleteRecords([{ topic, partition, offset: Number(before) }], { timeout: 10_000 }, cb),
      );
      if (r?.error) throw new Error(`cannot delete records of ${topic}/${partition} before ${before}: ${r.error.message}`);
    },

    async describeGroup(groupId) {
      const r = await call<GroupDescriptions>('describeGroups', (cb) => client.describeGroups([groupId], { timeout: 10_000 }, cb));
      const g = r.groups[0];
      if (!g || g.error) throw new Error(`cannot describe group ${groupId}: ${g?.error?.message ?? 'no answer'}`);
      return { state: GROUP_STATES[g.state as unknown as number] ?? String(g.state), members: g.members.length };
    },

    async brokerIds(timeoutMs = 1_000) {
      // The native admin has no describeCluster; its metadata call (used by listTopics) lists brokers.
      const native = (client as unknown as { _client: { getMetadata(o: object, cb: (err: unknown, m: Metadata) => void): void } })._client;
      const meta = await call<Metadata>('metadata', (cb) => native.getMetadata({ allTopics: false, timeout: timeoutMs }, cb));
      return meta.brokers.map((b) => b.id);
    },

    async topicIds(topics) {
      const out = new Map<string, string>();
      for (const d of await describe(topics)) {
        if (d.error) throw new Error(`cannot describe topic ${d.name}: ${d.error.message}`);
        out.set(d.name, d.topicId.base64str);
      }
      return out;
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const c of offsetReaders.values()) await disconnectConsumer(await c);
      offsetReaders.clear();
      client.disconnect();
    },
  };
  return admin;
}

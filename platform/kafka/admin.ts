// Topic and group administration: creating topics, partition counts, log ranges and group commits.
// One per process (`kafka.admin()`), shared by every caller; `close` ends it once.
// Every offset lookup retries the same way (client.ts `retrying`): a topic that was just created or
// a coordinator that is still loading answers with retriable errors for a moment.
import KafkaJs from '@confluentinc/kafka-javascript';
import type {
  DeleteGroupsResult,
  DeleteRecordsResult,
  GroupDescriptions,
  IAdminClient,
  ListOffsetsResult,
  Metadata,
  NewTopic,
  TopicDescription,
  TopicPartition,
  TopicPartitionOffset,
  KafkaConsumer,
} from '@confluentinc/kafka-javascript';
import { commitOffsets, connectConsumer, consumerConfig, disconnectConsumer } from './native-consumer.js';
import type { TopicNames } from '../../schemas/topics.js';
import { retry, type RetryPolicy } from '../retry.js';
import { baseConfig, bridgeLogs, call, retrying, type KafkaOptions } from './client.js';
import { OffsetMap } from './offset-map.js';
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

export interface KafkaAdmin {
  /** Creates the topics that are missing (idempotent, safe against a concurrent creator), then waits
   * until every partition has a leader. Existing topics are never altered. */
  ensureTopics(topics: TopicNames, opts: EnsureTopicsOptions): Promise<void>;
  /** Creates a one-partition compacted topic when missing (kept forever: the newest record per key stays), then
   * waits for its leader. For small keyed state, such as the api's durable stream cursors. */
  ensureCompactedTopic(topic: string, replicationFactor: number): Promise<void>;
  listTopics(): Promise<string[]>;
  deleteTopics(names: readonly string[]): Promise<void>;
  partitionCount(topic: string): Promise<number>;
  /** Log start and last stable offset of every partition of a topic. */
  offsetRanges(topic: string): Promise<Map<number, OffsetRange>>;
  /** End offsets (last stable) of every partition of the topics. */
  endOffsets(topics: readonly string[]): Promise<OffsetMap>;
  /** The group's committed offsets (0 where it has none). */
  committedOffsets(groupId: string, topics: readonly string[]): Promise<OffsetMap>;
  /** Commits offsets for a group nobody has joined (Kafka takes a commit from outside only while the group
   * has no members): small durable values keyed by group, such as the ingest's standby heartbeat. */
  commitOffsets(groupId: string, offsets: readonly { topic: string; partition: number; offset: bigint }[]): Promise<void>;
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

/** How long topics just created may take to get partition leaders, polled every 100 ms. */
const LEADERS_WAIT: RetryPolicy = { initialMs: 100, factor: 1, maxMs: 100, deadlineMs: 30_000 };

export function createAdmin(o: KafkaOptions): KafkaAdmin {
  const client = AdminClient.create(baseConfig({ ...o, clientId: `${o.clientId}-admin` }));
  bridgeLogs(client as unknown as Parameters<typeof bridgeLogs>[0], o);
  return new NativeAdmin(o, client);
}

export class NativeAdmin implements KafkaAdmin {
  // Set once by `close`: later closes do nothing (librdkafka never answers a second disconnect).
  private closed = false;
  // One consumer per group whose commits were asked for (never joining the group), made on first use by
  // `offsetReader`, disconnected by `close`. Keyed by group id.
  private readonly offsetReaders = new Map<string, Promise<KafkaConsumer>>();

  constructor(
    private readonly o: KafkaOptions,
    // The native admin client, made by `createAdmin`: every admin call goes through it; `close` disconnects it.
    private readonly client: IAdminClient,
  ) {}

  async ensureTopics(topics: TopicNames, opts: EnsureTopicsOptions): Promise<void> {
    const specs = topicSpecs(topics, opts);
    await this.createMissing(specs);
    const described = await this.waitForLeaders(specs.map((s) => s.topic));
    for (const t of described) {
      const want = specs.find((s) => s.topic === t.name)?.numPartitions;
      if (want !== undefined && t.partitions.length !== want) {
        opts.log?.('topic exists with a different partition count; left unchanged', {
          topic: t.name,
          partitions: t.partitions.length,
          configured: want,
        });
      }
    }
  }

  async ensureCompactedTopic(topic: string, replicationFactor: number): Promise<void> {
    await this.createMissing([
      {
        topic,
        numPartitions: 1,
        replicationFactor,
        config: { 'cleanup.policy': 'compact', 'retention.ms': '-1', 'min.compaction.lag.ms': '0' },
      },
    ]);
    await this.waitForLeaders([topic]);
  }

  /** Creates the topics that do not exist yet; one created meanwhile by someone else is fine. */
  private async createMissing(specs: ReturnType<typeof topicSpecs>): Promise<void> {
    const existing = new Set(await this.listTopics());
    for (const s of specs.filter((x) => !existing.has(x.topic))) {
      const t: NewTopic = {
        topic: s.topic,
        num_partitions: s.numPartitions,
        replication_factor: s.replicationFactor,
        config: { ...s.config } as NewTopic['config'],
      };
      // Asked again on a passing error (a 3-node cluster on a busy machine dropped the broker handle a creation went
      // out on); a first try the broker carried out then answers "already exists".
      try {
        await retrying(`createTopic ${s.topic}`, () => call('createTopic', (cb) => this.client.createTopic(t, 30_000, cb)));
      } catch (err) {
        if (!/already exists/i.test((err as Error).message)) throw err;
      }
    }
  }

  /** The topics' descriptions once every partition has a leader (a just-created topic takes a moment). */
  private waitForLeaders(names: readonly string[]): Promise<TopicDescription[]> {
    return retry(
      async () => {
        const described = await this.describe(names).catch((): TopicDescription[] => []);
        const ready =
          described.length === names.length &&
          described.every((t) => !t.error && t.partitions.length > 0 && t.partitions.every((p) => p.leader));
        if (!ready) throw new Error(`ensureTopics: no partition leaders for ${names.join(', ')} after 30 s`);
        return described;
      },
      { policy: LEADERS_WAIT },
    );
  }

  private describe(topics: readonly string[]): Promise<TopicDescription[]> {
    return retrying(`describe ${topics.join(', ')}`, () =>
      call<TopicDescription[]>('describeTopics', (cb) => this.client.describeTopics([...topics], { timeout: 10_000 }, cb)),
    );
  }

  listTopics(): Promise<string[]> {
    return retrying('listTopics', () => call<string[]>('listTopics', (cb) => this.client.listTopics({ timeout: 10_000 }, cb)));
  }

  async deleteTopics(names: readonly string[]): Promise<void> {
    for (const n of names) await call('deleteTopic', (cb) => this.client.deleteTopic(n, 30_000, cb));
  }

  async partitionCount(topic: string): Promise<number> {
    return (await this.partitions([topic]))[0]!.length;
  }

  /** Every partition of the topics, from one metadata request (the projector's heads ask several times a second:
   * a request per topic, and two more for its offsets, were 25 broker requests a tick for six topics). */
  private async partitions(topics: readonly string[]): Promise<TopicPartition[][]> {
    const described = new Map((await this.describe(topics)).map((t) => [t.name, t]));
    return topics.map((topic) => {
      const t = described.get(topic);
      if (!t || t.error || t.partitions.length === 0) throw new Error(`topic ${topic} has no partitions (does it exist?)`);
      return t.partitions.map((p) => ({ topic, partition: p.partition }));
    });
  }

  async offsetRanges(topic: string): Promise<Map<number, OffsetRange>> {
    const [parts] = await this.partitions([topic]);
    const [lows, highs] = await Promise.all([this.listOffsets(parts!, OffsetSpec.EARLIEST), this.listOffsets(parts!, OffsetSpec.LATEST)]);
    const out = new Map<number, OffsetRange>();
    for (const l of lows) out.set(l.partition, { low: BigInt(l.offset), high: 0n });
    for (const h of highs) {
      const r = out.get(h.partition);
      if (r) r.high = BigInt(h.offset);
    }
    return out;
  }

  /** One offset per partition (log start or last stable), read_committed, in one request (librdkafka splits it by leader). */
  private listOffsets(partitions: readonly TopicPartition[], spec: InstanceType<typeof OffsetSpec>): Promise<ListOffsetsResult[]> {
    const topics = [...new Set(partitions.map((p) => p.topic))].join(', ');
    return retrying(`offsets of ${topics}`, () =>
      call<ListOffsetsResult[]>('listOffsets', (cb) =>
        this.client.listOffsets(
          partitions.map((p) => ({ topic: p.topic, partition: p.partition, offset: spec })),
          { timeout: 10_000, isolationLevel: IsolationLevel.READ_COMMITTED },
          cb,
        ),
      ).then((rows) => {
        const bad = rows.find((r) => r.error);
        if (bad) throw bad.error;
        return rows;
      }),
    );
  }

  async endOffsets(topics: readonly string[]): Promise<OffsetMap> {
    const out = new OffsetMap();
    if (topics.length === 0) return out;
    for (const r of await this.listOffsets((await this.partitions(topics)).flat(), OffsetSpec.LATEST))
      out.set(r.topic, r.partition, BigInt(r.offset));
    return out;
  }

  async committedOffsets(groupId: string, topics: readonly string[]): Promise<OffsetMap> {
    const partitions = (await this.partitions(topics)).flat();
    // Asked through a consumer of the group that never joins it: the native admin's
    // listConsumerGroupOffsets crashes the process (SIGSEGV, binding 1.10.1) when asked while the
    // group is joining or has no commits yet, which is exactly when the projector's heads ask.
    const reader = await this.offsetReader(groupId);
    const rows = await retrying(`offsets of group ${groupId}`, () =>
      call<TopicPartitionOffset[]>('committed', (cb) => reader.committed(partitions, 10_000, cb)),
    );
    const out = new OffsetMap();
    // A partition without a commit comes back with no offset (or a negative one): it starts at 0.
    for (const p of rows) {
      if (typeof p.topic !== 'string') continue;
      out.set(p.topic, p.partition, typeof p.offset === 'number' && p.offset >= 0 ? BigInt(p.offset) : 0n);
    }
    for (const p of partitions) if (!out.has(p.topic, p.partition)) out.set(p.topic, p.partition, 0n);
    return out;
  }

  async commitOffsets(groupId: string, offsets: readonly { topic: string; partition: number; offset: bigint }[]): Promise<void> {
    await commitOffsets(await this.offsetReader(groupId), offsets);
  }

  private offsetReader(groupId: string): Promise<KafkaConsumer> {
    let c = this.offsetReaders.get(groupId);
    if (!c)
      this.offsetReaders.set(
        groupId,
        (c = connectConsumer(this.o, consumerConfig({ ...this.o, clientId: `${this.o.clientId}-offsets` }, { groupId }))),
      );
    return c;
  }

  async deleteGroup(groupId: string): Promise<void> {
    const [r] = await call<DeleteGroupsResult[]>('deleteGroups', (cb) => this.client.deleteGroups([groupId], { timeout: 10_000 }, cb));
    if (r?.error) throw new Error(`cannot delete group ${groupId}: ${r.error.message}`);
  }

  async deleteRecords(topic: string, partition: number, before: bigint): Promise<void> {
    const [r] = await call<DeleteRecordsResult[]>('deleteRecords', (cb) =>
      this.client.deleteRecords([{ topic, partition, offset: Number(before) }], { timeout: 10_000 }, cb),
    );
    if (r?.error) throw new Error(`cannot delete records of ${topic}/${partition} before ${before}: ${r.error.message}`);
  }

  async describeGroup(groupId: string): Promise<{ state: string; members: number }> {
    const r = await call<GroupDescriptions>('describeGroups', (cb) => this.client.describeGroups([groupId], { timeout: 10_000 }, cb));
    const g = r.groups[0];
    if (!g || g.error) throw new Error(`cannot describe group ${groupId}: ${g?.error?.message ?? 'no answer'}`);
    return { state: GROUP_STATES[g.state as unknown as number] ?? String(g.state), members: g.members.length };
  }

  async brokerIds(timeoutMs = 1_000): Promise<number[]> {
    // The native admin has no describeCluster; its metadata call (used by listTopics) lists brokers.
    const native = (this.client as unknown as { _client: { getMetadata(o: object, cb: (err: unknown, m: Metadata) => void): void } })
      ._client;
    const meta = await call<Metadata>('metadata', (cb) => native.getMetadata({ allTopics: false, timeout: timeoutMs }, cb));
    return meta.brokers.map((b) => b.id);
  }

  async topicIds(topics: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const d of await this.describe(topics)) {
      if (d.error) throw new Error(`cannot describe topic ${d.name}: ${d.error.message}`);
      out.set(d.name, d.topicId.base64str);
    }
    return out;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.offsetReaders.values()) await disconnectConsumer(await c);
    this.offsetReaders.clear();
    this.client.disconnect();
  }
}

// Kafka client factory and topic bootstrap shared by every role (and the local launcher).
// kafkajs logs through its own logger; we either silence it or bridge it to the caller's logger,
// so a transient broker error never prints straight to stdout.
import { Kafka, logLevel, type ITopicConfig, type LogEntry } from 'kafkajs';
import type { TopicKind, TopicNames } from '../schemas/topics.js';

/** The part of a pino-style logger the kafkajs bridge needs. */
export interface KafkaLogSink {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CreateKafkaOptions {
  /** Where kafkajs warnings and errors go; without one kafkajs stays silent. */
  logger?: KafkaLogSink;
  /** Least severe kafkajs level forwarded to `logger` (default WARN). */
  level?: logLevel;
  /** Retries per request before kafkajs gives up (default 10, backoff 100 ms doubling to 3 s). */
  retries?: number;
  connectionTimeoutMs?: number;
}

export function createKafka(brokers: string[], clientId: string, opts: CreateKafkaOptions = {}): Kafka {
  if (brokers.length === 0) throw new Error(`createKafka(${clientId}): the broker list is empty`);
  const sink = opts.logger;
  return new Kafka({
    clientId,
    brokers,
    connectionTimeout: opts.connectionTimeoutMs ?? 3_000,
    retry: { initialRetryTime: 100, maxRetryTime: 3_000, retries: opts.retries ?? 10 },
    logLevel: sink ? (opts.level ?? logLevel.WARN) : logLevel.NOTHING,
    logCreator: () => (entry: LogEntry) => {
      if (sink) forward(sink, entry);
    },
  });
}

function forward(sink: KafkaLogSink, entry: LogEntry): void {
  const { message, ...fields } = entry.log;
  const obj = { kafkajs: entry.namespace, ...fields };
  const msg = `kafkajs: ${message}`;
  switch (entry.level) {
    case logLevel.ERROR:
      sink.error(obj, msg);
      break;
    case logLevel.WARN:
      sink.warn(obj, msg);
      break;
    case logLevel.INFO:
      sink.info(obj, msg);
      break;
    default:
      sink.debug(obj, msg);
  }
}

export interface EnsureTopicsOptions {
  /** Partitions for transactions, accounts and slots (epochs and deadletter get 1: tiny, and one total order). */
  partitions: number;
  /** Retention of every topic: the replay depth. */
  retentionMs: number;
  replicationFactor: number;
  /** Told about topics that already exist with a different partition count (they are left as they are). */
  log?: (msg: string, extra?: object) => void;
}

/** Largest record value each topic accepts. Epoch records carry a whole leader schedule (~2 MB on
 * mainnet); account records carry account data (up to 10 MiB on Solana), so they get headroom too. */
const MAX_MESSAGE_BYTES: Readonly<Record<TopicKind, number>> = {
  transactions: 4 * 1024 * 1024,
  accounts: 12 * 1024 * 1024,
  slots: 1024 * 1024,
  epochs: 4 * 1024 * 1024,
  deadletter: 12 * 1024 * 1024,
};

export function topicSpecs(topics: TopicNames, opts: EnsureTopicsOptions): ITopicConfig[] {
  if (!Number.isInteger(opts.partitions) || opts.partitions < 1) {
    throw new Error(`ensureTopics: partitions must be a positive integer, got ${opts.partitions}`);
  }
  if (!Number.isInteger(opts.replicationFactor) || opts.replicationFactor < 1) {
    throw new Error(`ensureTopics: replicationFactor must be a positive integer, got ${opts.replicationFactor}`);
  }
  if (!Number.isFinite(opts.retentionMs) || (opts.retentionMs < 1 && opts.retentionMs !== -1)) {
    throw new Error(`ensureTopics: retentionMs must be positive (or -1 for unlimited), got ${opts.retentionMs}`);
  }
  const kinds: TopicKind[] = ['transactions', 'accounts', 'slots', 'epochs', 'deadletter'];
  return kinds.map((kind) => ({
    topic: topics[kind],
    numPartitions: kind === 'epochs' || kind === 'deadletter' ? 1 : opts.partitions,
    replicationFactor: opts.replicationFactor,
    configEntries: [
      { name: 'retention.ms', value: String(opts.retentionMs) },
      { name: 'max.message.bytes', value: String(MAX_MESSAGE_BYTES[kind]) },
      // Ordering and replay depend on time-based retention, not on log compaction.
      { name: 'cleanup.policy', value: 'delete' },
    ],
  }));
}

/** Creates the event topics and the deadletter topic if missing. Idempotent, and safe when another
 * process creates the same topics at the same moment. Existing topics are never altered. */
export async function ensureTopics(kafka: Kafka, topics: TopicNames, opts: EnsureTopicsOptions): Promise<void> {
  const specs = topicSpecs(topics, opts);
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.topic));
    if (missing.length > 0) {
      // Returns false (no throw) when a concurrent creator won the race for every topic.
      await admin.createTopics({ topics: missing, waitForLeaders: false, timeout: 30_000 });
    }
    const names = specs.map((s) => s.topic);
    await waitForLeaders(admin, names);
    if (opts.log) {
      const meta = await admin.fetchTopicMetadata({ topics: names });
      for (const t of meta.topics) {
        const want = specs.find((s) => s.topic === t.name)?.numPartitions;
        if (want !== undefined && t.partitions.length !== want) {
          opts.log('topic exists with a different partition count; left unchanged', {
            topic: t.name,
            partitions: t.partitions.length,
            configured: want,
          });
        }
      }
    }
  } finally {
    await admin.disconnect();
  }
}

/** Producers fail with LEADER_NOT_AVAILABLE right after creation; wait until every partition has one. */
async function waitForLeaders(admin: ReturnType<Kafka['admin']>, names: string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const meta = await admin.fetchTopicMetadata({ topics: names });
      const ready = meta.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
      if (ready && meta.topics.length === names.length) return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    if (Date.now() > deadline) throw new Error(`ensureTopics: no partition leaders for ${names.join(', ')} after 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

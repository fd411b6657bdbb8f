// Topic layout shared by every role: partitions, retention and the largest record each topic takes.
// Producers and consumers size their own limits from MAX_MESSAGE_BYTES, so a record the topic
// accepts is never refused by a client default (librdkafka's are smaller than our accounts topic).
import type { TopicKind, TopicNames } from '../../schemas/topics.js';

export interface TopicSpec {
  topic: string;
  numPartitions: number;
  replicationFactor: number;
  config: Readonly<Record<string, string>>;
}

export interface EnsureTopicsOptions {
  /** Partitions for transactions, accounts, slots and entries (epochs and deadletter get 1: tiny, and one total order). */
  partitions: number;
  /** Retention of every topic: the replay depth. */
  retentionMs: number;
  replicationFactor: number;
  /** Told about topics that already exist with a different partition count (they are left as they are). */
  log?: (msg: string, extra?: object) => void;
}

/** Largest record value each topic accepts. Epoch records carry a whole leader schedule (~2 MB on
 * mainnet); account records carry account data (up to 10 MiB on Solana), so they get headroom too. */
export const MAX_MESSAGE_BYTES: Readonly<Record<TopicKind, number>> = {
  transactions: 4 * 1024 * 1024,
  accounts: 12 * 1024 * 1024,
  slots: 1024 * 1024,
  entries: 1024 * 1024,
  epochs: 4 * 1024 * 1024,
  // A SubscribeParsed update: a transaction's decoded instructions and events and its curve/pool writes.
  parsed: 4 * 1024 * 1024,
  deadletter: 12 * 1024 * 1024,
};

/** The largest of the topics' limits plus Kafka's batch and request framing: what clients must allow. */
export const CLIENT_MAX_MESSAGE_BYTES = Math.max(...Object.values(MAX_MESSAGE_BYTES)) + 64 * 1024;

/** Kafka's per-record framing beside key and value (a record-batch header is ~61 bytes, a record's own
 * varints a few more); a record whose key+value+this exceeds the topic limit is refused by the broker. */
export const RECORD_OVERHEAD_BYTES = 128;

const SINGLE_PARTITION: ReadonlySet<TopicKind> = new Set<TopicKind>(['epochs', 'deadletter']);

export function topicSpecs(topics: TopicNames, opts: EnsureTopicsOptions): TopicSpec[] {
  if (!Number.isInteger(opts.partitions) || opts.partitions < 1) {
    throw new Error(`ensureTopics: partitions must be a positive integer, got ${opts.partitions}`);
  }
  if (!Number.isInteger(opts.replicationFactor) || opts.replicationFactor < 1) {
    throw new Error(`ensureTopics: replicationFactor must be a positive integer, got ${opts.replicationFactor}`);
  }
  if (!Number.isFinite(opts.retentionMs) || (opts.retentionMs < 1 && opts.retentionMs !== -1)) {
    throw new Error(`ensureTopics: retentionMs must be positive (or -1 for unlimited), got ${opts.retentionMs}`);
  }
  const kinds = Object.keys(topics) as TopicKind[];
  return kinds.map((kind) => ({
    topic: topics[kind],
    numPartitions: SINGLE_PARTITION.has(kind) ? 1 : opts.partitions,
    replicationFactor: opts.replicationFactor,
    config: {
      'retention.ms': String(opts.retentionMs),
      'max.message.bytes': String(MAX_MESSAGE_BYTES[kind] ?? 4 * 1024 * 1024),
      // Ordering and replay depend on time-based retention, not on log compaction.
      'cleanup.policy': 'delete',
      // With replication, a commit is acknowledged by at least two copies (acks=all).
      ...(opts.replicationFactor >= 3 ? { 'min.insync.replicas': '2' } : {}),
    },
  }));
}

// The Kafka section: the brokers, topic names and the topics the service creates, the producers' codec, and the
// local broker of `slotstream kafka` (or of a process without brokers).
import { join } from 'node:path';
import { choice, ConfigError, defineSection, flagOf, opt, SERVICE_ROLES, type ValuesOf } from '../options.js';
import type { StartLocalKafkaOptions } from '../local-kafka/launcher.js';
import { kafkaCompression, type KafkaCompression } from './compression.js';
import type { EnsureTopicsOptions } from './topics.js';

export interface KafkaSection {
  /** Bootstrap servers; empty: the role wiring starts a local broker (`local`). */
  brokers: readonly string[];
  topicPrefix: string;
  /** The producers' record batch codec (platform/kafka/compression.ts). */
  compression: KafkaCompression;
  /** How missing topics are created (platform/kafka/topics.ts). */
  topics: Omit<EnsureTopicsOptions, 'log'>;
  /** The local broker of `slotstream kafka` and of a process without brokers (platform/local-kafka/launcher.ts). */
  local: Pick<StartLocalKafkaOptions, 'nodes' | 'dataDir' | 'keepData'>;
}

export const KAFKA_OPTIONS = {
  kafkaBrokers: opt({
    kind: 'list',
    env: 'KAFKA_BROKERS',
    default: [],
    roles: SERVICE_ROLES,
    help: 'Kafka bootstrap servers, comma separated. Empty: start a local broker (platform/local-kafka) for this process.',
  }),
  topicPrefix: opt({
    kind: 'string',
    env: 'TOPIC_PREFIX',
    default: 'solana',
    roles: SERVICE_ROLES,
    help: 'Topic name prefix: topics are <prefix>.transactions.v1 and so on.',
  }),
  partitions: opt({
    kind: 'int',
    env: 'KAFKA_PARTITIONS',
    default: 4,
    min: 1,
    max: 1024,
    roles: SERVICE_ROLES,
    help: 'Partitions of each topic when the service creates it.',
  }),
  replicationFactor: opt({
    kind: 'int',
    env: 'KAFKA_REPLICATION_FACTOR',
    default: 1,
    min: 1,
    max: 7,
    roles: SERVICE_ROLES,
    help: 'Replication factor of topics the service creates.',
  }),
  retentionMs: opt({
    kind: 'int',
    env: 'KAFKA_RETENTION_MS',
    default: 7 * 24 * 3600 * 1000,
    min: -1,
    roles: SERVICE_ROLES,
    help: 'Topic retention in ms (-1: keep forever). Retention is the replay depth of from_slot.',
  }),
  kafkaNodes: opt({
    kind: 'int',
    env: 'KAFKA_NODES',
    default: 1,
    min: 1,
    max: 3,
    roles: ['kafka'],
    help: 'Local broker only: 1 node, or a 3-node KRaft cluster.',
  }),
  kafkaCompression: choice({
    env: 'KAFKA_COMPRESSION',
    default: 'zstd',
    oneOf: ['none', 'lz4', 'zstd', 'gzip', 'snappy'],
    roles: SERVICE_ROLES,
    help: "Producers' record batch codec (librdkafka compression.codec); consumers read any. Chosen by bench/compression.ts.",
  }),
  kafkaCompressionLevel: opt({
    kind: 'int',
    env: 'KAFKA_COMPRESSION_LEVEL',
    default: -1,
    min: -1,
    max: 12,
    roles: SERVICE_ROLES,
    help: 'Codec level (librdkafka compression.level): -1 the default (zstd 1, measured; lz4 and gzip their own); lz4 0-12, zstd 1-12, gzip 0-9.',
  }),
  keepKafkaData: opt({
    kind: 'bool',
    env: 'KAFKA_KEEP_DATA',
    default: false,
    roles: ['kafka', 'all'],
    help: 'Local broker only: keep its data folder (under --data-dir) after stop, so history survives restarts.',
  }),
};

type KafkaValues = ValuesOf<typeof KAFKA_OPTIONS>;
export type KafkaCompressionOption = KafkaValues['kafkaCompression'];

/** The local broker runs 1 node or a 3-node KRaft cluster (the config rules reject others before this). */
function localNodes(n: number): 1 | 3 {
  if (n === 1 || n === 3) return n;
  throw new ConfigError(`option ${flagOf('kafkaNodes')}: must be 1 or 3 (got ${n})`);
}

/** The codec and level options checked together (a level the codec lacks or refuses fails naming both). */
export function compressionOf(c: Pick<KafkaValues, 'kafkaCompression' | 'kafkaCompressionLevel'>): KafkaCompression {
  try {
    return kafkaCompression(c.kafkaCompression, c.kafkaCompressionLevel);
  } catch (err) {
    throw new ConfigError(
      `options ${flagOf('kafkaCompression')} ${c.kafkaCompression} ${flagOf('kafkaCompressionLevel')} ${c.kafkaCompressionLevel}: ${(err as Error).message}`,
    );
  }
}

/** `dataDir`: the process's data folder (platform/clickhouse-options.ts), where a kept local broker lives. */
export const KAFKA_SECTION = defineSection(KAFKA_OPTIONS, (c: KafkaValues & { dataDir: string }): KafkaSection => ({
  brokers: c.kafkaBrokers,
  topicPrefix: c.topicPrefix,
  compression: compressionOf(c),
  topics: { partitions: c.partitions, retentionMs: c.retentionMs, replicationFactor: c.replicationFactor },
  local: {
    nodes: localNodes(c.kafkaNodes),
    ...(c.keepKafkaData ? { dataDir: join(c.dataDir, 'kafka'), keepData: true } : { keepData: false }),
  },
}));

// The producers' record batch codec. Kafka stores a batch as the producer compressed it and every consumer
// decompresses whatever codec it finds, so only producers choose; the default is chosen by measurement on
// mainnet-shaped records (bench/compression.ts, figures in bench/README.md).
import type { ProducerGlobalConfig } from '@confluentinc/kafka-javascript';

export const KAFKA_CODECS = ['none', 'lz4', 'zstd', 'gzip', 'snappy'] as const;
export type KafkaCodec = (typeof KAFKA_CODECS)[number];

export interface KafkaCompression {
  codec: KafkaCodec;
  /** -1: the codec's own default level. */
  level: number;
}

/** The levels librdkafka accepts per codec (compression.level: -1..12, then each codec's own range). */
const LEVELS: Readonly<Record<KafkaCodec, readonly [number, number] | undefined>> = {
  none: undefined,
  snappy: undefined,
  lz4: [0, 12],
  zstd: [1, 12],
  gzip: [0, 9],
};

/** Pure: the codec and level checked (an error naming them when librdkafka would refuse or ignore them). */
export function kafkaCompression(codec: string, level = -1): KafkaCompression {
  if (!(KAFKA_CODECS as readonly string[]).includes(codec)) {
    throw new Error(`Kafka compression codec ${JSON.stringify(codec)} is unknown (use one of ${KAFKA_CODECS.join(', ')})`);
  }
  const c = codec as KafkaCodec;
  if (level === -1) return { codec: c, level };
  const range = LEVELS[c];
  if (range === undefined) throw new Error(`Kafka compression codec ${c} has no levels (got level ${level}; use -1)`);
  if (!Number.isInteger(level) || level < range[0] || level > range[1]) {
    throw new Error(`Kafka compression level ${level} is out of range for ${c} (${range[0]}-${range[1]}, or -1 for its default)`);
  }
  return { codec: c, level };
}

/** The level a codec runs at when none is given (-1), where slotstream's measurement picked one over librdkafka's:
 * zstd 1 stores ~17% more than zstd's own default (3) for a fifth less producer CPU (bench/README.md "Compression"). */
export const DEFAULT_LEVELS: Readonly<Partial<Record<KafkaCodec, number>>> = { zstd: 1 };

/** Pure: the librdkafka producer settings of a compression (none when not given: records as they are). */
export function compressionConfig(c: KafkaCompression | undefined): ProducerGlobalConfig {
  if (c === undefined || c.codec === 'none') return { 'compression.codec': 'none' };
  const level = c.level >= 0 ? c.level : DEFAULT_LEVELS[c.codec];
  return { 'compression.codec': c.codec, ...(level !== undefined ? { 'compression.level': level } : {}) };
}

// The Kafka seam: every role, test and bench reaches Kafka through these interfaces, and nothing
// outside platform/kafka/ imports a Kafka library. One implementation each, on librdkafka
// (@confluentinc/kafka-javascript's native API).
import { createAdmin, type KafkaAdmin } from './admin.js';
import type { KafkaOptions } from './client.js';
import { NativeGroupConsumer, type GroupConsumer, type GroupConsumerOptions } from './group-consumer.js';
import { openPartitionReader, type PartitionReader, type PartitionReaderOptions } from './partition-reader.js';
import { openProducer, type Producer } from './producer.js';
import { openTransactionalProducer, type TransactionalProducer, type TransactionalProducerOptions } from './transactional-producer.js';

export type { KafkaAdmin, OffsetRange } from './admin.js';
export { KafkaError, type KafkaLogSink, type KafkaOptions } from './client.js';
export { KAFKA_CODECS, kafkaCompression, type KafkaCodec, type KafkaCompression } from './compression.js';
export type { CommitOffset, GroupConsumer, GroupConsumerOptions, PartitionBatch } from './group-consumer.js';
export { murmur2, partitionForKey } from './murmur2.js';
export { OffsetMap, tpKey } from './offset-map.js';
export type { InRecord, Isolation } from './native-consumer.js';
export { uniqueGroupId, type PartitionReader, type PartitionReaderOptions } from './partition-reader.js';
export type { PlainRecord, Producer } from './producer.js';
export {
  CLIENT_MAX_MESSAGE_BYTES,
  MAX_MESSAGE_BYTES,
  RECORD_OVERHEAD_BYTES,
  topicSpecs,
  type EnsureTopicsOptions,
  type TopicSpec,
} from './topics.js';
export type { OutRecord, TransactionalProducer, TransactionalProducerOptions } from './transactional-producer.js';

/** The clients of one Kafka cluster; made once per process in the role wiring and handed on. */
export interface Kafka {
  readonly options: KafkaOptions;
  /** One admin client, shared (made on first use, closed by close()). */
  admin(): KafkaAdmin;
  transactionalProducer(o: TransactionalProducerOptions): Promise<TransactionalProducer>;
  producer(): Promise<Producer>;
  partitionReader(o: PartitionReaderOptions): Promise<PartitionReader>;
  groupConsumer(o: GroupConsumerOptions): Promise<GroupConsumer>;
  /** Closes the shared admin; the other clients are closed by their owners. */
  close(): Promise<void>;
}

export function createKafka(options: KafkaOptions): Kafka {
  if (options.brokers.length === 0) throw new Error(`Kafka client ${options.clientId}: the broker list is empty`);
  let admin: KafkaAdmin | undefined;
  const kafka: Kafka = {
    options,
    admin: () => (admin ??= createAdmin(options)),
    transactionalProducer: (o) => openTransactionalProducer(options, o),
    producer: () => openProducer(options, (topic) => kafka.admin().partitionCount(topic)),
    partitionReader: (o) => openPartitionReader(options, kafka.admin(), o),
    groupConsumer: (o) => NativeGroupConsumer.open(options, o),
    async close() {
      const a = admin;
      admin = undefined;
      await a?.close();
    },
  };
  return kafka;
}

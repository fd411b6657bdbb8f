// The shared infrastructure of a process, built once in the role wiring and handed to each role:
// one Kafka client set (with the topics created) per process.
import type { Config } from '../platform/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import type { Logger } from '../platform/log.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';

export interface KafkaInfra {
  kafka: Kafka;
  topics: TopicNames;
}

/** Connects to the configured brokers and creates the topics that are missing. */
export async function connectKafka(config: Config, log: Logger, clientId = `slotstream-${config.role}`): Promise<KafkaInfra> {
  if (config.kafkaBrokers.length === 0) throw new Error(`${config.role}: no Kafka brokers (--kafka-brokers or KAFKA_BROKERS)`);
  const kafka = createKafka({ brokers: config.kafkaBrokers, clientId, log });
  const topics = topicNames(config.topicPrefix);
  try {
    await kafka.admin().ensureTopics(topics, {
      partitions: config.partitions,
      retentionMs: config.retentionMs,
      replicationFactor: config.replicationFactor,
      log: (msg, extra) => log.warn(extra ?? {}, msg),
    });
  } catch (err) {
    await kafka.close();
    throw err;
  }
  return { kafka, topics };
}

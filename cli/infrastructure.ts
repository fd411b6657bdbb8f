// The shared infrastructure of a process, built once in the role wiring and handed to each role:
// one Kafka client set (with the topics created) per process.
import type { Config } from './config.js';
import type { KafkaSection } from '../platform/kafka/options.js';
import { kafkaSection } from './config-sections.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import type { Logger } from '../platform/log.js';
import { cursorsTopic, topicNames, type TopicNames } from '../schemas/topics.js';

export interface KafkaInfra {
  kafka: Kafka;
  topics: TopicNames;
}

/** Connects to the configured brokers and creates the topics that are missing. */
export async function connectKafka(config: Config, log: Logger, clientId = `slotstream-${config.role}`): Promise<KafkaInfra> {
  return connectKafkaSection(kafkaSection(config), log, clientId, config.role);
}

/** connectKafka on the config's Kafka section (`who` names the role in the error). */
export async function connectKafkaSection(section: KafkaSection, log: Logger, clientId: string, who: string): Promise<KafkaInfra> {
  if (section.brokers.length === 0) throw new Error(`${who}: no Kafka brokers (--kafka-brokers or KAFKA_BROKERS)`);
  const kafka = createKafka({ brokers: section.brokers, clientId, compression: section.compression, log });
  const topics = topicNames(section.topicPrefix);
  try {
    await kafka.admin().ensureTopics(topics, { ...section.topics, log: (msg, extra) => log.warn(extra ?? {}, msg) });
    // The api's durable stream cursors (api/live/cursor-store.ts): compacted, with the chain topics' replication.
    await kafka.admin().ensureCompactedTopic(cursorsTopic(topics), section.topics.replicationFactor);
  } catch (err) {
    await kafka.close();
    throw err;
  }
  return { kafka, topics };
}

// Kafka for a role: the configured brokers, or a local broker started for this process when there are
// none, then one Kafka client set with the topics created.
import { startLocalKafka } from '../platform/local-kafka/launcher.js';
import type { Role } from './config.js';
import type { KafkaSection } from '../platform/kafka/options.js';
import type { Logger } from '../platform/log.js';
import { connectKafkaSection, type KafkaInfra } from './infrastructure.js';
import type { StopList } from './stop-list.js';

export interface WiredKafka extends KafkaInfra {
  /** The brokers in use (a local broker's addresses when none were configured). */
  brokers: readonly string[];
}

export async function wireKafka(section: KafkaSection, role: Role, stops: StopList, log: Logger): Promise<WiredKafka> {
  let brokers = section.brokers;
  if (brokers.length === 0) {
    // A process without brokers runs its own single node, whatever --kafka-nodes says (that is the kafka role's).
    const kafka = await startLocalKafka({ ...section.local, nodes: 1 });
    stops.add('local kafka', () => kafka.stop());
    brokers = kafka.brokers;
    log.info({ brokers: brokers.join(',') }, 'KAFKA_BROKERS is unset: started a local Kafka broker');
  }
  // One set of Kafka clients for the process, topics created once; each role gets it.
  const infra = await connectKafkaSection({ ...section, brokers }, log, `slotstream-${role}`, role);
  stops.add('kafka clients', () => infra.kafka.close());
  return { ...infra, brokers };
}

/** The kafka role: the local broker alone, as configured (1 or 3 nodes). */
export async function wireLocalKafka(section: KafkaSection, stops: StopList, log: Logger): Promise<void> {
  const kafka = await startLocalKafka(section.local);
  stops.add('local kafka', () => kafka.stop());
  log.info({ brokers: kafka.brokers.join(',') }, `local Kafka is up: use KAFKA_BROKERS=${kafka.brokers.join(',')}`);
}

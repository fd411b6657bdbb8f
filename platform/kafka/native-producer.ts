// Connecting a librdkafka producer, shared by the transactional and the plain producer.
import KafkaJs from '@confluentinc/kafka-javascript';
import type { Producer as RdProducer, ProducerGlobalConfig } from '@confluentinc/kafka-javascript';
import { compressionConfig } from './compression.js';
import { baseConfig, bridgeLogs, call, type KafkaOptions } from './client.js';

const { Producer } = KafkaJs;

/** Producer settings for both kinds: acks from every in-sync replica, idempotence, and batching that
 * keeps latency in milliseconds (linger) while a burst still goes out in large requests. */
export function producerConfig(o: KafkaOptions, extra: ProducerGlobalConfig = {}): ProducerGlobalConfig {
  return {
    ...baseConfig(o),
    'enable.idempotence': true,
    acks: -1,
    'linger.ms': 2,
    'batch.size': 4 * 1024 * 1024,
    'batch.num.messages': 100_000,
    'queue.buffering.max.messages': 2_000_000,
    'queue.buffering.max.kbytes': 2 * 1024 * 1024,
    ...compressionConfig(o.compression),
    ...extra,
  } as ProducerGlobalConfig;
}

export async function connectProducer(o: KafkaOptions, conf: ProducerGlobalConfig): Promise<RdProducer> {
  const producer = new Producer(conf);
  bridgeLogs(producer, o);
  await call('connect producer', (cb) => producer.connect({ timeout: 30_000 }, (err) => cb(err)));
  // Delivery reports and error events are served by polling.
  producer.setPollInterval(20);
  return producer;
}

export function disconnectProducer(p: RdProducer): Promise<void> {
  return new Promise((resolve) => {
    try {
      p.setPollInterval(0);
      p.disconnect(5_000, () => resolve());
    } catch {
      resolve();
    }
  });
}

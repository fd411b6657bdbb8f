// The benches' Kafka: BENCH_KAFKA_BROKERS (comma-separated) when set, else a local single-node broker started
// for the run (the caller stops it: `local?.stop()`).
import { startLocalKafka, type LocalKafka } from '../../platform/local-kafka/launcher.js';

export async function benchBrokers(say: (msg: string) => void): Promise<{ brokers: string[]; local?: LocalKafka }> {
  const brokers = (process.env.BENCH_KAFKA_BROKERS ?? '').split(',').filter(Boolean);
  if (brokers.length > 0) return { brokers };
  say('starting a local Kafka broker');
  const local = await startLocalKafka({ nodes: 1 });
  return { brokers: local.brokers, local };
}

// vitest globalSetup of the `int` project: ONE real Kafka broker for the whole run, shared by every
// integration test file through `inject('kafkaBrokers')` (see ./kafka.ts). Tests isolate themselves
// with unique topic prefixes, so sharing is safe and saves a JVM start per file.
// Set SLOTSTREAM_TEST_KAFKA_BROKERS=host:port,... to use an existing cluster instead.
import type { TestProject } from 'vitest/node';
import { startLocalKafka, type LocalKafka } from '../../../platform/local-kafka/launcher.js';
import './provided-context.js';

export const BROKERS_ENV = 'SLOTSTREAM_TEST_KAFKA_BROKERS';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Every broker of the run light (platform/local-kafka/launcher.ts): this one, and those the test files and their
  // child processes start (they inherit the environment). The soak bench outside the tests keeps the service's.
  process.env.SLOTSTREAM_KAFKA_LIGHT = '1';
  const external = process.env[BROKERS_ENV];
  if (external) {
    project.provide(
      'kafkaBrokers',
      external
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
    );
    return async () => {};
  }
  const started = Date.now();
  const kafka: LocalKafka = await startLocalKafka({ nodes: 1 });
  // Also through the environment, for child processes the tests spawn (forks inherit it).
  process.env[BROKERS_ENV] = kafka.brokers.join(',');
  project.provide('kafkaBrokers', kafka.brokers);
  process.stderr.write(`[harness] kafka ${kafka.brokers.join(',')} up in ${Date.now() - started} ms\n`);
  return async () => {
    await kafka.stop();
  };
}

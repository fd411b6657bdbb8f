// The arguments that put a `slotstream all` started by a test on the run's broker under a topic prefix of its own,
// instead of a local broker of its own (a JVM start, ~4 s of CPU): for tests whose subject is not the quick start's
// local broker (test/e2e/all.e2e.test.ts, restart.e2e.test.ts and startup-signal.e2e.test.ts keep theirs).
import { testBrokers, uniquePrefix } from '../harness/kafka.js';

export function onRunBroker(name: string): string[] {
  return ['--kafka-brokers', testBrokers().join(','), '--topic-prefix', uniquePrefix(name)];
}

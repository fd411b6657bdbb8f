// vitest globalSetup of the `int` project: ONE real Kafka broker for the whole run, shared by every
// integration test file through `inject('kafkaBrokers')` (see ./kafka.ts). Tests isolate themselves
// with unique topic prefixes, so sharing is safe and saves a JVM start per file.
// Set SLOTSTREAM_TEST_KAFKA_BROKERS=host:port,... to use an existing cluster instead.
import { appendFileSync, readFileSync } from 'node:fs';
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
    logOutsideCpu(project.name, kafka.pids);
    await kafka.stop();
  };
}

/** With SLOTSTREAM_TEST_CPU_LOG (test/support/harness/cpu-log.ts), the CPU spent outside the test files' own lines: vitest's
 * main process (it transforms every file's modules and gathers the results), the processes it has reaped (the test
 * files' workers whole, module loading and their own children included; not the last ones, still running when
 * vitest calls this) and the broker's JVMs. */
function logOutsideCpu(projectName: string, brokerPids: number[]): void {
  const log = process.env.SLOTSTREAM_TEST_CPU_LOG;
  if (log === undefined) return;
  const main = process.cpuUsage();
  const mainMs = Math.round((main.user + main.system) / 1000);
  const reaped = processCpuMs('self', 13);
  const broker = brokerPids.reduce((sum, pid) => sum + processCpuMs(pid, 11), 0);
  const at = new Date().toISOString();
  appendFileSync(log, `# ${projectName} teardown ${at}\tvitest main ${mainMs} ms\treaped children ${reaped} ms\tbroker ${broker} ms\n`);
}

/** Two adjacent CPU fields of /proc/<pid>/stat added up, in ms (Linux; 0 where there is none): from 11, the process's
 * own user and system time; from 13, those of the children it has waited for. */
function processCpuMs(pid: number | 'self', first: 11 | 13): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, hence the last ')'), from the state on: utime is the 12th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[first]) + Number(fields[first + 1]);
    // Linux's USER_HZ is 100 on every architecture Node runs on.
    return Number.isFinite(ticks) ? ticks * 10 : 0;
  } catch {
    return 0;
  }
}

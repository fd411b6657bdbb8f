import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { WaitersFirst } from './test/support/harness/sequencer.js';

// Tiers by file suffix (ARCHITECTURE.md): unit tests are pure and fast; integration and end-to-end
// tests start a real Kafka broker and embedded ClickHouse, so they get long timeouts and run one
// file per process (chdb binds one data folder per process). Real-data tests (*.realdata.test.ts) read
// the mainnet recordings kept beside the repository (../shared/data/mainnet, or SLOTSTREAM_MAINNET_DATA),
// never copied into it; they run whenever that folder is there (as in CI), and SLOTSTREAM_REALDATA=1
// makes a missing folder an error instead of leaving the project out.
// Every project of the first group runs with the same number of workers (vitest runs a group in one pool): four
// on two cores, because an integration file spends much of its time waiting on the broker and the embedded
// ClickHouse, so more files fill the cores the others leave (the integration files alone used 1.75 cores with three;
// the first group took 835 s of CI time with two workers, 444-472 s locally with three, 377 s with four).
const WORKERS = 4;
// The first group's workers get a young generation of 64 MB semi-spaces (Node's default is 16): the tests allocate
// fast (simulated chains, decoded records, JSON answers) and scavenge less often with it: npm run test:unit 105 -> 95
// CPU s. Not for the paired files (whole services and killed processes, run with Node's defaults).
const GROUP1_EXEC_ARGV = ['--max-semi-space-size=64'];
// SLOTSTREAM_TEST_CPU_LOG=<file>: every file's CPU and wall time appended to it (test/support/harness/cpu-log.ts).
const CPU_LOG = process.env.SLOTSTREAM_TEST_CPU_LOG ? { setupFiles: ['test/support/harness/cpu-log.ts'] } : {};

const mainnetData = process.env.SLOTSTREAM_MAINNET_DATA ?? resolve(dirname(fileURLToPath(import.meta.url)), '../shared/data/mainnet');
const realdata =
  process.env.SLOTSTREAM_REALDATA || existsSync(mainnetData)
    ? [
        {
          test: {
            name: 'realdata',
            include: ['**/*.realdata.test.ts'],
            exclude: ['node_modules/**'],
            testTimeout: 600_000,
            hookTimeout: 600_000,
            maxWorkers: WORKERS,
            execArgv: GROUP1_EXEC_ARGV,
            ...CPU_LOG,
          },
        },
      ]
    : [];

const INT = ['**/*.int.test.ts', '**/*.e2e.test.ts'];
// One group for every file, four at a time. Whole services and killed processes (the relay, the standby ingest,
// `slotstream all`, the restart e2e, the soak) ran after it two at a time until 2026-12-04, so that another file's load
// could not fail them; since issue 32 every one of them passes beside a running `npm start` (load 15-25), heavier than
// three other files, and the pairs ran the suite's last 131 s at 1.6 cores of two (docs/testing.md). Their kills
// freeze the process at a cut slot (test/support/ingest/freeze-at-cut.ts) instead of landing at a random moment. No
// test bounds a latency or a pace on the clock: every wait is a deadline on a condition; the latency and pace bounds
// are benches (npm run bench:stream-latency and bench:query-storm, bench/README.md).
const intOptions = {
  // One real Kafka broker for the whole run (test/support/harness/global-setup.ts).
  globalSetup: ['test/support/harness/global-setup.ts'],
  pool: 'forks' as const,
  // Deadlines against a hang, not expected durations: beside a running `slotstream all` on 2 cores (load 10-30) a
  // relay or restart test took 3-5 minutes (issue 32).
  testTimeout: 600_000,
  hookTimeout: 600_000,
};

export default defineConfig({
  test: {
    // Files that mostly wait on the clock start first in their project (test/support/harness/sequencer.ts).
    sequence: { sequencer: WaitersFirst },
    projects: [
      ...realdata,
      {
        test: {
          name: 'unit',
          include: ['**/*.unit.test.ts'],
          exclude: ['node_modules/**'],
          maxWorkers: WORKERS,
          // Pure tests share a worker's module cache: importing every file's graph again (isolation) was half of
          // the tier's CPU (npm run test:unit 84 s isolated, 62 s not, on a quiet machine).
          isolate: false,
          // A deadline against a hang, not a bound, and the only one (no unit test sets its own): a unit test that builds
          // a simulated chain takes seconds on a quiet machine and took 140 s beside other test files, a running
          // service and other sessions' suites (load 30-36; 60 s and the files' own 30-120 s deadlines failed).
          testTimeout: 600_000,
          hookTimeout: 600_000,
          execArgv: GROUP1_EXEC_ARGV,
          ...CPU_LOG,
        },
      },
      {
        test: {
          name: 'int',
          include: INT,
          exclude: ['node_modules/**'],
          ...intOptions,
          // Several files at a time: most of an integration test's time is waiting (for the broker, a group join, a
          // slot); each file has its own process, topic prefix and ClickHouse folder, and the broker is the one of
          // the whole run.
          maxWorkers: WORKERS,
          fileParallelism: true,
          execArgv: GROUP1_EXEC_ARGV,
          ...CPU_LOG,
        },
      },
    ],
  },
});

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
// Six (2026-12-05): 577 s quiet against ~600, but beside a running `npm start` the load went to 40-76 and a broker
// launcher test missed its 300 s deadline: kept at four.
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
            // The run's broker too (one for every project: vitest runs a global setup file once), for the files that
            // start a service on it (onRunBroker, test/support/cli/run-broker.ts).
            globalSetup: ['test/support/harness/global-setup.ts'],
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
// After the first group (four files at a time), the files another file's load could fail: PAIRED, whole services
// and killed processes (a standby whose 2.5 s heartbeat a busy machine can miss, the soak's cut-offs and errors at
// 0.05x, two `slotstream all` runs one after the other), two at a time. The ingest restart left them once its kill
// froze the ingest at a cut slot (test/support/ingest/freeze-at-cut.ts): a random kill under three workers' load
// landed between slots every time. The heavy files that time nothing (docs/clients.md's trades example, cursor-restart's two api processes,
// ingest-kafka-away's broker of its own) share the first group's workers. No test bounds a latency or a pace on the
// clock: every wait is a deadline on a condition (issue 32: the restart e2e's 15 s and the quick start's minute
// failed beside a running `slotstream all`). The latency and pace bounds that once ran alone and last (slow clients,
// the query storm, a paced replay within 10%, streams open within 200 ms) are benches: npm run bench:stream-latency
// and bench:query-storm (bench/README.md); their files now assert behaviour in the first group.
const PAIRED = [
  '**/all.e2e.test.ts',
  '**/soak.e2e.test.ts',
  '**/relay.int.test.ts',
  '**/ingest-standby.int.test.ts',
  '**/restart.e2e.test.ts',
];
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
          exclude: ['node_modules/**', ...PAIRED],
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
      {
        test: {
          name: 'int-paired',
          include: PAIRED,
          exclude: ['node_modules/**'],
          ...intOptions,
          maxWorkers: 2,
          fileParallelism: true,
          sequence: { groupOrder: 1 },
          ...CPU_LOG,
        },
      },
    ],
  },
});

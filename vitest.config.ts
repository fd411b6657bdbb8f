import { defineConfig } from 'vitest/config';

// Tiers by file suffix (ARCHITECTURE.md): unit tests are pure and fast; integration and end-to-end
// tests start a real Kafka broker and embedded ClickHouse, so they get long timeouts and run one
// file per process (chdb binds one data folder per process). Real-data tests (*.realdata.test.ts) read
// recordings outside the repository (../shared/data/mainnet), so `vitest run` alone stays
// self-contained: their project exists only when SLOTSTREAM_REALDATA is set, e.g.
// `SLOTSTREAM_REALDATA=1 npx vitest run --project realdata` (SLOTSTREAM_MAINNET_DATA moves the folder).
const realdata = process.env.SLOTSTREAM_REALDATA
  ? [{ test: { name: 'realdata', include: ['**/*.realdata.test.ts'], exclude: ['node_modules/**'], testTimeout: 120_000 } }]
  : [];

export default defineConfig({
  test: {
    projects: [
      ...realdata,
      {
        test: { name: 'unit', include: ['**/*.unit.test.ts'], exclude: ['node_modules/**'] },
      },
      {
        test: {
          name: 'int',
          include: ['**/*.int.test.ts', '**/*.e2e.test.ts'],
          exclude: ['node_modules/**'],
          // One real Kafka broker for the whole run (test/harness/global-setup.ts).
          globalSetup: ['test/harness/global-setup.ts'],
          pool: 'forks',
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tiers by file suffix (ARCHITECTURE.md): unit tests are pure and fast; integration and end-to-end
// tests start a real Kafka broker and embedded ClickHouse, so they get long timeouts and run one
// file per process (chdb binds one data folder per process). Real-data tests (*.realdata.test.ts) read
// the mainnet recordings kept beside the repository (../shared/data/mainnet, or SLOTSTREAM_MAINNET_DATA),
// never copied into it; they run whenever that folder is there (as in CI), and SLOTSTREAM_REALDATA=1
// makes a missing folder an error instead of leaving the project out.
const mainnetData = process.env.SLOTSTREAM_MAINNET_DATA ?? resolve(dirname(fileURLToPath(import.meta.url)), '../shared/data/mainnet');
const realdata =
  process.env.SLOTSTREAM_REALDATA || existsSync(mainnetData)
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
          // One real Kafka broker for the whole run (test/support/harness/global-setup.ts).
          globalSetup: ['test/support/harness/global-setup.ts'],
          pool: 'forks',
          testTimeout: 180_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

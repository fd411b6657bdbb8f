import { defineConfig } from 'vitest/config';

// Tiers by file suffix (ARCHITECTURE.md): unit tests are pure and fast; integration and end-to-end
// tests start a real Kafka broker and embedded ClickHouse, so they get long timeouts and run one
// file per process (chdb binds one data folder per process).
export default defineConfig({
  test: {
    projects: [
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

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:fault`: fault tests on a 3-broker cluster that each test starts itself (no shared broker),
// one file per process (chdb binds one data folder per process); kept out of `npm test` for their length.
export default defineConfig({
  root: resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'),
  test: {
    name: 'fault',
    include: ['test/fault/**/*.fault.test.ts'],
    exclude: ['node_modules/**'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 300_000,
  },
});

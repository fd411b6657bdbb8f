// With SLOTSTREAM_TEST_CPU_LOG=<file> (vitest.config.ts adds this setup file then), each test file's process appends
// one line when the file ends: its path, the CPU its own process used (user + system ms, the embedded ClickHouse
// included; not the child processes or the shared broker) and its wall time. Which files cost the suite its time on a
// 2-core machine is a question of CPU, not of the wall time a loaded run shows (docs/testing.md).
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const LOG = process.env.SLOTSTREAM_TEST_CPU_LOG;
let cpu0: NodeJS.CpuUsage;
let t0 = 0;

beforeAll(() => {
  cpu0 = process.cpuUsage();
  t0 = performance.now();
});

afterAll(() => {
  if (LOG === undefined) return;
  const cpu = process.cpuUsage(cpu0);
  const file = expect.getState().testPath ?? 'unknown';
  const ms = (us: number) => Math.round(us / 1000);
  appendFileSync(LOG, `${file}\t${ms(cpu.user + cpu.system)}\t${Math.round(performance.now() - t0)}\n`);
});

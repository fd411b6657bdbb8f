// With SLOTSTREAM_TEST_CPU_LOG=<file> (vitest.config.ts adds this setup file then), each test file's process appends
// one line when the file ends: its path, the CPU its own process used from its first hook on (user + system ms, the
// embedded ClickHouse included; not the child processes or the shared broker), its wall time, the time it started (UTC,
// so a file's cost can be set beside what else ran then) and its process's CPU since the process started (module
// loading included; in the unit tier, whose files share a worker, it adds up over the worker's files) and the CPU of the
// child processes it started and reaped while it ran (services, ingest children, brokers). Which files cost
// the suite its time on a 2-core machine is a question of CPU, not of the wall time a loaded run shows
// (docs/testing.md). What runs outside the files' processes (vitest's main process, the shared broker) is one line of
// global-setup.ts's teardown.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

const LOG = process.env.SLOTSTREAM_TEST_CPU_LOG;
let cpu0: NodeJS.CpuUsage;
let t0 = 0;
let started = '';
let children0 = 0;

beforeAll(() => {
  cpu0 = process.cpuUsage();
  children0 = childrenCpuMs();
  t0 = performance.now();
  started = new Date().toISOString();
});

// With SLOTSTREAM_TEST_CPU_TESTS=1 too: one more line per test, its own CPU (the file's hooks are the rest).
const PER_TEST = LOG !== undefined && process.env.SLOTSTREAM_TEST_CPU_TESTS !== undefined;
let testCpu0: NodeJS.CpuUsage | undefined;
beforeEach(() => {
  if (PER_TEST) testCpu0 = process.cpuUsage();
});
afterEach((ctx) => {
  if (!PER_TEST || testCpu0 === undefined) return;
  const cpu = process.cpuUsage(testCpu0);
  appendFileSync(LOG!, `  ${expect.getState().testPath ?? 'unknown'} > ${ctx.task.name}\t${Math.round((cpu.user + cpu.system) / 1000)}\n`);
});

afterAll(() => {
  if (LOG === undefined) return;
  const cpu = process.cpuUsage(cpu0);
  const whole = process.cpuUsage();
  const file = expect.getState().testPath ?? 'unknown';
  const ms = (us: number) => Math.round(us / 1000);
  const wall = Math.round(performance.now() - t0);
  const threads = process.env.SLOTSTREAM_TEST_CPU_THREADS ? `\t${threadCpu()}` : '';
  const children = childrenCpuMs() - children0;
  appendFileSync(
    LOG,
    `${file}\t${ms(cpu.user + cpu.system)}\t${wall}\t${started}\t${ms(whole.user + whole.system)}\t${children}${threads}\n`,
  );
});

/** The CPU of the child processes this process has reaped (the services, ingest children and brokers a file starts;
 * their own children too once they reaped them), from /proc/self/stat's cutime and cstime (Linux; 0 elsewhere). */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/** With SLOTSTREAM_TEST_CPU_THREADS=1 too: the process's CPU so far by thread name, the largest first (`node` is the
 * JavaScript thread; the embedded ClickHouse's threads have their own names), from /proc (Linux; threads that ended
 * are not counted). Where a file's CPU goes, before deciding what to make smaller. */
function threadCpu(): string {
  const byName = new Map<string, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[0-9]+$/, '');
      // Native threads that do not name themselves are `node` too: the JavaScript thread is the one with the pid.
      const name = Number(tid) === process.pid ? 'js-main' : comm;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    }
  } catch {
    return '';
  }
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .map(([n, v]) => `${n}=${v}`)
    .join(' ');
}

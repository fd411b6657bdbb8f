// CPU and memory of a process and its descendants from /proc (Linux), so the soak can tell each process's
// share (the service, its Kafka broker, the upstream, each client process) without instrumenting them.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export interface ProcUsage {
  /** CPU seconds (user + system) so far. */
  cpuSeconds: number;
  /** Resident set size, MB. */
  rssMb: number;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process has exited
  }
}

/** The process alone (threads included); undefined when it is gone. */
export function procUsage(pid: number): ProcUsage | undefined {
  const stat = read(`/proc/${pid}/stat`);
  const status = read(`/proc/${pid}/status`);
  if (!stat || !status) return undefined;
  // Fields after the command name (which may hold spaces) start at field 3; utime and stime are fields 14, 15.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
  const rss = /VmRSS:\s+(\d+) kB/.exec(status);
  return { cpuSeconds, rssMb: rss ? Number(rss[1]) / 1024 : 0 };
}

/** The direct children of `pid` (every thread's list). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    const list = read(`/proc/${pid}/task/${t}/children`);
    if (list) for (const p of list.trim().split(/\s+/)) if (p) out.push(Number(p));
  }
  return out;
}

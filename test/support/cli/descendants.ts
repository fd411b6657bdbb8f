// A process's descendants and whether a pid still runs: what the whole-service tests check after a stop (no broker,
// stream process or ingest child left behind).
import { execFileSync } from 'node:child_process';

/** Every descendant pid of a process (`ps`: its children, then theirs). */
export function descendants(pid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const kids = new Map<number, number[]>();
  for (const line of out.trim().split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number);
    if (!kids.has(pp!)) kids.set(pp!, []);
    kids.get(pp!)!.push(p!);
  }
  const all: number[] = [];
  const walk = (p: number): void =>
    (kids.get(p) ?? []).forEach((k) => {
      all.push(k);
      walk(k);
    });
  walk(pid);
  return all;
}

/** The pid still names a process (a zombie counts until its parent reaps it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

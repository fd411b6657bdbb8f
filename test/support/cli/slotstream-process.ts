// `slotstream <role> ...` as a child process against the test's Kafka broker (KAFKA_BROKERS), for tests that need a
// role the other helpers do not start: `all` with stream processes beside the engine, `api --serve streams`. Ports are
// the kernel's (ANY_PORTS); the JSON log says where it serves.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../harness/kafka.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface SlotstreamProcess {
  child: ChildProcess;
  output(): string;
  /** The JSON log lines so far, parsed. */
  lines(): Record<string, unknown>[];
  /** The first log line with this message (waits for it). */
  line(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** SIGINT, then SIGKILL after `ms`; resolves with the exit code. */
  stop(ms?: number): Promise<number | null>;
}

export async function startSlotstream(args: readonly string[], env: NodeJS.ProcessEnv): Promise<SlotstreamProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args, '--log-level', 'info', '--log-format', 'json'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = (): Record<string, unknown>[] =>
    output.split('\n').flatMap((l) => {
      if (!l.startsWith('{')) return [];
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  return {
    child,
    output: () => output,
    lines,
    async line(msg, timeoutMs = 180_000) {
      let found: Record<string, unknown> | undefined;
      await waitFor(
        () => {
          found = lines().find((l) => l.msg === msg);
          return found !== undefined || child.exitCode !== null;
        },
        { what: `slotstream ${args[0]} to log "${msg}"`, timeoutMs },
      );
      if (found === undefined) throw new Error(`slotstream ${args[0]} exited (${child.exitCode}) before logging "${msg}":\n${output}`);
      return found;
    },
    async stop(ms = 60_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The port at the end of a logged address (`127.0.0.1:10000`, `ws://127.0.0.1:8900/`). */
export function portOf(address: unknown): number {
  const m = typeof address === 'string' ? /:(\d+)\/?$/.exec(address) : null;
  if (!m) throw new Error(`no port in ${JSON.stringify(address)}`);
  return Number(m[1]);
}

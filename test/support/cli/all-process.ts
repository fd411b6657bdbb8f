// `slotstream all` as a child process (what `npm start` runs) on loopback ports the kernel chooses, with a local Kafka
// broker, embedded ClickHouse in `dataDir` and the simulator; for end-to-end tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ANY_PORTS, untilServing, type ServedPorts } from './served-ports.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RpcAnswer {
  result?: unknown;
  error?: { code: number; message: string };
}

export interface AllProcess {
  child: ChildProcess;
  /** The loopback ports it serves on (chosen by the kernel, read from its log). */
  ports: ServedPorts;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  rpc(method: string, params?: unknown[]): Promise<RpcAnswer>;
  /** SIGINT, then waits for the exit (SIGKILL after `ms`); resolves with the exit code. */
  stop(ms?: number): Promise<number | null>;
}

/** Starts `slotstream all` with `args` added (and `nodeArgs` for node itself: profiling) and resolves once its api serves. */
export async function startAll(dataDir: string, args: readonly string[] = [], nodeArgs: readonly string[] = []): Promise<AllProcess> {
  const env = { ...process.env };
  delete env.KAFKA_BROKERS;
  delete env.CLICKHOUSE_URL;
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'cli/main.ts', 'all', ...ANY_PORTS, '--data-dir', dataDir, '--log-level', 'info', ...args],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ports = await untilServing(child, () => output, 'all');
  return {
    child,
    ports,
    output: () => output,
    async rpc(method, params = []) {
      const res = await fetch(`http://127.0.0.1:${ports.rpc}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return (await res.json()) as RpcAnswer;
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

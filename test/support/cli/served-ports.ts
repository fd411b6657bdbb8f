// The ports a `slotstream` process serves on, read from its JSON log. Tests start it with every port 0 (any free
// port, chosen by the kernel at bind time): a port picked free by the test and handed over can be taken by any
// other process's outgoing connection or broker before the child binds it (CI saw EADDRINUSE that way).
import type { ChildProcess } from 'node:child_process';
import { waitFor } from '../harness/kafka.js';

export interface ServedPorts {
  grpc: number;
  rpc: number;
  pubsub: number;
  metrics: number;
}

/** The `--*-port 0` arguments that let the kernel choose. */
export const ANY_PORTS: readonly string[] = ['--grpc-port', '0', '--rpc-port', '0', '--pubsub-port', '0', '--metrics-port', '0'];

function portOf(address: unknown): number {
  const m = typeof address === 'string' ? /:(\d+)\/?$/.exec(address) : null;
  if (!m) throw new Error(`served ports: no port in ${JSON.stringify(address)}`);
  return Number(m[1]);
}

/** What the log names so far (`log-format` json, the default when stderr is not a terminal). */
export function loggedPorts(output: string): Partial<ServedPorts> {
  const found: Partial<ServedPorts> = {};
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (rec.msg === 'metrics and health on /metrics and /health') found.metrics = Number(rec.port);
    if (rec.msg === 'api is serving')
      Object.assign(found, { grpc: portOf(rec.grpc), rpc: portOf(rec.jsonrpc), pubsub: portOf(rec.pubsub) });
  }
  return found;
}

/** Every port of a serving api; throws naming the line missing. */
export function servedPorts(output: string): ServedPorts {
  const p = loggedPorts(output);
  if (p.metrics === undefined) throw new Error('served ports: the log has no "metrics and health" line');
  if (p.grpc === undefined || p.rpc === undefined || p.pubsub === undefined)
    throw new Error('served ports: the log has no "api is serving" line');
  return { grpc: p.grpc, rpc: p.rpc, pubsub: p.pubsub, metrics: p.metrics };
}

/** Waits until `child` (`slotstream <name>`) logs that its api serves, then its ports; SIGKILLs it if it never
 * does within 300 s (a deadline: a busy machine starts slowly), and throws with its output if it exited first. */
export async function untilServing(child: ChildProcess, output: () => string, name: string): Promise<ServedPorts> {
  try {
    await waitFor(() => loggedPorts(output()).grpc !== undefined || child.exitCode !== null, {
      timeoutMs: 300_000,
      what: `slotstream ${name} to serve`,
    });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  if (child.exitCode !== null) throw new Error(`slotstream ${name} exited early:\n${output()}`);
  return servedPorts(output());
}

// `slotstream ingest` as a process of its own beside `slotstream all --source none` (the soak's split mode): it
// publishes to the broker `all` started, found in `all`'s log line naming it.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loggedPorts } from '../../test/support/cli/served-ports.js';
import { waitFor } from '../../test/support/harness/kafka.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface IngestProcess {
  child: ChildProcess;
  metricsPort: number;
  output(): string;
  /** SIGINT, then SIGKILL after `ms`. */
  stop(ms?: number): Promise<void>;
}

/** The brokers of the local Kafka `all` started, from its JSON log. */
export function localBrokers(allOutput: string): string {
  const m = /"brokers":"([^"]+)"[^\n]*started a local Kafka broker/.exec(allOutput);
  if (!m) throw new Error('soak: slotstream all did not log the local broker it started (KAFKA_BROKERS set in the environment?)');
  return m[1]!;
}

export async function startIngestProcess(allOutput: string, sourceArgs: readonly string[]): Promise<IngestProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'cli/main.ts',
      'ingest',
      '--kafka-brokers',
      localBrokers(allOutput),
      '--metrics-port',
      '0',
      '--log-level',
      'info',
      '--log-format',
      'json',
      ...sourceArgs,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(() => child.exitCode !== null || loggedPorts(output).metrics !== undefined, {
    timeoutMs: 60_000,
    what: 'slotstream ingest to serve its metrics',
  });
  if (child.exitCode !== null) throw new Error(`slotstream ingest exited early:\n${output}`);
  const metricsPort = loggedPorts(output).metrics!;
  return {
    child,
    metricsPort,
    output: () => output,
    async stop(ms = 30_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      await exited;
      clearTimeout(timer);
    },
  };
}

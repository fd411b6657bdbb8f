// `slotstream ingest` (the CLI, as a deployment runs it) as a child process against the test's Kafka broker, its
// metrics server on a port the kernel chooses (read from its JSON log).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../harness/kafka.js';
import { loggedPorts } from './served-ports.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface IngestCliProcess {
  child: ChildProcess;
  metricsPort: number;
  output(): string;
  /** SIGINT, then SIGKILL after `ms`; resolves once it exited. */
  stop(ms?: number): Promise<void>;
}

/** Starts `slotstream ingest --kafka-brokers <brokers> --metrics-port 0 <args>` and resolves once its metrics serve. */
export async function startIngestCli(brokers: readonly string[], args: readonly string[]): Promise<IngestCliProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.KAFKA_BROKERS;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'cli/main.ts',
      'ingest',
      '--kafka-brokers',
      brokers.join(','),
      '--metrics-port',
      '0',
      '--log-level',
      'info',
      ...args,
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const onExit = (): void => void child.kill('SIGKILL');
  process.once('exit', onExit);
  void exited.then(() => process.off('exit', onExit));
  try {
    await waitFor(() => loggedPorts(output).metrics !== undefined || child.exitCode !== null, {
      what: 'slotstream ingest to serve its metrics',
      timeoutMs: 300_000,
    });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  if (child.exitCode !== null) throw new Error(`slotstream ingest exited (${child.exitCode}):\n${output.slice(-4000)}`);
  return {
    child,
    metricsPort: loggedPorts(output).metrics!,
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

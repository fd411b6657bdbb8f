// `slotstream api` as a child process on loopback ports the kernel chooses, against the test's Kafka broker (KAFKA_BROKERS)
// and topics, with its own embedded ClickHouse folder: an api replica a test can SIGKILL and start again
// (durable cursors, issue 23).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../harness/kafka.js';
import { ANY_PORTS, loggedPorts, servedPorts } from './served-ports.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ApiProcess {
  child: ChildProcess;
  grpcPort: number;
  output(): string;
  /** SIGKILL: no shutdown step runs (what a crash or an OOM kill does); resolves once it exited. */
  kill(): Promise<void>;
}

export async function startApi(o: { brokers: readonly string[]; topicPrefix: string; dataDir: string }): Promise<ApiProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, KAFKA_BROKERS: o.brokers.join(',') };
  delete env.CLICKHOUSE_URL;
  const args = ['--import', 'tsx', 'cli/main.ts', 'api', '--topic-prefix', o.topicPrefix, '--data-dir', o.dataDir, '--log-level', 'info'];
  args.push(...ANY_PORTS);
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const p: ApiProcess = {
    child,
    grpcPort: 0,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    await waitFor(() => loggedPorts(output).grpc !== undefined || child.exitCode !== null, {
      timeoutMs: 120_000,
      what: 'slotstream api to serve',
    });
  } catch (err) {
    await p.kill();
    throw err;
  }
  if (child.exitCode !== null) throw new Error(`slotstream api exited early:\n${output}`);
  p.grpcPort = servedPorts(output).grpc;
  return p;
}

// `slotstream api` as a child process on loopback ports the kernel chooses, against the test's Kafka broker (KAFKA_BROKERS)
// and topics, with its own embedded ClickHouse folder: an api replica a test can SIGKILL and start again
// (durable cursors, issue 23).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ANY_PORTS, untilServing } from './served-ports.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface ApiProcess {
  child: ChildProcess;
  grpcPort: number;
  /** Its /metrics and /health port. */
  metricsPort: number;
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
  const { grpc, metrics } = await untilServing(child, () => output, 'api');
  return {
    child,
    grpcPort: grpc,
    metricsPort: metrics,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

// The ingest role in a child process (test/support/ingest/child.ts), for tests that SIGKILL it mid-run: the
// config goes over as the CLI's flags, stderr is kept (its tail) for failure messages.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flagOf, type Config } from '../../../cli/config.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..');
const CHILD = join(ROOT, 'test', 'support', 'ingest', 'child.ts');

/** The options an ingest child is started with (everything else keeps its default). */
const FLAGS = [
  'kafkaBrokers',
  'topicPrefix',
  'partitions',
  'replicationFactor',
  'retentionMs',
  'source',
  'seed',
  'slotMs',
  'tps',
  'skipRate',
  'slotsPerEpoch',
  'validators',
  'deadRate',
  'maxSlots',
  'fast',
  'logLevel',
] as const satisfies readonly (keyof Config)[];

export interface IngestExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface IngestProcess {
  readonly pid: number;
  readonly exited: Promise<IngestExit>;
  /** The last 20,000 characters the child wrote to stderr (its log). */
  stderr(): string;
  running(): boolean;
  /** Sends SIGKILL and waits for the exit. */
  kill(): Promise<IngestExit>;
}

export function ingestArgs(config: Config): string[] {
  const args: string[] = [];
  for (const name of FLAGS) {
    const v = config[name];
    if (typeof v === 'boolean') {
      if (v) args.push(flagOf(name));
    } else {
      args.push(flagOf(name), Array.isArray(v) ? v.join(',') : String(v));
    }
  }
  return args;
}

export function spawnIngest(config: Config): IngestProcess {
  let err = '';
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, ...ingestArgs(config)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  proc.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
  const exited = new Promise<IngestExit>((res) => proc.once('exit', (code, signal) => res({ code, signal })));
  // A test that fails half-way must not leave the child publishing.
  const onExit = (): void => void proc.kill('SIGKILL');
  process.once('exit', onExit);
  void exited.then(() => process.off('exit', onExit));
  return {
    pid: proc.pid!,
    exited,
    stderr: () => err,
    running: () => proc.exitCode === null && proc.signalCode === null,
    kill: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      return exited;
    },
  };
}

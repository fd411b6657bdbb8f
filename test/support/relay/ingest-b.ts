// Slotstream B of the relay test: `slotstream ingest --source yellowstone` against A's geyser.Geyser, in a
// child process (test/support/ingest/child.ts) so the test can SIGKILL it mid-slot.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IngestProcess, IngestExit } from '../ingest/ingest-process.js';
import { testBrokers } from '../harness/kafka.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..', '..');
const CHILD = join(ROOT, 'test', 'support', 'ingest', 'child.ts');

export interface RelayIngest extends IngestProcess {
  /** Log lines (JSON) the child wrote so far, parsed. */
  logLines(): Record<string, unknown>[];
}

export function spawnRelayIngest(o: { prefix: string; yellowstoneUrl: string; rpcUrl: string; partitions: number }): RelayIngest {
  const args = [
    '--kafka-brokers',
    testBrokers().join(','),
    '--topic-prefix',
    o.prefix,
    '--partitions',
    String(o.partitions),
    '--retention-ms',
    '3600000',
    '--source',
    'yellowstone',
    '--yellowstone-url',
    o.yellowstoneUrl,
    '--rpc-url',
    o.rpcUrl,
    '--ingest-name',
    'relay',
    '--yellowstone-backoff-ms',
    '100',
    // A's 60 ms slots are nearly 7 times faster than mainnet's, and on a busy machine A's geyser.Geyser can hand a
    // later block over before an earlier one that began (a sibling fork, or its records on a partition read late):
    // B waits for it behind up to 64 whole slots (about 4 s here) rather than 2 (a mainnet default of 0.8 s).
    '--yellowstone-wait-slots',
    '64',
    '--log-level',
    'info',
  ];
  let out = '';
  const lines: Record<string, unknown>[] = [];
  let partial = '';
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const take = (d: Buffer): void => {
    const s = d.toString();
    out = (out + s).slice(-20_000);
    partial += s;
    const parts = partial.split('\n');
    partial = parts.pop()!;
    for (const l of parts) {
      if (!l.startsWith('{')) continue;
      try {
        lines.push(JSON.parse(l) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  };
  proc.stdout.on('data', take);
  proc.stderr.on('data', take);
  const exited = new Promise<IngestExit>((res) => proc.once('exit', (code, signal) => res({ code, signal })));
  const onExit = (): void => void proc.kill('SIGKILL');
  process.once('exit', onExit);
  void exited.then(() => process.off('exit', onExit));
  return {
    pid: proc.pid!,
    exited,
    stderr: () => out,
    logLines: () => lines,
    running: () => proc.exitCode === null && proc.signalCode === null,
    kill: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      return exited;
    },
  };
}

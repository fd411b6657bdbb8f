// Ctrl-C while `slotstream all` is still starting: the role stops as soon as it has started, exits 0 and leaves no
// process behind. Node's default for SIGINT ended the process at once, before `cli/main.ts` took the signal, and left
// the local broker's JVM (its supervisor waits for every holder of the launcher's pipe to go) and the child processes
// running for most of a minute. Here the signal comes right after the local broker is up, while the migrations, the
// projector and the stream processes are still to start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { ANY_PORTS } from '../support/cli/served-ports.js';
import { alive, descendants } from '../support/cli/descendants.js';
import { startSlotstream, type SlotstreamProcess } from '../support/cli/slotstream-process.js';
import { waitFor } from '../support/harness/kafka.js';

const dataDir = mkdtempSync(join(tmpdir(), 'slotstream-startup-signal-'));
let all: SlotstreamProcess | undefined;

afterAll(async () => {
  if (all && all.child.exitCode === null && all.child.signalCode === null) all.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

it('a SIGINT during the start stops `slotstream all` once started: exit 0, no broker or child process left', async () => {
  // No chain source: what is under test is the start and the stop.
  all = await startSlotstream(['all', '--source', 'none', '--data-dir', dataDir, ...ANY_PORTS], {
    KAFKA_BROKERS: undefined,
    CLICKHOUSE_URL: undefined,
  });
  const child = all.child;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await all.line('KAFKA_BROKERS is unset: started a local Kafka broker');
  const pids = descendants(child.pid!);
  expect(pids.length).toBeGreaterThan(0); // the broker's supervisor and its JVM at least
  expect(all.lines().some((l) => l.msg === 'api is serving')).toBe(false);
  child.kill('SIGINT');
  expect(await exited, all.output().slice(-3000)).toEqual({ code: 0, signal: null });
  expect(all.lines().some((l) => l.msg === 'stopping once the start is done (again to end at once)')).toBe(true);
  await waitFor(() => pids.every((p) => !alive(p)), { timeoutMs: 120_000, what: 'every process it started to end' });
});

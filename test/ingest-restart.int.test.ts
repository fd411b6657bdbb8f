// The ingest killed (SIGKILL) mid-slot and restarted: it resumes after the newest slot Kafka holds whole, skips by
// identity what it had published after it, and the topics equal an uninterrupted run's. Apart from
// test/ingest.int.test.ts because it kills a paced run at a point of it: a slot it has cut, found by freezing it
// (test/support/ingest/freeze-at-cut.ts), so another file's load cannot make the kills land between slots.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resumePoint } from '../ingest/publish/resume-point.js';
import { flagOf } from '../cli/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { topicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix } from './support/harness/kafka.js';
import { checkMarkers } from './support/ingest/framed-slot.js';
import { config, ingestToEnd, readAll, slotRecords, toContents } from './support/ingest/sim-chain.js';
import { freezeAtCut } from './support/ingest/freeze-at-cut.js';
import { waitForSlotRecords } from './support/ingest/wait-published.js';
import { firstDifference } from './support/kafka/read-topics.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const CHILD = join(ROOT, 'test', 'support', 'ingest', 'child.ts');

let kafka: Kafka;
beforeAll(() => {
  kafka = createKafka({ brokers: testBrokers(), clientId: 'ingest-restart-test' });
});

// Children still running when a test fails or times out are ended here, not left behind.
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await kafka?.close();
});

describe('restart', () => {
  function child(prefix: string, slotMs = 100): { proc: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
    // Paced at 100 ms a slot (pacing changes no record), so a kill lands mid-run and, as each slot comes
    // in eight pieces across its 100 ms (ingest/sources/sim/spread.ts) and spans several Kafka transactions (commits
    // every 50 ms), mid-slot: unpaced, the whole chain is in Kafka about two seconds after the start. At 40 ms a slot
    // fitted in one transaction often enough that, beside another file's load, kills needed several tries.
    const cfg = config(prefix, { maxSlots: 400, tps: 100, slotMs });
    const args: string[] = [];
    for (const name of [
      'kafkaBrokers',
      'topicPrefix',
      'seed',
      'slotMs',
      'tps',
      'skipRate',
      'slotsPerEpoch',
      'validators',
      'maxSlots',
      'simEntries',
      'deadRate',
      'partitions',
      'retentionMs',
    ] as const) {
      const v = cfg[name];
      args.push(flagOf(name), Array.isArray(v) ? v.join(',') : String(v));
    }
    args.push('--fast');
    let err = '';
    const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(proc);
    proc.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
    const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
    return { proc, exited, stderr: () => err };
  }

  it('continues after SIGKILL mid-slot, skipping by identity, with no gap, no duplicate and the same records as an uninterrupted run', async () => {
    const prefix = uniquePrefix('ingest-restart');
    const ref400 = uniquePrefix('ingest-ref400');
    await ingestToEnd(config(ref400, { maxSlots: 400, fast: true }));
    const expected = await readAll(kafka, ref400);
    const names = topicNames(prefix);

    // Kill once the ingest has cut a slot (its first records in Kafka, its marker not): frozen until Kafka holds one
    // (test/support/ingest/freeze-at-cut.ts). A commit the broker was finishing as it froze can still complete the
    // slot: then one more restart to cut.
    let cutSlot: bigint | undefined;
    let records = 150;
    for (let attempt = 0; attempt < 3 && cutSlot === undefined; attempt++, records += 60) {
      const run = child(prefix);
      await waitForSlotRecords(kafka, prefix, run, records, `the ingest to publish ${records} slot records`);
      const running = (): boolean => run.proc.exitCode === null && run.proc.signalCode === null;
      const { freezes } = await freezeAtCut({ pid: run.proc.pid!, running }, kafka, names, { timeoutMs: 120_000 });
      expect(run.proc.kill('SIGKILL')).toBe(true);
      expect(await run.exited).toBeNull();
      const point = await resumePoint(kafka, names);
      process.stderr.write(`[ingest-restart] killed after ${freezes} freeze(s): open slot ${point.openSlot ?? 'none'}\n`);
      if (point.openSlot !== undefined) {
        cutSlot = point.openSlot;
        expect(point.held.size).toBeGreaterThan(0);
      }
    }
    expect(cutSlot, 'no kill landed mid-slot in 3 tries').toBeDefined();
    const partial = slotRecords(await readAll(kafka, prefix));
    expect(Math.max(...partial.map((s) => Number(s.slot)))).toBeLessThan(399);

    // The last run only has to finish the chain: unpaced (pacing changes no record, see above).
    const last = child(prefix, 0);
    const code = await last.exited;
    expect(code, last.stderr()).toBe(0);
    expect(last.stderr()).toMatch(
      /resuming after slot \d+, the newest one Kafka holds whole; \d+ records published after it are skipped by identity/,
    );

    const got = await readAll(kafka, prefix);
    const happened = slotRecords(got).filter((s) => s.end !== undefined);
    const slots = happened.map((s) => Number(s.slot)).sort((a, b) => a - b);
    expect(new Set(slots).size).toBe(slots.length);
    expect(slots).toEqual(Array.from({ length: 400 }, (_, i) => i));
    expect(firstDifference(got, expected)).toBeUndefined();
    expect(checkMarkers(toContents(got, prefix), names)).toEqual({
      markers: 400,
      wrong: [],
      late: [],
    });
  });
});

// Active and standby ingests of one name (ingest/publish/name-claim.ts) against the real broker: a standby takes over
// when the active one freezes (SIGSTOP: its heartbeat stops, as when it loses Kafka) and the frozen one, woken, is a
// zombie that must stand by and publish nothing more; then the active is SIGKILLed under load, mid-slot, and the
// standby takes over each time. In the end the topics equal an uninterrupted run's of the same seed (no record lost,
// none twice). The takeover times are printed (bench/README.md keeps the figures): the 5 s target is not asserted
// here, only a generous deadline, as a busy machine must not fail it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { topicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { checkMarkers } from './support/ingest/framed-slot.js';
import { freezeAtCut } from './support/ingest/freeze-at-cut.js';
import { spawnIngest, type IngestProcess } from './support/ingest/ingest-process.js';
import { lastPublishedSlot } from './support/ingest/last-published-slot.js';
import { config, ingestToEnd, readAll, slotRecords, toContents } from './support/ingest/sim-chain.js';
import { firstDifference } from './support/kafka/read-topics.js';

// 30 s at the pace: a frozen takeover and a round or two of kills (each finds its cut by freezing) fit with room.
const SLOTS = 300;
const DEADLINE_MS = 60_000;
const MAX_KILLS = 4;

let kafka: Kafka;
const procs: IngestProcess[] = [];

beforeAll(() => {
  kafka = createKafka({ brokers: testBrokers(), clientId: 'ingest-standby-test' });
});
afterAll(async () => {
  for (const p of procs) await p.kill();
  await kafka?.close();
});

const STANDING_BY = 'standing by to take over';
const CLAIMED = 'claimed on topic prefix';
// The children's stderr is kept to its tail, so a copy's state is read from its newest lines, not counted.
const occurrences = (text: string, part: string): number => text.split(part).length - 1;
/** Standing by: its newest "standing by" line is newer than its newest "claimed" one. */
const isStandingBy = (p: IngestProcess): boolean => p.stderr().lastIndexOf(STANDING_BY) > p.stderr().lastIndexOf(CLAIMED);
/** Active: the other way round. */
const isActive = (p: IngestProcess): boolean => p.stderr().lastIndexOf(CLAIMED) > p.stderr().lastIndexOf(STANDING_BY);

describe('standby ingest', () => {
  it('takes over from a frozen and from a killed active one; the zombie stands by; the topics equal a fault-free run', async () => {
    try {
      await scenario();
    } catch (err) {
      // Which copy did what: every child's log tail.
      const logs = procs.map((p, i) => `--- ingest ${i} (pid ${p.pid}):\n${p.stderr().slice(-3000)}`).join('\n');
      throw new Error(`${(err as Error).message}\n${logs}`, { cause: err });
    }
  });
});

async function scenario(): Promise<void> {
  {
    const ref = uniquePrefix('ingest-standby-ref');
    await ingestToEnd(config(ref, { maxSlots: SLOTS, fast: true }));
    const expected = await readAll(kafka, ref);

    const prefix = uniquePrefix('ingest-standby');
    const names = topicNames(prefix);
    // Paced at 100 ms a slot (pacing changes no record), each slot over several Kafka transactions: a kill lands mid-run,
    // and mid-slot once the active is frozen at a cut slot (test/support/ingest/freeze-at-cut.ts).
    const cfg = config(prefix, { maxSlots: SLOTS, slotMs: 100, tps: 100, fast: true });
    const spawn = (): IngestProcess => {
      const p = spawnIngest(cfg);
      procs.push(p);
      return p;
    };
    const slotRecordCount = async (): Promise<number> =>
      [...(await kafka.admin().offsetRanges(names.slots)).values()].reduce((n, r) => n + Number(r.high), 0);
    const last = async (): Promise<bigint> => (await lastPublishedSlot(kafka, names)) ?? -1n;
    const alive = (p: IngestProcess): void => {
      if (!p.running()) throw new Error(`an ingest exited early: ${p.stderr()}`);
    };
    const standingBy = async (p: IngestProcess): Promise<void> => {
      await waitFor(
        () => {
          alive(p);
          return isStandingBy(p);
        },
        { what: 'the second ingest standing by', timeoutMs: DEADLINE_MS },
      );
    };
    // When the new active logged its claim and its resume point (the child's log lines carry epoch ms), and now.
    const timeline = async (p: IngestProcess, since: number): Promise<string> => {
      const published = Date.now() - since;
      const timeOf = async (part: string): Promise<number> =>
        waitFor(
          () => {
            const log = p.stderr();
            const i = log.lastIndexOf(part);
            const end = log.indexOf('\n', i);
            if (i < 0 || end < 0) return undefined;
            return (JSON.parse(log.slice(log.lastIndexOf('\n', i) + 1, end)) as { time: number }).time - since;
          },
          { what: `the log line "${part}"`, timeoutMs: DEADLINE_MS },
        );
      return `${await timeOf(CLAIMED)}/${await timeOf('resuming after slot')}/${published}`;
    };
    const publishedPast = async (slot: bigint, what: string): Promise<void> => {
      await waitFor(async () => (await last()) > slot, { what, timeoutMs: DEADLINE_MS, intervalMs: 20 });
    };

    let active = spawn();
    await waitFor(
      async () => {
        alive(active);
        return (await slotRecordCount()) >= 60;
      },
      { what: 'the first ingest publishing', timeoutMs: DEADLINE_MS },
    );
    let standby = spawn();
    await standingBy(standby);
    expect(occurrences(standby.stderr(), CLAIMED)).toBe(0);

    // 1. The active freezes: its heartbeat stops, the standby takes over and fences it.
    process.kill(active.pid, 'SIGSTOP');
    let before = await last();
    let t0 = Date.now();
    await waitFor(() => isActive(standby), { what: 'the standby taking over', timeoutMs: DEADLINE_MS });
    await publishedPast(before, 'the standby publishing after the takeover');
    const takeovers: string[] = [await timeline(standby, t0)];
    expect(standby.stderr()).toContain('stopped beating');
    // Woken, the frozen one is a zombie: fenced and superseded, it stands by instead of publishing.
    const zombie = active;
    process.kill(zombie.pid, 'SIGCONT');
    await waitFor(
      () => {
        alive(zombie);
        return zombie.stderr().includes('another copy of this ingest is active now; standing by');
      },
      { what: 'the woken zombie standing by', timeoutMs: DEADLINE_MS },
    );
    await standingBy(zombie);
    active = standby;
    standby = zombie;

    // 2. The active is SIGKILLed under load until a kill has cut a slot (the new active then skips by identity what the
    // killed one published of it); each time a new standby joins. The kill comes while the active is frozen at a cut
    // slot (test/support/ingest/freeze-at-cut.ts). A freeze that outlasts the heartbeat lets the standby take over
    // before a cut was found: the frozen copy is killed all the same and the round does not count.
    let cut = false;
    let freezes = 0;
    for (let round = 0; round < MAX_KILLS && !cut; round++) {
      const at = await slotRecordCount();
      // An active that finished the chain ends the loop below, so the test says that no kill cut a slot rather than
      // that a copy exited early.
      await waitFor(
        async () => {
          if (!active.running() && (await active.exited).code === 0) return true;
          alive(active);
          return (await slotRecordCount()) >= at + 40;
        },
        { what: 'the active ingest publishing', timeoutMs: DEADLINE_MS },
      );
      if ((await last()) >= BigInt(SLOTS - 40)) break;
      const frozen = await freezeAtCut(active, kafka, names, { timeoutMs: DEADLINE_MS, mayWake: () => !isActive(standby) });
      freezes += frozen.freezes;
      t0 = frozen.frozenAt;
      expect((await active.kill()).signal).toBe('SIGKILL');
      // Read after the kill: what the killed copy committed is final then (the standby may have published more already).
      before = await last();
      await waitFor(() => isActive(standby), { what: 'the standby taking over', timeoutMs: DEADLINE_MS });
      await publishedPast(before, 'the standby publishing after the takeover');
      takeovers.push(await timeline(standby, t0));
      // Its log line may come after its records (the child's log is written asynchronously).
      const taker = standby;
      const resumed = await waitFor(
        () => {
          const log = taker.stderr();
          const i = log.lastIndexOf('resuming after slot');
          const end = log.indexOf('\n', i);
          if (i < log.lastIndexOf(CLAIMED) || end < 0) return undefined;
          return JSON.parse(log.slice(log.lastIndexOf('\n', i) + 1, end)) as { openSlot: string | null; alreadyInKafka: number };
        },
        { what: "the new active ingest's resume point", timeoutMs: DEADLINE_MS },
      );
      cut = resumed.openSlot !== null && resumed.alreadyInKafka > 0;
      active = standby;
      standby = spawn();
      await standingBy(standby);
    }
    process.stderr.write(
      `[ingest-standby] takeovers (ms from the fault to: the standby's claim / its resume point / the first new slot published): ${takeovers.join(', ')}; ${freezes} freezes\n`,
    );
    expect(cut, `no kill landed mid-slot in ${MAX_KILLS} tries`).toBe(true);

    // The active finishes the chain and frees the name; the standby then takes it at once, finds the chain whole, ends.
    const done = await active.exited;
    expect(done.code, active.stderr()).toBe(0);
    const standbyDone = await standby.exited;
    expect(standbyDone.code, standby.stderr()).toBe(0);

    const got = await readAll(kafka, prefix);
    const happened = slotRecords(got).filter((s) => s.end !== undefined);
    const slots = happened.map((s) => Number(s.slot)).sort((a, b) => a - b);
    expect(new Set(slots).size).toBe(slots.length);
    expect(slots).toEqual(Array.from({ length: SLOTS }, (_, i) => i));
    expect(firstDifference(got, expected)).toBeUndefined();
    expect(checkMarkers(toContents(got, prefix), names)).toEqual({ markers: SLOTS, wrong: [], late: [] });
  }
}

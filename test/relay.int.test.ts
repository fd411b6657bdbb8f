// Relay identity, end to end (issue 11): slotstream A (the simulator with every field filled: transaction
// meta, entries, dead forks, epochs) serves geyser.Geyser; slotstream B ingests from it with
// `--source yellowstone` (leaders and epochs from a JSON-RPC node answering from A's epochs topic,
// test/support/relay/epoch-rpc.ts). B's topics must hold the same records as A's (behaviour.md "Equality in
// tests"), with two named exceptions (test/support/relay/compare.ts): A's SKIPPED records, which Yellowstone
// cannot carry, and the place of confirmations and finalizations within their partitions (compared as sets there). Then: B's ingest SIGKILLed mid-run and restarted still ends with the same
// records; and A restarted with a shorter history than B needs makes B publish a gap record naming exactly
// the slots it cannot get, and then A's records from where A's history starts.
// Each comparison waits for its condition (B holds A's records), never for a moment: B publishes a status of a slot
// already out (a confirmation, a finalization) with the next slot that goes out, and A's geyser.Geyser may hand
// such a status over after a later slot's processed status (an end marker counts only its own slot's records, and
// the status is on another partition), so at the end of A's chain B can hold one that only a next slot brings out
// (issue 32, item 4: B's topics lacked A's last finalization when the test stopped B at its last end marker). A's
// chain therefore goes on a few slots past what is compared (CHAIN_TAIL). After the gap, B reads A's whole chain as
// one replay, where such a status can come after every later marker, so there the tail comes live, after the replay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStreams } from '../api/grpc/metrics.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { createLogger } from '../platform/log.js';
import { decodeRecord, SlotStatus, type SlotEvent } from '../schemas/codec.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';
import { connectGeyser } from './support/geyser/client.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { readTopics } from './support/kafka/read-topics.js';
import { recordCount, type RecordsByKind } from './support/kafka/same-records.js';
import { cleanEnd } from './support/relay/chain-plan.js';
import {
  filterRecords,
  lateStatusesAsSets,
  missingRecords,
  readRelayed,
  recordsAlsoIn,
  relayDifference,
  slotOfRecord,
  slotStatusOf,
  withoutSkipped,
} from './support/relay/compare.js';
import { startEpochRpc, type EpochRpc } from './support/relay/epoch-rpc.js';
import { spawnRelayIngest, type RelayIngest } from './support/relay/ingest-b.js';
import { SlotstreamA, type SimConfig } from './support/relay/slotstream-a.js';

// A small chain with everything in it: ~16 transactions per slot with full meta, their account writes,
// ~64 entries per block, dead forks and skipped slots well above mainnet's rates, and 32-slot epochs so a
// run crosses epoch boundaries. Paced so B follows A live, as a relay would.
const SIM: SimConfig = {
  seed: 11,
  slotMs: 60,
  tps: 40,
  skipRate: 0.15,
  deadRate: 0.1,
  slotsPerEpoch: 32,
  validators: 8,
  fast: true,
  simEntries: true,
  partitions: 4,
};

const log = createLogger('warn', 'relay-test');

/** Slots A's chain goes on past the part compared, so that B hands over what it holds for its next slot (above). */
const CHAIN_TAIL = 3;
/** How long B may take to catch up: a deadline on a condition, generous for a machine busy with other work. */
const CATCH_UP_MS = 240_000;

async function geyserStreams(): Promise<number> {
  return (await openStreams.get()).values.find((v) => v.labels.method === 'geyser.Subscribe')?.value ?? 0;
}

/** The slots topic's records, decoded. */
async function slotRecords(kafka: Kafka, topics: TopicNames): Promise<SlotEvent[]> {
  const parts = (await readTopics(kafka, [topics.slots])).get(topics.slots)!;
  return parts.flat().map((r) => {
    const d = decodeRecord('slots', r.value);
    if (!d.ok || d.value.kind !== 'slots') throw new Error(`undecodable slot record: ${d.ok ? d.value.kind : d.reason}`);
    return d.value.event;
  });
}

/** Waits until B's slots topic holds slot `slot`'s end marker, failing fast if B's ingest exited. */
async function waitForEnd(kafka: Kafka, topics: TopicNames, b: RelayIngest, slot: bigint, timeoutMs = CATCH_UP_MS): Promise<void> {
  await waitFor(
    async () => {
      if (!b.running()) throw new Error(`B's ingest exited: ${b.stderr()}`);
      const s = await slotRecords(kafka, topics).catch(() => []);
      return s.some((e) => e.slot === slot && e.end !== undefined);
    },
    { what: `B's end marker of slot ${slot}`, timeoutMs, intervalMs: 250 },
  );
}

/**
 * Runs A's chain to `end` and then CHAIN_TAIL slots further, and waits until B holds, per partition and in order,
 * every record A had at `end` (A's SKIPPED records aside); returns those records of A. When B's end marker of A's
 * last compared slot is in and B still lacks some of them, they are logged: what B held for its next slot.
 */
async function runChainAndRelay(
  kafka: Kafka,
  a: SlotstreamA,
  topicsB: TopicNames,
  b: RelayIngest,
  end: number,
  ingested?: Promise<void>,
): Promise<RecordsByKind> {
  await (ingested ?? a.ingest(end));
  const want = withoutSkipped(await readRelayed(kafka, a.topics));
  await waitForEnd(kafka, topicsB, b, BigInt(end - 1));
  const held = missingRecords(await readRelayed(kafka, topicsB), want);
  if (held.length > 0) console.info(`relay test: at B's end marker of slot ${end - 1}, B still held ${held.join(', ')}`);
  await a.ingest(end + CHAIN_TAIL);
  await waitFor(
    async () => {
      if (!b.running()) throw new Error(`B's ingest exited: ${b.stderr()}`);
      const diff = relayDifference(lateStatusesAsSets(recordsAlsoIn(await readRelayed(kafka, topicsB), want)), lateStatusesAsSets(want));
      if (diff !== undefined) throw new Error(`${diff}\nB's notable log lines:\n${notable(b)}`);
      return true;
    },
    { what: `B to hold A's records up to slot ${end - 1}`, timeoutMs: CATCH_UP_MS, intervalMs: 1_000 },
  );
  return want;
}

/** B's log lines above info and its source's subscription lines, for failure messages. */
const notable = (b: RelayIngest): string =>
  b
    .logLines()
    .filter((l) => (l.level as number) > 30 || /subscrib|resum/.test(String(l.msg)))
    .map((l) => String(l.msg))
    .slice(-20)
    .join('\n');

/** Starts B against A and waits until A's geyser.Geyser has B's subscription (so B sees A's chain from genesis). */
async function startB(a: SlotstreamA, rpc: EpochRpc, prefix: string): Promise<RelayIngest> {
  const before = await geyserStreams();
  const b = spawnRelayIngest({ prefix, yellowstoneUrl: a.url, rpcUrl: rpc.url, partitions: SIM.partitions });
  await waitFor(
    async () => {
      if (!b.running()) throw new Error(`B's ingest exited: ${b.stderr()}`);
      return (await geyserStreams()) > before;
    },
    { what: "B's subscription to A's geyser.Geyser", timeoutMs: CATCH_UP_MS, intervalMs: 50 },
  );
  return b;
}

/** SIGKILLs B's ingest and waits until A's geyser.Geyser has seen its stream go (so the next startB counts right). */
async function stopB(b: RelayIngest): Promise<void> {
  const before = await geyserStreams();
  expect((await b.kill()).signal).toBe('SIGKILL');
  await waitFor(async () => (await geyserStreams()) < before, { what: "B's stream closed on A", timeoutMs: 300_000 });
}

describe('relay identity: slotstream B ingesting slotstream A through geyser.Geyser', () => {
  let kafka: Kafka;
  const cleanup: (() => Promise<unknown>)[] = [];

  beforeAll(() => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'relay-test' });
  });

  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
    await kafka?.close();
  });

  async function setUp(name: string): Promise<{ a: SlotstreamA; rpc: EpochRpc; prefixB: string; topicsB: TopicNames }> {
    const a = new SlotstreamA(kafka, uniquePrefix(`${name}-a`), SIM, log);
    await kafka.admin().ensureTopics(a.topics, { partitions: SIM.partitions, retentionMs: 3_600_000, replicationFactor: 1 });
    await a.startApi();
    cleanup.push(() => a.stopApi());
    const rpc = await startEpochRpc(kafka, a.topics.epochs, SIM.slotsPerEpoch);
    cleanup.push(() => rpc.close());
    const prefixB = uniquePrefix(`${name}-b`);
    return { a, rpc, prefixB, topicsB: topicNames(prefixB) };
  }

  it("B's topics hold the same records as A's", async () => {
    const maxSlots = await cleanEnd(SIM, 56);
    const { a, rpc, prefixB, topicsB } = await setUp('relay-same');
    const b = await startB(a, rpc, prefixB);
    cleanup.push(() => b.kill());
    const want = await runChainAndRelay(kafka, a, topicsB, b, maxSlots);
    await stopB(b);

    const all = await readRelayed(kafka, topicsB);
    const got = recordsAlsoIn(all, want);
    expect(relayDifference(lateStatusesAsSets(got), lateStatusesAsSets(want))).toBeUndefined();
    // B holds nothing A does not (the chain's tail included).
    expect(recordCount(recordsAlsoIn(all, withoutSkipped(await readRelayed(kafka, a.topics))))).toBe(recordCount(all));
    // Everything the chain has was there to compare: dead forks, entries, several epochs, every record kind.
    const statuses = new Set(
      Object.values((await readRelayed(kafka, a.topics, ['slots'])).slots!)
        .flat()
        .map(slotStatusOf),
    );
    expect(statuses).toEqual(
      new Set([
        SlotStatus.SLOT_STATUS_PROCESSED,
        SlotStatus.SLOT_STATUS_CONFIRMED,
        SlotStatus.SLOT_STATUS_FINALIZED,
        SlotStatus.SLOT_STATUS_SKIPPED,
        SlotStatus.SLOT_STATUS_DEAD,
        SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED,
        SlotStatus.SLOT_STATUS_CREATED_BANK,
      ]),
    );
    for (const kind of ['transactions', 'accounts', 'entries'] as const) expect(recordCount({ [kind]: got[kind] })).toBeGreaterThan(500);
    expect(recordCount({ epochs: got.epochs })).toBe(Math.ceil(maxSlots / SIM.slotsPerEpoch));
    expect(rpc.calls).toContain('getLeaderSchedule');
  });

  it('B killed mid-slot and restarted still holds the same records; A restarted with a shorter history makes B publish the exact gap', async () => {
    // Long enough that the kill lands mid-chain on a busy machine: B is killed once past slot 24 (polled by reading
    // its slots topic), with A's chain ~70 slots (4 s at 60 ms a slot) from its end.
    const maxSlots = await cleanEnd(SIM, 96);
    const { a, rpc, prefixB, topicsB } = await setUp('relay-restart');
    let b = await startB(a, rpc, prefixB);
    cleanup.push(() => b.kill());
    const chain = a.ingest(maxSlots);
    // Kill B while A streams slots to it: B has a slot in hand (part of its updates received, not yet out).
    await waitFor(async () => (await slotRecords(kafka, topicsB).catch(() => [])).some((e) => e.slot >= 24n && e.end !== undefined), {
      what: 'B past slot 24',
      timeoutMs: 300_000,
      intervalMs: 100,
    });
    await stopB(b);
    const killedAt = (await slotRecords(kafka, topicsB)).reduce((m, e) => (e.end !== undefined && e.slot > m ? e.slot : m), 0n);
    expect(killedAt).toBeLessThan(BigInt(maxSlots - 8));
    b = await startB(a, rpc, prefixB);
    const want = await runChainAndRelay(kafka, a, topicsB, b, maxSlots, chain).catch((err: Error) => {
      throw new Error(`${err.message}\n${notable(b)}`);
    });
    await stopB(b);
    const afterRestart = await readRelayed(kafka, topicsB);
    expect(relayDifference(lateStatusesAsSets(recordsAlsoIn(afterRestart, want)), lateStatusesAsSets(want)), notable(b)).toBeUndefined();
    expect(recordCount(recordsAlsoIn(afterRestart, withoutSkipped(await readRelayed(kafka, a.topics))))).toBe(recordCount(afterRestart));
    expect(b.logLines().some((l) => typeof l.msg === 'string' && l.msg.startsWith('ingest: resuming after slot'))).toBe(true);

    // A goes on without B, then loses the start of its history (DeleteRecords moves the log start, as
    // retention would) past where B stopped, and restarts.
    const resumeFrom = BigInt(maxSlots + CHAIN_TAIL);
    const longer = await cleanEnd(SIM, maxSlots + CHAIN_TAIL + 40);
    await new SlotstreamA(kafka, a.prefix, { ...SIM, slotMs: 0 }, log).ingest(longer);
    await a.stopApi();
    const cutAt = resumeFrom + 12n;
    const streamKinds = ['slots', 'transactions', 'accounts', 'entries'] as const;
    const full = await readRelayed(kafka, a.topics, streamKinds);
    for (const kind of streamKinds) {
      for (const [p, records] of full[kind]!.entries()) {
        const first = records.find((r) => slotOfRecord(kind, r) >= cutAt);
        if (first) await kafka.admin().deleteRecords(a.topics[kind], p, first.offset);
      }
    }
    await a.startApi();
    const client = await connectGeyser(Number(new URL(a.url).port));
    const firstAvailable = BigInt((await client.subscribeReplayInfo()).firstAvailable!);
    expect(firstAvailable).toBeGreaterThan(resumeFrom);
    // A's answer is right: from that slot on A still holds everything it had.
    const fromSlot = (c: typeof full, slot: bigint) => filterRecords(c, (kind, r) => slotOfRecord(kind, r) >= slot);
    expect(
      relayDifference(fromSlot(await readRelayed(kafka, a.topics, streamKinds), firstAvailable), fromSlot(full, firstAvailable)),
    ).toBeUndefined();

    b = await startB(a, rpc, prefixB);
    await waitForEnd(kafka, topicsB, b, BigInt(longer - 1));
    // The chain's tail comes live and paced, after the replay: a status the replay handed over after the last slot's
    // marker (its partition read late) goes out with the tail's first slot (above, CHAIN_TAIL; a tail in the replay
    // could be overtaken by it just the same). The tail's own slots are not compared.
    await a.ingest(longer + CHAIN_TAIL);
    const from = (c: RecordsByKind) =>
      filterRecords(
        c,
        (kind, r) =>
          kind !== 'epochs' &&
          slotOfRecord(kind, r) >= firstAvailable &&
          !(kind === 'slots' && slotStatusOf(r) === SlotStatus.SLOT_STATUS_GAP),
      );
    const wantAfterGap = lateStatusesAsSets(withoutSkipped(from(full)));
    await waitFor(
      async () => {
        if (!b.running()) throw new Error(`B's ingest exited: ${b.stderr()}`);
        const held = from(recordsAlsoIn(await readRelayed(kafka, topicsB, streamKinds), full));
        const diff = relayDifference(lateStatusesAsSets(held), wantAfterGap);
        if (diff !== undefined) throw new Error(`${diff}\nB's notable log lines:\n${notable(b)}`);
        return true;
      },
      { what: `B to hold A's records from slot ${firstAvailable} to ${longer - 1}`, timeoutMs: CATCH_UP_MS, intervalMs: 1_000 },
    );
    await stopB(b);

    // Exactly one gap record, naming the slots from where B's history stopped to just before A's first available.
    const bSlots = await slotRecords(kafka, topicsB);
    const gaps = bSlots.filter((e) => e.status === SlotStatus.SLOT_STATUS_GAP);
    expect(gaps.map((g) => [g.slot, g.gap?.firstSlot, g.gap?.lastSlot])).toEqual([[resumeFrom, resumeFrom, firstAvailable - 1n]]);
    expect(
      b.logLines().some((l) => l.level === 50 && l.firstSlot === String(resumeFrom) && l.lastSlot === String(firstAvailable - 1n)),
    ).toBe(true);
    // Nothing of the missing slots, and from A's first available slot on, A's records.
    const got = await readRelayed(kafka, topicsB);
    const inGap = filterRecords(got, (kind, r) => {
      const s = slotOfRecord(kind, r);
      return (
        kind !== 'epochs' && s >= resumeFrom && s < firstAvailable && !(kind === 'slots' && slotStatusOf(r) === SlotStatus.SLOT_STATUS_GAP)
      );
    });
    expect(recordCount(inGap)).toBe(0);
    const afterGap = from(recordsAlsoIn(await readRelayed(kafka, topicsB, streamKinds), full));
    expect(recordCount(afterGap)).toBeGreaterThan(1000);
    expect(relayDifference(lateStatusesAsSets(afterGap), wantAfterGap)).toBeUndefined();
    // B holds nothing A does not, up to the tail.
    const compared = filterRecords(from(got), (kind, r) => slotOfRecord(kind, r) < BigInt(longer));
    const aNow = withoutSkipped(await readRelayed(kafka, a.topics));
    expect(recordCount(recordsAlsoIn(compared, aNow)), `B's records A lacks: ${missingRecords(aNow, compared).join(', ')}`).toBe(
      recordCount(compared),
    );
    // And before the gap, B's topics are what they were.
    const before = (c: typeof got) => filterRecords(c, (kind, r) => kind !== 'epochs' && slotOfRecord(kind, r) < resumeFrom);
    expect(relayDifference(before(got), before(afterRestart))).toBeUndefined();
  });
});

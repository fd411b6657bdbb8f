// --source yellowstone against a local gRPC server replaying the recorded mainnet Yellowstone stream
// (../shared/data/mainnet, read in place; the tests are left out when the folder is missing, unless
// SLOTSTREAM_REALDATA demands it). Per slot, the statuses, block meta and entries in Kafka must match the
// recording in order. The expectation comes from decoding the recording here, with Yellowstone's codec and
// bs58, not from the source's assembler. Also: a stream cut mid-way resumes with from_slot and nothing
// missing or twice; an upstream that cannot replay far enough makes the source publish the exact gap.
//
// The recording was made by a subscriber of slots, block meta and entries (no transactions, no accounts),
// so the source is configured the same way (--yellowstone-subscribe entries): otherwise it would wait, as
// it should, for the 1,000+ transactions each block meta announces.
import bs58 from 'bs58';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKafka } from '../cli/infrastructure.js';
import { lastPublishedSlot } from './support/ingest/last-published-slot.js';
import { startIngest, type IngestHandle } from '../ingest/run.js';
import { makeConfig, type Config } from '../cli/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { registry } from '../platform/metrics.js';
import { decodeRecord, SlotStatus, type EntryEvent, type SlotEvent } from '../schemas/codec.js';
import { readU64Key, topicNames } from '../schemas/topics.js';
import { YellowstoneSlotStatus } from '../schemas/yellowstone/index.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { expectEqual } from './support/harness/expect-equal.js';
import { mainnetDataDir, readMainnetStream } from './support/mainnet/data.js';
import { readTopics } from './support/kafka/read-topics.js';
import { leaderOf, LEADERS, startLeaderRpc, type LeaderRpc } from './support/yellowstone/leader-rpc.js';
import { decodeRecording, startReplayServer, type RecordedUpdate, type ReplayServer } from './support/yellowstone/replay-server.js';
import { ingestSection } from '../cli/config-sections.js';
import { upstreamLabel } from '../ingest/sources/yellowstone/merged-loop.js';

const hasData = (() => {
  try {
    mainnetDataDir();
    return true;
  } catch (err) {
    if (process.env.SLOTSTREAM_REALDATA) throw err;
    return false;
  }
})();

const silent = pino({ level: 'silent' });

const WON = 'slotstream_ingest_yellowstone_upstream_updates_won_total';
const DUPLICATES = 'slotstream_ingest_yellowstone_upstream_updates_duplicate_total';
const RECONNECTS = 'slotstream_ingest_yellowstone_upstream_reconnects_total';

/** A per-upstream metric's value (0 before the upstream has one). */
async function metricOf(name: string, upstream: string): Promise<number> {
  const m = await registry.getSingleMetric(name)?.get();
  return Number(m?.values.find((v) => v.labels.upstream === upstream)?.value ?? 0);
}

/** Yellowstone's status numbers to the event model's, by name (SLOT_X -> SLOT_STATUS_X). */
function statusOf(ys: number): SlotStatus {
  const name = (YellowstoneSlotStatus as unknown as Record<number, string>)[ys]!;
  return (SlotStatus as unknown as Record<string, SlotStatus>)[`SLOT_STATUS_${name.slice('SLOT_'.length)}`]!;
}

interface ExpectedSlot {
  statuses: Partial<SlotEvent>[];
  entries: EntryEvent[];
}

/** What Kafka must hold per slot: for each whole slot of the recording (block meta, processed status and
 * every entry its meta announces), its status updates up to the point where the last whole slot closes,
 * with the block meta on the processed one, and its entries, all in recorded order. */
function expectFromRecording(rec: readonly RecordedUpdate[], fromSlot = 0n): { slots: Map<bigint, ExpectedSlot>; last: bigint } {
  const entries = new Map<bigint, RecordedUpdate[]>();
  for (const r of rec) if (r.update.entry) entries.set(r.slot!, [...(entries.get(r.slot!) ?? []), r]);
  const processedAt = new Map<bigint, number>();
  rec.forEach((r, i) => {
    if (r.update.slot && r.update.slot.status === YellowstoneSlotStatus.SLOT_PROCESSED) processedAt.set(r.slot!, i);
  });
  const metas = new Map(rec.filter((r) => r.update.blockMeta).map((r) => [r.slot!, r.update.blockMeta!]));
  const whole = [...metas]
    .filter(([slot, m]) => slot >= fromSlot && processedAt.has(slot) && (entries.get(slot)?.length ?? 0) === Number(m.entriesCount))
    .map(([slot]) => slot)
    .sort((a, b) => (a < b ? -1 : 1));
  const last = whole.at(-1)!;
  const cutoff = processedAt.get(last)!;
  const slots = new Map<bigint, ExpectedSlot>();
  for (const slot of whole) {
    const m = metas.get(slot)!;
    const statuses = rec
      .slice(0, cutoff + 1)
      .filter((r) => r.update.slot && r.slot === slot)
      .map((r) => {
        const u = r.update.slot!;
        const s: Partial<SlotEvent> = {
          slot,
          status: statusOf(u.status),
          parent: u.parent === undefined ? undefined : BigInt(u.parent),
          deadError: u.deadError,
        };
        if (s.status === SlotStatus.SLOT_STATUS_PROCESSED) {
          s.block = {
            parentSlot: BigInt(m.parentSlot),
            blockhash: Buffer.from(bs58.decode(m.blockhash)),
            blockHeight: BigInt(m.blockHeight!.blockHeight),
            blockTime: BigInt(m.blockTime!.timestamp),
            leader: leaderOf(slot),
            transactionCount: Number(m.executedTransactionCount),
            voteTransactionCount: 0, // no transactions subscribed: not counted
            previousBlockhash: Buffer.from(bs58.decode(m.parentBlockhash)),
            // Agave's numbering on both sides (Fee = 1 ...); Yellowstone writes commission as text, "" for none.
            rewards: (m.rewards?.rewards ?? []).map((r) => ({
              pubkey: Buffer.from(bs58.decode(r.pubkey)),
              lamports: BigInt(r.lamports),
              postBalance: BigInt(r.postBalance),
              rewardType: r.rewardType as number,
              commission: r.commission === '' ? undefined : Number(r.commission),
              commissionBps: r.commissionBps === '' ? undefined : Number(r.commissionBps),
            })),
            executedTransactionCount: BigInt(m.executedTransactionCount),
            entryCount: BigInt(m.entriesCount),
            numPartitions: m.rewards?.numPartitions === undefined ? undefined : BigInt(m.rewards.numPartitions.numPartitions),
          };
        }
        return s;
      });
    const es = entries.get(slot)!.map(({ update: { entry: e } }) => ({
      slot,
      index: BigInt(e!.index),
      numHashes: BigInt(e!.numHashes),
      hash: Buffer.from(e!.hash),
      executedTransactionCount: BigInt(e!.executedTransactionCount),
      startingTransactionIndex: BigInt(e!.startingTransactionIndex),
    }));
    slots.set(slot, { statuses, entries: es });
  }
  return { slots, last };
}

interface InKafka {
  slots: Map<bigint, SlotEvent[]>;
  entries: Map<bigint, EntryEvent[]>;
  epochs: number;
  epochIdentities: Buffer[][];
  transactions: number;
  accounts: number;
}

async function readBack(kafka: Kafka, prefix: string): Promise<InKafka> {
  const t = topicNames(prefix);
  const c = await readTopics(kafka, [t.slots, t.entries, t.epochs, t.transactions, t.accounts]);
  const byKey = <T>(topic: string, kind: 'slots' | 'entries') => {
    const m = new Map<bigint, T[]>();
    for (const part of c.get(topic)!) {
      for (const r of part) {
        const d = decodeRecord(kind, r.value);
        if (!d.ok) throw new Error(d.reason);
        const k = readU64Key(r.key);
        m.set(k, [...(m.get(k) ?? []), d.value.event as T]);
      }
    }
    return m;
  };
  const epochRecords = c
    .get(t.epochs)!
    .flat()
    .map((r) => decodeRecord('epochs', r.value));
  return {
    slots: byKey<SlotEvent>(t.slots, 'slots'),
    entries: byKey<EntryEvent>(t.entries, 'entries'),
    epochs: epochRecords.length,
    epochIdentities: epochRecords.map((d) =>
      d.ok && d.value.kind === 'epochs' ? d.value.event.identities.map((b) => Buffer.from(b)) : [],
    ),
    transactions: c.get(t.transactions)!.flat().length,
    accounts: c.get(t.accounts)!.flat().length,
  };
}

/** Kafka's slot records and entries of the expected slots equal the expectation, record for record. */
function expectSlotsMatch(got: InKafka, want: Map<bigint, ExpectedSlot>): void {
  for (const [slot, w] of want) {
    const statuses = (got.slots.get(slot) ?? []).map((s) => ({
      slot: s.slot,
      status: s.status,
      parent: s.parent,
      deadError: s.deadError,
      ...(s.block
        ? {
            block: {
              ...s.block,
              blockhash: Buffer.from(s.block.blockhash),
              previousBlockhash: Buffer.from(s.block.previousBlockhash),
              leader: Buffer.from(s.block.leader),
              rewards: s.block.rewards.map((r) => ({ ...r, pubkey: Buffer.from(r.pubkey) })),
            },
          }
        : {}),
    }));
    expectEqual<unknown>(statuses, w.statuses, `slot ${slot} statuses`);
    const entries = (got.entries.get(slot) ?? []).map((e) => ({ ...e, hash: Buffer.from(e.hash) }));
    expect(entries.length, `slot ${slot} entries`).toBe(w.entries.length);
    expectEqual(entries, w.entries, `slot ${slot} entries`);
  }
}

describe.skipIf(!hasData)('--source yellowstone on the recorded mainnet stream', () => {
  let kafka: Kafka;
  let rpc: LeaderRpc;
  let recording: RecordedUpdate[];
  const servers: ReplayServer[] = [];
  const handles: IngestHandle[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'yellowstone-source-test' });
    rpc = await startLeaderRpc();
    recording = decodeRecording(readMainnetStream());
  });

  afterAll(async () => {
    for (const h of handles) await h.stop();
    for (const s of servers) await s.close();
    await rpc?.close();
    await kafka?.close();
  });

  const serve = async (o: Omit<Parameters<typeof startReplayServer>[0], 'recording'>) => {
    const s = await startReplayServer({ recording, ...o });
    servers.push(s);
    return s;
  };

  function config(prefix: string, ...servers: ReplayServer[]): Config {
    return configWith({}, prefix, ...servers);
  }

  function configWith(more: Record<string, unknown>, prefix: string, ...servers: ReplayServer[]): Config {
    return makeConfig('ingest', {
      ...more,
      source: 'yellowstone',
      yellowstoneUrl: servers.map((s) => s.url),
      xToken: ['test-token'],
      yellowstoneSubscribe: ['entries'],
      yellowstoneBackoffMs: 20,
      rpcUrl: rpc.url,
      kafkaBrokers: testBrokers(),
      topicPrefix: prefix,
      partitions: 3,
      retentionMs: 3_600_000,
    });
  }

  /** Runs the ingest until Kafka holds `until`, then stops it. */
  async function ingestUntil(cfg: Config, until: bigint): Promise<void> {
    const infra = await connectKafka(cfg, silent);
    try {
      const h = await startIngest(ingestSection(cfg), silent, infra);
      handles.push(h);
      await waitFor(async () => (await lastPublishedSlot(kafka, topicNames(cfg.topicPrefix))) === until, {
        what: `slot ${until} in Kafka`,
        timeoutMs: 300_000,
        intervalMs: 200,
      });
      await h.stop();
    } finally {
      await infra.kafka.close();
    }
  }

  let reference: InKafka;
  let expected: ReturnType<typeof expectFromRecording>;

  it('publishes, per slot, the recorded statuses, block meta (leader from getLeaderSchedule) and entries in order', async () => {
    expected = expectFromRecording(recording);
    // 50 recorded slots: the first joined part-way (its first 446 entries are not in the recording) and the
    // last has no processed status; the 48 between are whole.
    expect([...expected.slots.keys()].length).toBe(48);
    const server = await serve({ firstAvailable: 398202772n });
    const prefix = uniquePrefix('ys-recording');
    await ingestUntil(config(prefix, server), expected.last);
    reference = await readBack(kafka, prefix);
    expectSlotsMatch(reference, expected.slots);
    // Nothing else: no slot outside the whole ones (no statuses of slots before the first), no data the
    // recording does not have, one epoch record with the node's leaders.
    expect([...reference.slots.keys()].sort()).toEqual([...expected.slots.keys()].sort());
    expect([...reference.entries.keys()].sort()).toEqual([...expected.slots.keys()].sort());
    expect(reference.transactions + reference.accounts).toBe(0);
    expect(reference.epochs).toBe(1);
    expect(reference.epochIdentities[0]).toEqual([...LEADERS]);
    expect(rpc.calls).toContain('getLeaderSchedule');
    expect(server.tokens[0]).toBe('test-token');
    const req = server.requests[0]!;
    expect(req.fromSlot).toBeUndefined(); // a fresh start subscribes live
    expect(Object.keys(req.blocksMeta)).toHaveLength(1);
    expect(Object.values(req.slots)[0]!.interslotUpdates).toBe(true);
    expect(req.commitment).toBe(0);
  });

  it("two upstreams, one delayed and one dropping out mid-run: every record once, the topics equal one clean upstream's", async () => {
    // F (fast) starts at once and is cut after 20,000 updates; its reconnects are held until D has carried the
    // stream alone for a while. D (delayed) starts only once F has had 2,000 of its updates published.
    let releaseD!: () => void;
    let releaseF!: () => void;
    const dStarts = new Promise<void>((r) => (releaseD = r));
    const fBack = new Promise<void>((r) => (releaseF = r));
    const f = await serve({ firstAvailable: 398202772n, cutFirstStreamAfter: 20_000, hold: (n) => (n > 1 ? fBack : undefined) });
    const d = await serve({ firstAvailable: 398202772n, hold: () => dStarts });
    const prefix = uniquePrefix('ys-two');
    const cfg = config(prefix, f, d);
    const [fl, dl] = [f, d].map((s) => upstreamLabel(s.url)) as [string, string];
    const base = { won: { f: await metricOf(WON, fl), d: await metricOf(WON, dl) }, reconnects: await metricOf(RECONNECTS, fl) };
    const infra = await connectKafka(cfg, silent);
    try {
      const h = await startIngest(ingestSection(cfg), silent, infra);
      handles.push(h);
      await waitFor(async () => (await metricOf(WON, fl)) - base.won.f >= 2_000, { what: 'F wins 2,000 updates', timeoutMs: 300_000 });
      releaseD();
      // F is cut; D alone carries the stream on.
      await waitFor(async () => (await metricOf(RECONNECTS, fl)) > base.reconnects, { what: 'F dropped', timeoutMs: 300_000 });
      await waitFor(async () => (await metricOf(WON, dl)) - base.won.d >= 2_000, { what: 'D carries the stream', timeoutMs: 300_000 });
      releaseF();
      await waitFor(async () => (await lastPublishedSlot(kafka, topicNames(prefix))) === expected.last, {
        what: `slot ${expected.last} in Kafka`,
        timeoutMs: 300_000,
        intervalMs: 200,
      });
      // F came back, resuming from where the merged history stood.
      await waitFor(() => f.requests.filter((r) => !r.ping).length >= 2, { what: "F's second subscription" });
      await h.stop();
    } finally {
      await infra.kafka.close();
    }
    const got = await readBack(kafka, prefix);
    expectSlotsMatch(got, expected.slots);
    expectEqual(got.slots, reference.slots);
    expectEqual(got.entries, reference.entries);
    expect(got.epochs).toBe(reference.epochs);
    expect(got.transactions + got.accounts).toBe(0);
    const resubscribe = f.requests.filter((r) => !r.ping)[1]!;
    expect(BigInt(resubscribe.fromSlot!)).toBeGreaterThanOrEqual(398202772n);
    expect(BigInt(resubscribe.fromSlot!)).toBeLessThanOrEqual(expected.last);
    expect(d.requests.filter((r) => !r.ping)[0]!.fromSlot).toBeUndefined();
    // Both delivered, each update was published from one of them only.
    const won = { f: (await metricOf(WON, fl)) - base.won.f, d: (await metricOf(WON, dl)) - base.won.d };
    expect(won.f).toBeGreaterThanOrEqual(2_000);
    expect(won.d).toBeGreaterThanOrEqual(2_000);
    expect(await metricOf(DUPLICATES, dl)).toBeGreaterThan(0);
  });

  it("two upstreams, one stalling mid-run: it falls behind, is dropped and resubscribed; the topics equal one clean upstream's", async () => {
    // S starts first and goes silent after 10,000 updates (its stream stays open); C starts once S has had 2,000
    // of its updates published, overtakes it, and S, more than 5 slots behind, is dropped and comes back.
    let releaseC!: () => void;
    const cStarts = new Promise<void>((r) => (releaseC = r));
    const stalling = await serve({ firstAvailable: 398202772n, stallFirstStreamAfter: 10_000 });
    const clean = await serve({ firstAvailable: 398202772n, hold: () => cStarts });
    const prefix = uniquePrefix('ys-stall');
    const cfg: Config = { ...config(prefix, stalling, clean), yellowstoneMaxLagSlots: 5 };
    const sl = upstreamLabel(stalling.url);
    const base = { won: await metricOf(WON, sl), reconnects: await metricOf(RECONNECTS, sl) };
    const infra = await connectKafka(cfg, silent);
    try {
      const h = await startIngest(ingestSection(cfg), silent, infra);
      handles.push(h);
      await waitFor(async () => (await metricOf(WON, sl)) - base.won >= 2_000, { what: 'S wins 2,000 updates', timeoutMs: 300_000 });
      releaseC();
      await waitFor(async () => (await lastPublishedSlot(kafka, topicNames(prefix))) === expected.last, {
        what: `slot ${expected.last} in Kafka`,
        timeoutMs: 300_000,
        intervalMs: 200,
      });
      // Dropped for its lag (long before the 60 s of silence that would also drop it), and resubscribed.
      await waitFor(() => stalling.requests.filter((r) => !r.ping).length >= 2, { what: "S's second subscription", timeoutMs: 300_000 });
      await h.stop();
    } finally {
      await infra.kafka.close();
    }
    expect((await metricOf(RECONNECTS, sl)) - base.reconnects).toBeGreaterThanOrEqual(1);
    expect(stalling.requests.filter((r) => !r.ping)[1]!.fromSlot).toBeDefined();
    const got = await readBack(kafka, prefix);
    expectSlotsMatch(got, expected.slots);
    expectEqual(got.slots, reference.slots);
    expectEqual(got.entries, reference.entries);
    expect(got.epochs).toBe(reference.epochs);
  });

  it('reconnects after a cut stream with from_slot and continues with no gap and no duplicate', async () => {
    // This server also gzips its messages: the source accepts them.
    const server = await serve({ firstAvailable: 398202772n, cutFirstStreamAfter: 20_000, gzip: true });
    const prefix = uniquePrefix('ys-cut');
    await ingestUntil(config(prefix, server), expected.last);
    const got = await readBack(kafka, prefix);
    expectSlotsMatch(got, expected.slots);
    expect([...got.slots.keys()].sort()).toEqual([...reference.slots.keys()].sort());
    const subscribes = server.requests.filter((r) => !r.ping);
    expect(subscribes).toHaveLength(2);
    const from = BigInt(subscribes[1]!.fromSlot!);
    expect(from).toBeGreaterThan(398202772n);
    expect(from).toBeLessThan(expected.last);
  });

  it('--yellowstone-publish pieces: each slot goes out as it arrives, and the topics equal whole slots, across a cut stream too', async () => {
    const pieces = async () =>
      Number((await registry.getSingleMetric('slotstream_ingest_yellowstone_pieces_total')?.get())?.values[0]?.value ?? 0);
    const before = await pieces();
    // Cut mid-slot (a slot has ~800 entries): the replay sends the open slot again, and nothing goes out twice.
    // In bursts (~2 a slot), so that the source has read everything sent before the next comes.
    const server = await serve({ firstAvailable: 398202772n, cutFirstStreamAfter: 20_000, pause: { every: 400, ms: 20 } });
    const prefix = uniquePrefix('ys-pieces');
    await ingestUntil(configWith({ yellowstonePublish: 'pieces' }, prefix, server), expected.last);
    // Slots went out in pieces (the first whole slot begins history and goes out whole).
    expect((await pieces()) - before).toBeGreaterThan(0);
    expect(server.requests.filter((r) => !r.ping)).toHaveLength(2);
    const got = await readBack(kafka, prefix);
    expectSlotsMatch(got, expected.slots);
    expectEqual(got.slots, reference.slots);
    // The slot after the last whole one (the recording's last, never processed) was open when the ingest stopped:
    // what of it went out is its first entries, in order.
    const open = [...got.entries.keys()].filter((s) => s > expected.last);
    expect(open.length).toBeLessThanOrEqual(1);
    for (const s of open) {
      const indexes = got.entries.get(s)!.map((e) => e.index);
      expect(indexes).toEqual(indexes.map((_, i) => BigInt(i)));
      got.entries.delete(s);
    }
    expectEqual(got.entries, reference.entries);
    expect(got.epochs).toBe(reference.epochs);
  });

  it('after a restart, publishes the statuses that arrived while it was down, once: the topics equal an uninterrupted run', async () => {
    const prefix = uniquePrefix('ys-restart');
    // First run: the upstream goes away right after slot 398202790's processed status; the confirmed and
    // finalized statuses of the slots before it come later in the recording.
    const stopAt = 398202790n;
    const cut = recording.findIndex((r) => r.slot === stopAt && r.update.slot?.status === YellowstoneSlotStatus.SLOT_PROCESSED);
    const later = recording
      .slice(cut + 1)
      .filter((r) => r.update.slot && r.slot! <= stopAt && r.update.slot.status === YellowstoneSlotStatus.SLOT_FINALIZED);
    expect(later.length).toBeGreaterThan(5);
    const first = await serve({ firstAvailable: 398202772n, limit: cut + 1 });
    await ingestUntil(config(prefix, first), stopAt);
    // Second run (a new process would do the same: nothing is kept in memory between ingests): the whole
    // recording, replayable from its first slot.
    const second = await serve({ firstAvailable: 398202772n });
    await ingestUntil(config(prefix, second), expected.last);
    // It replayed from before where history stopped to collect those statuses.
    expect(BigInt(second.requests[0]!.fromSlot!)).toBeLessThan(stopAt);
    const got = await readBack(kafka, prefix);
    expectSlotsMatch(got, expected.slots);
    expect([...got.slots.keys()].sort()).toEqual([...reference.slots.keys()].sort());
    for (const [slot, records] of got.slots) {
      const seen = records.map((r) => r.status);
      expect(new Set(seen).size, `slot ${slot}: a status twice`).toBe(seen.length);
    }
  });

  it('publishes the exact gap when the upstream cannot replay back to where history stops', async () => {
    const prefix = uniquePrefix('ys-gap');
    // First run: the upstream sends the recording up to slot 398202790's processed status.
    const stopAt = 398202790n;
    const cut = recording.findIndex((r) => r.slot === stopAt && r.update.slot?.status === YellowstoneSlotStatus.SLOT_PROCESSED);
    const first = await serve({ firstAvailable: 398202772n, limit: cut + 1 });
    await ingestUntil(config(prefix, first), stopAt);
    // Second run: an upstream that replays from 398202800 only.
    const gapBefore = Number((await registry.getSingleMetric('slotstream_ingest_gap_slots_total')?.get())?.values[0]?.value ?? 0);
    const second = await serve({ firstAvailable: 398202800n });
    await ingestUntil(config(prefix, second), expected.last);
    expect(second.requests[0]!.fromSlot).toBe('398202800');
    const got = await readBack(kafka, prefix);
    const gaps = [...got.slots.values()].flat().filter((s) => s.status === SlotStatus.SLOT_STATUS_GAP);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]!.slot).toBe(stopAt + 1n);
    expect(gaps[0]!.gap).toMatchObject({ firstSlot: stopAt + 1n, lastSlot: 398202799n });
    expect(gaps[0]!.gap!.reason).toMatch(/replays from slot 398202800 only/);
    const gapAfter = Number((await registry.getSingleMetric('slotstream_ingest_gap_slots_total')?.get())?.values[0]?.value ?? 0);
    expect(gapAfter - gapBefore).toBe(9);
    // Nothing of the missing slots; everything from the replay start on as recorded.
    for (let s = stopAt + 1n; s < 398202800n; s++) if (s !== stopAt + 1n) expect(got.slots.has(s)).toBe(false);
    const after = expectFromRecording(recording.filter((r) => r.slot !== undefined && r.slot >= 398202800n));
    expectSlotsMatch(got, after.slots);
    expect(got.epochs).toBeGreaterThanOrEqual(1);
  });
});

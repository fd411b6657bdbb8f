import { describe, expect, it } from 'vitest';
import { SlotStatus, type ChainEvent, type SlotEvent } from '../../../schemas/codec.js';
import { SubscribeUpdate, YellowstoneSlotStatus as YS } from '../../../schemas/yellowstone/index.js';
import { block, entry, meta, status, tx } from '../../../test/support/yellowstone/updates.js';
import type { SlotBatch } from '../../source.js';
import { SlotAssembler, type AssemblerOptions, type Notice } from './assembler.js';
import { channelOf } from './source.js';
import { planSubscription, receivesEveryTransaction, subscribeRequest } from './subscription.js';

function assembler(o: Partial<AssemblerOptions> = {}) {
  const notices: Notice[] = [];
  const a = new SlotAssembler({ countTransactions: true, countEntries: true, onNotice: (n) => notices.push(n), ...o });
  const feed = (us: SubscribeUpdate[]): SlotBatch[] => us.flatMap((u) => a.push(u));
  return { a, notices, feed };
}

const slotsOf = (b: SlotBatch): SlotEvent[] => b.events.flatMap((e) => (e.kind === 'slots' ? [e.event] : []));
const shape = (e: ChainEvent): string =>
  e.kind === 'slots'
    ? `${e.event.slot}:${SlotStatus[e.event.status]}`
    : e.kind === 'entries'
      ? `entry ${e.event.slot}/${e.event.index}`
      : e.kind === 'transactions'
        ? `tx ${e.event.slot}/${e.event.index}`
        : e.kind;

describe('SlotAssembler', () => {
  it('emits a slot once block meta, processed status and every announced transaction and entry are in, data before the end marker', () => {
    const { a, feed } = assembler();
    a.startSubscription({ replayFrom: 100n, resumeFrom: 100n });
    // Out of order on the wire: entries and transactions interleave, the meta comes before the last entry.
    const us = [
      status(100, YS.SLOT_CREATED_BANK, 99),
      entry(100, 1),
      tx(100, 1, true),
      meta(100, 2, 2),
      tx(100, 0),
      status(100, YS.SLOT_PROCESSED, 99),
    ];
    expect(feed(us)).toEqual([]);
    const [b] = feed([entry(100, 0)]);
    expect(b!.slot).toBe(100n);
    expect(b!.events.map(shape)).toEqual([
      '100:SLOT_STATUS_CREATED_BANK',
      'tx 100/0',
      'tx 100/1',
      'entry 100/0',
      'entry 100/1',
      '100:SLOT_STATUS_PROCESSED',
    ]);
    const processed = slotsOf(b!).at(-1)!;
    expect(processed.block).toMatchObject({
      parentSlot: 99n,
      transactionCount: 2,
      voteTransactionCount: 1,
      entryCount: 2n,
      blockTime: 1_700_000_100n,
    });
    for (const e of b!.events) if (e.kind === 'transactions') expect(e.event.blockTime).toBe(1_700_000_100n);
  });

  it('does not wait for transactions when the subscription does not receive all of them', () => {
    const { a, feed } = assembler({ countTransactions: false });
    a.startSubscription({});
    const out = feed([entry(5, 0), meta(5, 1000, 1), status(5, YS.SLOT_PROCESSED, 4)]);
    expect(out.map((b) => b.slot)).toEqual([5n]);
    expect(slotsOf(out[0]!)[0]!.block!.voteTransactionCount).toBe(0);
  });

  it('keeps slot order: a whole slot waits for a lower one that has its block under way', () => {
    const { a, feed } = assembler();
    a.startSubscription({ resumeFrom: 10n, replayFrom: 10n });
    expect(feed([status(10, YS.SLOT_CREATED_BANK, 9), meta(10, 0, 1), ...block(11, 1, 1)])).toEqual([]);
    const out = feed([status(10, YS.SLOT_PROCESSED, 9), entry(10, 0)]);
    expect(out.map((b) => b.slot)).toEqual([10n, 11n]);
  });

  it('sends later statuses of slots already out with the next batch, each (slot, status) once', () => {
    const { a, feed } = assembler();
    a.startSubscription({ resumeFrom: 20n, replayFrom: 20n });
    feed(block(20, 0, 1));
    const out = feed([status(20, YS.SLOT_CONFIRMED), status(20, YS.SLOT_CONFIRMED), status(20, YS.SLOT_PROCESSED, 19), ...block(21, 0, 1)]);
    expect(out).toHaveLength(1);
    expect(out[0]!.events.map(shape)).toEqual([
      '20:SLOT_STATUS_CONFIRMED',
      '21:SLOT_STATUS_CREATED_BANK',
      'entry 21/0',
      '21:SLOT_STATUS_PROCESSED',
    ]);
  });

  it("ends a slot's batch with its end marker: a status of the slot arriving after its processed one (its data still coming) goes with the next batch", () => {
    const { a, feed } = assembler();
    a.startSubscription({ resumeFrom: 50n, replayFrom: 50n });
    const [b50] = feed([
      meta(50, 0, 1),
      status(50, YS.SLOT_PROCESSED, 49),
      status(50, YS.SLOT_CONFIRMED),
      status(48, YS.SLOT_FINALIZED),
      entry(50, 0),
    ]);
    expect(b50!.events.map(shape)).toEqual(['entry 50/0', '50:SLOT_STATUS_PROCESSED']);
    const [b51] = feed(block(51, 0, 1));
    expect(b51!.events.map(shape).filter((x) => !x.startsWith('entry'))).toEqual([
      '50:SLOT_STATUS_CONFIRMED',
      '48:SLOT_STATUS_FINALIZED',
      '51:SLOT_STATUS_CREATED_BANK',
      '51:SLOT_STATUS_PROCESSED',
    ]);
  });

  it("keeps the statuses of a batch in arrival order: other slots' statuses between a dead fork's progress statuses stay between them", () => {
    const { a, feed } = assembler();
    a.startSubscription({ resumeFrom: 60n, replayFrom: 60n });
    feed(block(60, 0, 1));
    const [b61] = feed([
      status(59, YS.SLOT_CONFIRMED),
      status(61, YS.SLOT_FIRST_SHRED_RECEIVED, 60),
      status(60, YS.SLOT_CONFIRMED),
      status(61, YS.SLOT_CREATED_BANK, 60),
      SubscribeUpdate.fromPartial({ slot: { slot: '61', status: YS.SLOT_DEAD, deadError: 'bad' } }),
    ]);
    expect(b61!.events.map(shape)).toEqual([
      '59:SLOT_STATUS_CONFIRMED',
      '61:SLOT_STATUS_FIRST_SHRED_RECEIVED',
      '60:SLOT_STATUS_CONFIRMED',
      '61:SLOT_STATUS_CREATED_BANK',
      '61:SLOT_STATUS_DEAD',
    ]);
  });

  it("leaves a status that arrived after a later slot's first status for that later slot's batch", () => {
    const { a, feed } = assembler();
    a.startSubscription({ resumeFrom: 70n, replayFrom: 70n });
    feed(block(70, 0, 1));
    const out = feed([
      meta(71, 0, 1),
      entry(71, 0),
      status(72, YS.SLOT_FIRST_SHRED_RECEIVED, 71),
      status(40, YS.SLOT_FINALIZED),
      status(71, YS.SLOT_PROCESSED, 70),
      SubscribeUpdate.fromPartial({ slot: { slot: '72', status: YS.SLOT_DEAD } }),
    ]);
    expect(out.map((b) => b.events.filter((e) => e.kind === 'slots').map(shape))).toEqual([
      ['71:SLOT_STATUS_PROCESSED'],
      ['72:SLOT_STATUS_FIRST_SHRED_RECEIVED', '40:SLOT_STATUS_FINALIZED', '72:SLOT_STATUS_DEAD'],
    ]);
  });

  it('emits a dead slot at its dead status, without block meta', () => {
    const { a, feed } = assembler();
    a.startSubscription({ resumeFrom: 30n, replayFrom: 30n });
    const out = feed([
      status(30, YS.SLOT_FIRST_SHRED_RECEIVED, 29),
      entry(30, 0),
      SubscribeUpdate.fromPartial({ slot: { slot: '30', status: YS.SLOT_DEAD, deadError: 'bad' } }),
    ]);
    expect(out[0]!.events.map(shape)).toEqual(['30:SLOT_STATUS_FIRST_SHRED_RECEIVED', 'entry 30/0', '30:SLOT_STATUS_DEAD']);
    expect(slotsOf(out[0]!).at(-1)!.deadError).toBe('bad');
  });

  it('carries the records of an abandoned slot (no block, overtaken by `waitSlots` whole slots) into the next batch, with a notice', () => {
    const { a, feed, notices } = assembler({ waitSlots: 2 });
    a.startSubscription({ resumeFrom: 40n, replayFrom: 40n });
    expect(feed([status(40, YS.SLOT_FIRST_SHRED_RECEIVED, 39), entry(40, 0), ...block(41, 0, 1)])).toEqual([]);
    const out = feed(block(42, 0, 1));
    expect(out.map((b) => b.slot)).toEqual([41n, 42n]);
    expect(out[0]!.events.map(shape).filter((x) => x.startsWith('40:') || x.startsWith('entry 40/'))).toEqual([
      '40:SLOT_STATUS_FIRST_SHRED_RECEIVED',
      'entry 40/0',
    ]);
    expect(notices).toContainEqual({ kind: 'abandoned', slot: 40n, records: 2 });
  });

  it('waits for a slot that began when a later block is whole first (a fork still replaying, a relay reading partitions), and sends both whole', () => {
    // Issue 32: a relayed slotstream handed slot 29 over whole before slot 28's block meta and processed status
    // (28's records were on a partition read later); giving 28 up at once published its transactions without
    // block time and its end marker as a late status without its block.
    const { a, feed, notices } = assembler({ waitSlots: 2 });
    a.startSubscription({ resumeFrom: 28n, replayFrom: 28n });
    expect(feed([status(28, YS.SLOT_FIRST_SHRED_RECEIVED, 27), entry(28, 0), tx(28, 0), ...block(29, 0, 1)])).toEqual([]);
    const out = feed([meta(28, 1, 1), status(28, YS.SLOT_PROCESSED, 27)]);
    expect(out.map((b) => b.slot)).toEqual([28n, 29n]);
    expect(out[0]!.events.map(shape)).toEqual(['28:SLOT_STATUS_FIRST_SHRED_RECEIVED', 'tx 28/0', 'entry 28/0', '28:SLOT_STATUS_PROCESSED']);
    expect(slotsOf(out[0]!).at(-1)!.block?.blockTime).toBe(1_700_000_028n);
    expect(notices).toEqual([]);
  });

  it('lets a slot short of its announced entries go, named, once later slots are whole', () => {
    const { a, feed, notices } = assembler({ waitSlots: 2 });
    a.startSubscription({ resumeFrom: 50n, replayFrom: 50n });
    feed([entry(50, 0), meta(50, 0, 3), status(50, YS.SLOT_PROCESSED, 49), ...block(51, 0, 1)]);
    const out = feed(block(52, 0, 1));
    expect(out.map((b) => b.slot)).toEqual([50n, 51n, 52n]);
    expect(notices).toContainEqual({
      kind: 'incomplete',
      slot: 50n,
      transactions: 0,
      expectedTransactions: 0n,
      entries: 1,
      expectedEntries: 3n,
    });
  });

  it('fresh live start: the slot joined part-way and statuses of earlier slots are not history', () => {
    const { a, feed, notices } = assembler();
    a.startSubscription({});
    const out = feed([
      entry(60, 7),
      status(29, YS.SLOT_FINALIZED),
      meta(60, 0, 8),
      status(60, YS.SLOT_PROCESSED, 59),
      ...block(61, 0, 1),
      status(30, YS.SLOT_FINALIZED),
      ...block(62, 0, 1),
    ]);
    expect(out.map((b) => b.slot)).toEqual([61n, 62n]);
    expect(out.flatMap(slotsOf).map((s) => s.slot)).not.toContain(29n);
    expect(out.flatMap(slotsOf).map((s) => s.slot)).not.toContain(30n);
    expect(notices).toContainEqual({ kind: 'partial-at-start', slot: 60n });
  });

  it('publishes the exact gap when the replay starts after where history stops', () => {
    const { a, feed, notices } = assembler();
    a.startSubscription({ resumeFrom: 70n, replayFrom: 75n, gapReason: 'replays from slot 75 only' });
    const [b] = feed(block(75, 0, 1));
    const gap = slotsOf(b!)[0]!;
    expect(gap).toMatchObject({
      slot: 70n,
      status: SlotStatus.SLOT_STATUS_GAP,
      gap: { firstSlot: 70n, lastSlot: 74n, reason: 'replays from slot 75 only' },
    });
    expect(notices).toContainEqual({ kind: 'gap', first: 70n, last: 74n, reason: 'replays from slot 75 only' });
  });

  it('publishes nothing of the slots in the gap: their statuses, before its record or coming live after it, are dropped', () => {
    const { a, feed } = assembler();
    a.startSubscription({ resumeFrom: 70n, replayFrom: 75n, gapReason: 'replays from slot 75 only' });
    const first = feed([status(72, YS.SLOT_FINALIZED), ...block(75, 0, 1)]);
    const later = feed([status(73, YS.SLOT_FINALIZED), status(75, YS.SLOT_CONFIRMED), status(69, YS.SLOT_FINALIZED), ...block(76, 0, 1)]);
    const published = [...first, ...later].flatMap(slotsOf).map((s) => `${s.slot}:${SlotStatus[s.status]}`);
    expect(published).toEqual([
      '70:SLOT_STATUS_GAP',
      '75:SLOT_STATUS_CREATED_BANK',
      '75:SLOT_STATUS_PROCESSED',
      '75:SLOT_STATUS_CONFIRMED',
      '69:SLOT_STATUS_FINALIZED',
      '76:SLOT_STATUS_CREATED_BANK',
      '76:SLOT_STATUS_PROCESSED',
    ]);
    // A live resume's gap is known at its first batch: a status of a slot in it that came before is dropped too.
    const live = assembler();
    live.a.startSubscription({ resumeFrom: 80n, gapReason: 'no replay' });
    const out = live.feed([
      status(85, YS.SLOT_FINALIZED),
      entry(90, 3),
      meta(90, 0, 4),
      status(90, YS.SLOT_PROCESSED, 89),
      ...block(91, 0, 1),
    ]);
    out.push(...live.feed([status(86, YS.SLOT_CONFIRMED), ...block(92, 0, 1)]));
    expect(out.flatMap(slotsOf).map((s) => s.slot)).toEqual([80n, 91n, 91n, 92n, 92n]);
  });

  it('a live resume (no replay) names the slots up to the first whole one as the gap', () => {
    const { a, feed } = assembler();
    a.startSubscription({ resumeFrom: 80n, gapReason: 'no replay' });
    const out = feed([entry(90, 3), meta(90, 0, 4), status(90, YS.SLOT_PROCESSED, 89), ...block(91, 0, 1)]);
    expect(out.map((b) => b.slot)).toEqual([91n]);
    expect(slotsOf(out[0]!)[0]!.gap).toMatchObject({ firstSlot: 80n, lastSlot: 90n });
  });

  it('on reconnect replays from the oldest slot out that is not finalized, skipping what is out and each status already sent', () => {
    const { a, feed, notices } = assembler();
    a.startSubscription({ resumeFrom: 100n, replayFrom: 100n });
    const first = [
      ...block(100, 0, 1),
      ...block(101, 0, 1),
      status(100, YS.SLOT_FINALIZED),
      ...block(102, 0, 1),
      status(101, YS.SLOT_CONFIRMED),
    ];
    expect(feed(first).map((b) => b.slot)).toEqual([100n, 101n, 102n]);
    expect(a.replayStartFor(103n)).toBe(101n);
    a.startSubscription({ resumeFrom: 103n, replayFrom: 101n });
    // The replay sends slots 101.. again, then new ones.
    const again = feed([
      ...block(101, 0, 1),
      ...block(102, 0, 1),
      status(101, YS.SLOT_CONFIRMED),
      status(102, YS.SLOT_CONFIRMED),
      ...block(103, 0, 1),
    ]);
    expect(again.map((b) => b.slot)).toEqual([103n]);
    expect(again[0]!.events.map(shape).slice(0, 3)).toEqual([
      '101:SLOT_STATUS_CONFIRMED',
      '102:SLOT_STATUS_CONFIRMED',
      '103:SLOT_STATUS_CREATED_BANK',
    ]);
    expect(notices.filter((n) => n.kind === 'late-data')).toEqual([]);
  });

  it('after a restart, publishes once the statuses that changed while it was down, and nothing Kafka already holds', () => {
    const { a, feed } = assembler({ countTransactions: false, countEntries: false });
    // Kafka holds slots up to 102: 100 finalized, 101 confirmed, 102 processed only.
    const inKafka = new Map([
      [
        100n,
        new Set([
          SlotStatus.SLOT_STATUS_CREATED_BANK,
          SlotStatus.SLOT_STATUS_PROCESSED,
          SlotStatus.SLOT_STATUS_CONFIRMED,
          SlotStatus.SLOT_STATUS_FINALIZED,
        ]),
      ],
      [101n, new Set([SlotStatus.SLOT_STATUS_CREATED_BANK, SlotStatus.SLOT_STATUS_PROCESSED, SlotStatus.SLOT_STATUS_CONFIRMED])],
      [102n, new Set([SlotStatus.SLOT_STATUS_CREATED_BANK, SlotStatus.SLOT_STATUS_PROCESSED])],
    ]);
    a.seedPublished(inKafka);
    // 101 is the oldest slot not settled: the replay starts there.
    expect(a.replayStartFor(103n)).toBe(101n);
    a.startSubscription({ resumeFrom: 103n, replayFrom: 101n });
    const out = feed([
      ...block(101, 0, 0),
      status(101, YS.SLOT_CONFIRMED),
      ...block(102, 0, 0),
      status(101, YS.SLOT_FINALIZED),
      status(102, YS.SLOT_CONFIRMED),
      ...block(103, 0, 0),
    ]);
    expect(out.map((b) => b.slot)).toEqual([103n]);
    expect(out[0]!.events.map(shape)).toEqual([
      '101:SLOT_STATUS_FINALIZED',
      '102:SLOT_STATUS_CONFIRMED',
      '103:SLOT_STATUS_CREATED_BANK',
      '103:SLOT_STATUS_PROCESSED',
    ]);
  });

  it('names an update it cannot convert and goes on', () => {
    const { a, feed, notices } = assembler();
    a.startSubscription({});
    feed([SubscribeUpdate.fromPartial({ account: { slot: '5' } })]);
    expect(notices).toMatchObject([{ kind: 'unconvertible', slot: 5n, what: 'account' }]);
  });

  it('hands an unconvertible transaction over with its signature, and counts it so its slot is not held back', () => {
    const { a, feed, notices } = assembler();
    a.startSubscription({ replayFrom: 200n, resumeFrom: 200n });
    const broken = tx(200, 1);
    broken.transaction!.transaction!.meta = undefined;
    const out = feed([
      status(200, YS.SLOT_CREATED_BANK, 199),
      tx(200, 0),
      broken,
      entry(200, 0),
      meta(200, 2, 1),
      status(200, YS.SLOT_PROCESSED, 199),
    ]);
    expect(out.map((b) => b.events.map(shape))).toEqual([
      ['200:SLOT_STATUS_CREATED_BANK', 'tx 200/0', 'entry 200/0', '200:SLOT_STATUS_PROCESSED'],
    ]);
    expect(notices).toHaveLength(1);
    const n = notices[0]!;
    expect(n).toMatchObject({ kind: 'unconvertible', slot: 200n, what: 'transaction', reason: 'transaction 200/1: no meta' });
    if (n.kind !== 'unconvertible') throw new Error('unreachable');
    expect(Buffer.from(n.signature!)).toEqual(Buffer.alloc(64, 2));
    expect(n.update).toBe(broken);
  });
});

describe('subscription plan and request', () => {
  it('starts live when fresh, replays from where history stops or earlier, and names the gap otherwise', () => {
    expect(planSubscription(undefined, undefined, 5n)).toEqual({});
    expect(planSubscription(100n, 90n, 50n)).toEqual({ resumeFrom: 100n, replayFrom: 90n });
    expect(planSubscription(100n, 90n, 95n)).toEqual({ resumeFrom: 100n, replayFrom: 95n });
    expect(planSubscription(100n, 100n, 120n)).toMatchObject({
      resumeFrom: 100n,
      replayFrom: 120n,
      gapReason: expect.stringMatching(/replays from slot 120 only/),
    });
    expect(planSubscription(100n, 100n, undefined)).toMatchObject({
      resumeFrom: 100n,
      gapReason: expect.stringMatching(/does not replay/),
    });
  });

  it('asks for processed slots with interslot updates, block meta and the configured kinds and filters', () => {
    const f = {
      streams: ['transactions', 'entries'] as const,
      votes: false,
      txAccountInclude: ['A'],
      txAccountExclude: [],
      txAccountRequired: [],
      accounts: [],
      owners: [],
    };
    const r = subscribeRequest(f, 42n);
    expect(r.fromSlot).toBe('42');
    expect(r.commitment).toBe(0);
    expect(Object.values(r.slots)).toEqual([{ filterByCommitment: false, interslotUpdates: true }]);
    expect(Object.values(r.transactions)[0]).toMatchObject({ vote: false, accountInclude: ['A'] });
    expect(r.accounts).toEqual({});
    expect(Object.keys(r.entry)).toHaveLength(1);
    expect(receivesEveryTransaction(f)).toBe(false);
    expect(receivesEveryTransaction({ ...f, votes: true, txAccountInclude: [] })).toBe(true);
  });
});

describe('channelOf', () => {
  it('takes TLS from https (port 443 unless given), plaintext from http, and refuses other schemes', () => {
    expect(channelOf('https://grpc.example.com').target).toBe('grpc.example.com:443');
    expect(channelOf('https://grpc.example.com:2053').target).toBe('grpc.example.com:2053');
    expect(channelOf('https://grpc.example.com').credentials._isSecure()).toBe(true);
    expect(channelOf('http://127.0.0.1:10000').credentials._isSecure()).toBe(false);
    expect(() => channelOf('grpc://x:1')).toThrow(/must be http:\/\/ or https:\/\//);
  });
});

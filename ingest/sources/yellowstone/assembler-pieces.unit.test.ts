// The slot assembler handing the lowest slot under way over in pieces (--yellowstone-publish pieces): what goes
// out, in which batch, and that the pieces of a run are the whole-slot run's records (but the block time of the
// transactions sent before their block meta). Every run goes through the framer, which refuses a slot that starts
// while another is open.
import { describe, expect, it } from 'vitest';
import { encodeRecord, SlotStatus, type ChainEvent } from '../../../schemas/codec.js';
import { RECORD_KINDS, topicNames } from '../../../schemas/topics.js';
import { YellowstoneSlotStatus as YS, type SubscribeUpdate } from '../../../schemas/yellowstone/index.js';
import { SlotFramer } from '../../publish/framer.js';
import type { SlotBatch } from '../../source.js';
import { account, block, entry, meta, status, tx } from '../../../test/support/yellowstone/updates.js';
import { SlotAssembler, type AssemblerOptions, type Notice } from './assembler.js';

function run(updates: SubscribeUpdate[][], o: Partial<AssemblerOptions> = {}) {
  const notices: Notice[] = [];
  const a = new SlotAssembler({ countTransactions: true, countEntries: true, onNotice: (n) => notices.push(n), ...o });
  const framer = new SlotFramer(new Map(RECORD_KINDS.filter((k) => k !== 'parsed').map((k) => [k, 2])), topicNames('t'));
  const batches: SlotBatch[] = [];
  updates.forEach((us, i) => {
    if (i > 0) a.startSubscription({ resumeFrom: (a.lastSlot ?? 0n) + 1n, replayFrom: (a.lastSlot ?? 0n) + 1n });
    for (const u of us) {
      for (const b of a.push(u)) {
        framer.frame(b);
        batches.push(b);
      }
    }
  });
  return { batches, notices, open: framer.openSlot };
}

const shape = (e: ChainEvent): string =>
  e.kind === 'slots'
    ? `${e.event.slot}:${SlotStatus[e.event.status].replace('SLOT_STATUS_', '')}`
    : e.kind === 'entries'
      ? `e${e.event.slot}/${e.event.index}`
      : e.kind === 'transactions'
        ? `t${e.event.slot}/${e.event.index}`
        : e.kind === 'accounts'
          ? `a${e.event.slot}/${e.event.pubkey[0]}`
          : e.kind;
const metaWithParent = (slot: number, txs: number, parent: number): SubscribeUpdate => {
  const m = meta(slot, txs, 0);
  return { ...m, blockMeta: { ...m.blockMeta!, parentSlot: String(parent) } };
};
const pieces = (batches: SlotBatch[], slot: bigint) =>
  batches.filter((b) => b.slot === slot).map((b) => ({ partial: b.partial === true, events: b.events.map(shape) }));
/** Every record of a run by kind (a topic's order), encoded, with the transactions' block time left out. */
const records = (batches: SlotBatch[]) => {
  const byKind: Record<string, Buffer[]> = {};
  for (const e of batches.flatMap((b) => b.events)) {
    const value =
      e.kind === 'transactions' ? encodeRecord({ ...e, event: { ...e.event, blockTime: undefined } }).value : encodeRecord(e).value;
    (byKind[e.kind] ??= []).push(value);
  }
  return byKind;
};
const timesOf = (batches: SlotBatch[], slot: bigint) =>
  batches.flatMap((b) => b.events).flatMap((e) => (e.kind === 'transactions' && e.event.slot === slot ? [e.event.blockTime] : []));

describe('SlotAssembler in pieces', () => {
  it('hands the slot after the first whole one over as it arrives: transactions in index order, accounts, entries; the rest with the end marker', () => {
    const updates = [
      ...block(10, 1, 1),
      status(11, YS.SLOT_CREATED_BANK, 10),
      tx(11, 1),
      entry(11, 0),
      tx(11, 0),
      account(11, 7, 1),
      entry(11, 1),
      meta(11, 4, 2),
      tx(11, 2),
      status(11, YS.SLOT_PROCESSED, 10),
      tx(11, 3),
    ];
    const { batches, open } = run([updates], { pieces: true });
    // Slot 10 is where history begins: it goes out whole.
    expect(pieces(batches, 10n)).toHaveLength(1);
    expect(pieces(batches, 11n)).toEqual([
      { partial: true, events: ['e11/0'] },
      { partial: true, events: ['t11/0', 't11/1'] },
      { partial: true, events: ['a11/7'] },
      { partial: true, events: ['e11/1'] },
      { partial: true, events: ['t11/2'] },
      { partial: false, events: ['11:CREATED_BANK', 't11/3', '11:PROCESSED'] },
    ]);
    // Sent before the block meta: no block time (readers take the block's); after it, the block's.
    expect(timesOf(batches, 11n)).toEqual([undefined, undefined, 1_700_000_011n, 1_700_000_011n]);
    expect(open).toBeUndefined();
    // The same records as whole slots, but the block time of those sent early.
    expect(records(batches)).toEqual(records(run([updates]).batches));
  });

  it('opens a slot only once its parent is out: a later slot arriving first waits, then flushes when its parent ends', () => {
    const updates = [
      ...block(10, 0, 1),
      status(12, YS.SLOT_CREATED_BANK, 11),
      tx(12, 0),
      status(11, YS.SLOT_CREATED_BANK, 10),
      tx(11, 0),
      meta(11, 1, 0),
      status(11, YS.SLOT_PROCESSED, 10),
      tx(12, 1),
      meta(12, 2, 0),
      status(12, YS.SLOT_PROCESSED, 11),
    ];
    const { batches, notices } = run([updates], { pieces: true, countEntries: false });
    expect(batches.map((b) => `${b.slot}${b.partial ? '+' : ''}`)).toEqual(['10', '11+', '11', '12+', '12+', '12']);
    expect(pieces(batches, 12n)[0]!.events).toEqual(['t12/0']);
    expect(notices).toEqual([]);
    expect(records(batches)).toEqual(records(run([updates], { countEntries: false }).batches));
  });

  it('without a parent named, opens the slot right after the last one out, not one further (a skipped slot could be its parent)', () => {
    const updates = [
      ...block(10, 0, 0),
      tx(11, 0),
      meta(11, 2, 0),
      tx(11, 1),
      status(11, YS.SLOT_PROCESSED),
      tx(13, 0),
      tx(13, 1),
      metaWithParent(13, 2, 11),
      status(13, YS.SLOT_PROCESSED),
    ];
    const { batches } = run([updates], { pieces: true, countEntries: false });
    expect(batches.map((b) => `${b.slot}${b.partial ? '+' : ''}`)).toEqual(['10', '11+', '11+', '11', '13+', '13']);
    // Slot 13 opened once its block meta named its parent (12 was skipped, 11 is out).
    expect(pieces(batches, 13n)[0]!.events).toEqual(['t13/0', 't13/1']);
  });

  it('while more updates are at hand, a piece waits for them: one batch for what came together, or at a flush', () => {
    const a = new SlotAssembler({ countTransactions: true, countEntries: false, pieces: true });
    for (const u of block(10, 0, 0)) a.push(u);
    expect(a.push(tx(11, 0), true)).toEqual([]);
    expect(a.push(tx(11, 1), true)).toEqual([]);
    const [piece] = a.push(account(11, 3, 1), false);
    expect(piece!.partial).toBe(true);
    expect(piece!.events.map(shape)).toEqual(['t11/0', 't11/1', 'a11/3']);
    // A ping or a dropped duplicate was the last update at hand: the caller flushes.
    expect(a.push(tx(11, 2), true)).toEqual([]);
    expect(a.flush().flatMap((b) => b.events.map(shape))).toEqual(['t11/2']);
  });

  it("once a slot is open, a lower slot's data is late (named) and its statuses go with the next batch", () => {
    const { batches, notices } = run(
      [
        [
          ...block(10, 0, 1),
          status(12, YS.SLOT_CREATED_BANK, 10),
          tx(12, 0),
          status(11, YS.SLOT_CREATED_BANK, 10),
          tx(11, 0),
          meta(12, 1, 0),
          status(12, YS.SLOT_PROCESSED, 10),
        ],
      ],
      { pieces: true, countEntries: false },
    );
    expect(pieces(batches, 12n)).toEqual([
      { partial: true, events: ['t12/0'] },
      { partial: false, events: ['12:CREATED_BANK', '11:CREATED_BANK', '12:PROCESSED'] },
    ]);
    expect(notices).toEqual([{ kind: 'late-data', slot: 11n }]);
  });

  it("a resubscription's replay of the open slot sends nothing twice", () => {
    const first = [...block(10, 0, 1), status(11, YS.SLOT_CREATED_BANK, 10), tx(11, 0), entry(11, 0), account(11, 5, 1), tx(11, 1)];
    // The replay from slot 11: everything of it again, in another order, then the rest.
    const again = [
      status(11, YS.SLOT_CREATED_BANK, 10),
      account(11, 5, 1),
      tx(11, 1),
      tx(11, 0),
      entry(11, 0),
      tx(11, 2),
      account(11, 6, 2),
      entry(11, 1),
      meta(11, 3, 2),
      status(11, YS.SLOT_PROCESSED, 10),
    ];
    const { batches, notices } = run([first, again], { pieces: true });
    const out = batches.filter((b) => b.slot === 11n).flatMap((b) => b.events.map(shape));
    expect(out).toEqual(['t11/0', 'e11/0', 'a11/5', 't11/1', 't11/2', 'a11/6', 'e11/1', '11:CREATED_BANK', '11:PROCESSED']);
    expect(notices).toEqual([]);
  });

  it('an open slot that a live resubscription (no replay) joins part-way goes out incomplete, with its end marker', () => {
    const notices: Notice[] = [];
    const a = new SlotAssembler({ countTransactions: true, countEntries: false, pieces: true, onNotice: (n) => notices.push(n) });
    const framer = new SlotFramer(new Map(RECORD_KINDS.filter((k) => k !== 'parsed').map((k) => [k, 2])), topicNames('t'));
    const out = (us: SubscribeUpdate[]) => us.flatMap((u) => a.push(u)).map((b) => (framer.frame(b), b));
    const first = out([...block(10, 0, 0), tx(11, 0), tx(11, 1)]);
    expect(first.map((b) => `${b.slot}${b.partial ? '+' : ''}`)).toEqual(['10', '11+', '11+']);
    // The upstream cannot replay: live again, it sends the rest of slot 11 but a transaction, and two whole slots.
    a.startSubscription({ resumeFrom: 11n, gapReason: 'no replay' });
    const second = out([tx(11, 3), meta(11, 4, 0), status(11, YS.SLOT_PROCESSED, 10), ...block(12, 0, 0), ...block(13, 0, 0)]);
    expect(second.map((b) => `${b.slot}${b.partial ? '+' : ''}`)).toEqual(['11', '12', '13']);
    expect(pieces(second, 11n)[0]!.events.filter((e) => e.startsWith('t'))).toEqual(['t11/3']);
    expect(notices).toMatchObject([{ kind: 'incomplete', slot: 11n, transactions: 1, expectedTransactions: 4n }]);
    expect(framer.openSlot).toBeUndefined();
  });

  it('an open slot given up (no block while later slots are whole) ends with what is left and no end marker', () => {
    const { batches, notices, open } = run(
      [
        [
          ...block(10, 0, 1),
          status(11, YS.SLOT_CREATED_BANK, 10),
          tx(11, 0),
          tx(11, 2),
          ...block(12, 0, 1).map((u) => u),
          ...block(13, 0, 1),
        ],
      ],
      { pieces: true },
    );
    expect(batches.map((b) => `${b.slot}${b.partial ? '+' : ''}`)).toEqual(['10', '11+', '11', '12', '13']);
    expect(pieces(batches, 11n)[1]).toEqual({ partial: false, events: ['t11/2'] });
    expect(notices).toMatchObject([{ kind: 'abandoned', slot: 11n }]);
    // Its statuses go with the next batch, as any abandoned slot's.
    expect(pieces(batches, 12n)[0]!.events[0]).toBe('11:CREATED_BANK');
    expect(open).toBeUndefined();
  });

  it('with filtered transactions, each one above the last sent goes at once and a lower one waits for the last batch', () => {
    const { batches } = run(
      [
        [
          ...block(10, 0, 0),
          status(11, YS.SLOT_CREATED_BANK, 10),
          tx(11, 3),
          tx(11, 7),
          tx(11, 5),
          meta(11, 9, 0),
          status(11, YS.SLOT_PROCESSED, 10),
        ],
      ],
      { pieces: true, countTransactions: false, countEntries: false },
    );
    expect(pieces(batches, 11n)).toEqual([
      { partial: true, events: ['t11/3'] },
      { partial: true, events: ['t11/7'] },
      { partial: false, events: ['11:CREATED_BANK', 't11/5', '11:PROCESSED'] },
    ]);
  });

  it('does not open the slot a live subscription joined part-way, nor a dead one', () => {
    const { batches } = run(
      [
        [
          tx(9, 4),
          ...block(10, 0, 0),
          status(11, YS.SLOT_CREATED_BANK, 10),
          status(11, YS.SLOT_DEAD, 10),
          tx(11, 0),
          ...block(12, 1, 0).map((u) => (u.slot ? { ...u, slot: { ...u.slot, parent: '10' } } : u)),
        ],
      ],
      { pieces: true, countEntries: false },
    );
    expect(batches.map((b) => `${b.slot}${b.partial ? '+' : ''}`)).toEqual(['10', '11', '12+', '12']);
  });
});

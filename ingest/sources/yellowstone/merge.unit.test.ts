import { describe, expect, it } from 'vitest';
import { SubscribeUpdate, YellowstoneSlotStatus as YS } from '../../../schemas/yellowstone/index.js';
import { account, entry, meta, status as statusOf, tx } from '../../../test/support/yellowstone/updates.js';
import type { SlotBatch } from '../../source.js';
import { SlotAssembler } from './assembler.js';
import { identityOf, UpstreamMerge, type Verdict } from './merge.js';

// Statuses name their parent (the slot before), as a validator's do.
const status = (slot: number, st: YS): SubscribeUpdate => statusOf(slot, st, slot - 1);

/** A chain: per slot its records in wire order, its end, and statuses of earlier slots trailing behind. */
function chain(first: number, slots: number): SubscribeUpdate[] {
  const out: SubscribeUpdate[] = [];
  for (let s = first; s < first + slots; s++) {
    out.push(status(s, YS.SLOT_CREATED_BANK));
    for (let i = 0; i < 3; i++) out.push(entry(s, i), tx(s, i), account(s, i, s * 10 + i));
    out.push(meta(s, 3, 3), status(s, YS.SLOT_PROCESSED));
    if (s - 2 >= first) out.push(status(s - 2, YS.SLOT_CONFIRMED));
  }
  return out;
}

/** Feeds (upstream, update) pairs through a merge into one assembler: the batches and each update's verdict. */
function run(upstreams: number, feed: readonly [number, SubscribeUpdate][]): { batches: SlotBatch[]; verdicts: Verdict[] } {
  const merge = new UpstreamMerge(upstreams, 10);
  const asm = new SlotAssembler({ countTransactions: true, countEntries: true });
  asm.startSubscription({});
  const batches: SlotBatch[] = [];
  const verdicts: Verdict[] = [];
  for (const [i, u] of feed) {
    const v = merge.offer(i, u);
    verdicts.push(v);
    if (v === 'won') batches.push(...asm.push(u));
    merge.closedThrough(asm.lastSlot);
  }
  return { batches, verdicts };
}

const single = (updates: readonly SubscribeUpdate[]) =>
  run(
    1,
    updates.map((u) => [0, u] as [number, SubscribeUpdate]),
  ).batches;

describe('UpstreamMerge', () => {
  const updates = chain(100, 8);
  const reference = single(updates);

  it('the reference chain frames every slot but the two whose confirmations trail', () => {
    expect(reference.map((b) => b.slot)).toEqual([100n, 101n, 102n, 103n, 104n, 105n, 106n, 107n]);
    expect(reference.flatMap((b) => b.events).length).toBeGreaterThan(8 * 10);
  });

  it('two upstreams interleaved update by update: every record once, the same batches as one upstream', () => {
    const feed: [number, SubscribeUpdate][] = updates.flatMap((u) => [
      [0, u] as [number, SubscribeUpdate],
      [1, u] as [number, SubscribeUpdate],
    ]);
    const { batches, verdicts } = run(2, feed);
    expect(batches).toEqual(reference);
    expect(verdicts.filter((v) => v === 'won')).toHaveLength(updates.length);
    expect(verdicts.filter((v) => v !== 'won').length).toBe(updates.length);
  });

  it('one upstream lagging behind the other: the fast one wins everything, the laggard only repeats', () => {
    const lag = 25;
    const feed: [number, SubscribeUpdate][] = [];
    for (let k = 0; k < updates.length + lag; k++) {
      if (k < updates.length) feed.push([0, updates[k]!]);
      if (k - lag >= 0) feed.push([1, updates[k - lag]!]);
    }
    const { batches, verdicts } = run(2, feed);
    expect(batches).toEqual(reference);
    feed.forEach(([i], n) =>
      expect(verdicts[n], `update ${n} of upstream ${i}`).toBe(i === 0 ? 'won' : verdicts[n] === 'closed' ? 'closed' : 'duplicate'),
    );
  });

  it('the fast upstream drops out mid-slot: the lagging one completes the slot and carries on, no gap, nothing twice', () => {
    const cut = updates.findIndex((u) => u.entry?.slot === '103' && u.entry.index === '1');
    const lag = 30;
    const feed: [number, SubscribeUpdate][] = [];
    for (let k = 0; k < updates.length + lag; k++) {
      if (k < cut) feed.push([0, updates[k]!]);
      if (k - lag >= 0) feed.push([1, updates[k - lag]!]);
    }
    const { batches, verdicts } = run(2, feed);
    expect(batches).toEqual(reference);
    const won = feed.filter((_, n) => verdicts[n] === 'won');
    expect(won.filter(([i]) => i === 1).length).toBe(updates.length - cut);
  });

  it('a reconnected upstream replaying from an earlier slot adds only what nobody delivered yet', () => {
    // Upstream 0 delivers up to its cut, then resubscribes from slot 102 and replays from there.
    const cut = updates.findIndex((u) => u.slot?.slot === '104' && u.slot.status === YS.SLOT_PROCESSED);
    const replay = updates.filter((u) => identityOf(u)!.slot >= 102n);
    const feed: [number, SubscribeUpdate][] = [
      ...updates.slice(0, cut).map((u) => [0, u] as [number, SubscribeUpdate]),
      ...replay.map((u) => [0, u] as [number, SubscribeUpdate]),
    ];
    const { batches } = run(1, feed);
    // The replayed order of slot 102's confirmation differs (it follows slot 104 now): only its batch moves.
    expect(batches.map((b) => b.slot)).toEqual(reference.map((b) => b.slot));
    expect(batches.flatMap((b) => b.events).length).toBe(reference.flatMap((b) => b.events).length);
  });

  it('identities: statuses by slot and status, accounts by write version, entries by index', () => {
    const m = new UpstreamMerge(2, 10);
    expect(m.offer(0, status(5, YS.SLOT_PROCESSED))).toBe('won');
    expect(m.offer(1, status(5, YS.SLOT_PROCESSED))).toBe('duplicate');
    expect(m.offer(1, status(5, YS.SLOT_CONFIRMED))).toBe('won');
    expect(m.offer(0, account(5, 1, 50))).toBe('won');
    expect(m.offer(1, account(5, 1, 51))).toBe('won');
    expect(m.offer(1, account(5, 1, 50))).toBe('duplicate');
    expect(m.offer(0, account(6, 1, 50))).toBe('won');
    expect(m.offer(0, entry(5, 0))).toBe('won');
    expect(m.offer(1, entry(5, 0))).toBe('duplicate');
    expect(m.offer(1, entry(5, 1))).toBe('won');
    expect(m.offer(0, tx(5, 0))).toBe('won');
    expect(m.offer(1, tx(5, 0))).toBe('duplicate');
    expect(m.offer(1, tx(6, 0))).toBe('won');
    expect(m.offer(0, SubscribeUpdate.fromPartial({ ping: {} }))).toBe('ignored');
    // Handed over: data of slot 5 is dropped from now on, its statuses still count once.
    m.closedThrough(5n);
    expect(m.offer(1, entry(5, 2))).toBe('closed');
    expect(m.offer(1, status(5, YS.SLOT_CONFIRMED))).toBe('duplicate');
    expect(m.offer(1, status(5, YS.SLOT_FINALIZED))).toBe('won');
  });

  it('lag: an upstream that falls behind the fastest by more than the limit is a laggard, one catching up after a restart is not', () => {
    const m = new UpstreamMerge(2, 10);
    m.offer(0, status(100, YS.SLOT_PROCESSED));
    m.offer(1, status(100, YS.SLOT_PROCESSED));
    expect(m.laggards()).toEqual([]);
    m.offer(0, status(111, YS.SLOT_PROCESSED));
    expect(m.lag(1)).toBe(11);
    expect(m.lag(0)).toBe(0);
    expect(m.laggards()).toEqual([1]);
    m.restarted(1);
    expect(m.lag(1)).toBeUndefined();
    m.offer(1, status(90, YS.SLOT_CONFIRMED));
    expect(m.laggards()).toEqual([]);
    m.offer(1, status(105, YS.SLOT_PROCESSED));
    expect(m.laggards()).toEqual([]);
    m.offer(0, status(130, YS.SLOT_PROCESSED));
    expect(m.laggards()).toEqual([1]);
  });
});

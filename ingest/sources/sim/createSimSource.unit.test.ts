import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeRecord, type ChainEvent } from '../../../schemas/codec.js';
import type { SlotBatch } from '../../source.js';
import { createSimSource } from './createSimSource.js';
import { PIECE_MS, piecesFor } from './spread.js';
import { ConfigError } from '../../../platform/options.js';
import { collect, testOptions } from '../../../test/support/sim/checks.js';

const encodedBatch = (b: SlotBatch): Buffer[] =>
  b.events.flatMap((e) => {
    const r = encodeRecord(e);
    return [Buffer.from(e.kind), r.key, r.value];
  });

/** sha256 over the kind, key and value of the first `n` records of a run. */
async function digestFirst(n: number, seed: number): Promise<{ digest: string; count: number }> {
  const h = createHash('sha256');
  let count = 0;
  for await (const b of createSimSource(testOptions({ seed, maxSlots: 0 })).batches({})) {
    for (const e of b.events) {
      const r = encodeRecord(e);
      h.update(e.kind).update(r.key).update(r.value);
      if (++count === n) return { digest: h.digest('hex'), count };
    }
  }
  throw new Error('run ended early');
}

describe('createSimSource', () => {
  it('the same seed gives byte-identical first 10,000 records; another seed differs', async () => {
    const a = await digestFirst(10_000, 7);
    const b = await digestFirst(10_000, 7);
    const c = await digestFirst(10_000, 8);
    expect(a.count).toBe(10_000);
    expect(b.digest).toBe(a.digest);
    expect(c.digest).not.toBe(a.digest);
  });

  it('resuming after a slot gives exactly the batches of an uninterrupted run from there', async () => {
    const full = await collect({ maxSlots: 50, seed: 3 });
    expect(full.map((b) => b.slot)).toEqual(Array.from({ length: 50 }, (_, i) => BigInt(i)));
    for (const after of [0n, 17n, 48n]) {
      const resumed = await collect({ maxSlots: 50, seed: 3 }, after);
      const expected = full.filter((b) => b.slot > after);
      expect(resumed.map((b) => b.slot)).toEqual(expected.map((b) => b.slot));
      resumed.forEach((b, i) => expect(Buffer.concat(encodedBatch(b)).equals(Buffer.concat(encodedBatch(expected[i]!)))).toBe(true));
    }
    expect(await collect({ maxSlots: 50, seed: 3 }, 49n)).toEqual([]);
  });

  it('every record round-trips through encodeRecord/decodeRecord', async () => {
    const batches = await collect({ maxSlots: 12, tps: 1000, fast: true });
    const kinds = new Set<string>();
    for (const b of batches) {
      for (const e of b.events) {
        kinds.add(e.kind);
        const r = encodeRecord(e);
        const back = decodeRecord(e.kind, r.value);
        expect(back.ok).toBe(true);
        if (back.ok) expect(encodeRecord(back.value).value.equals(r.value)).toBe(true);
      }
    }
    expect([...kinds].sort()).toEqual(['accounts', 'entries', 'epochs', 'slots', 'transactions']);
  });

  it('orders each batch: genesis accounts, epoch, slot statuses, transactions, account writes', async () => {
    const batches = await collect({ maxSlots: 30, slotsPerEpoch: 32 });
    const rank = (e: ChainEvent, startup: boolean): number =>
      startup ? 0 : { epochs: 1, slots: 2, transactions: 3, accounts: 4, entries: 5 }[e.kind];
    let lastWv = 0n;
    for (const b of batches) {
      const ranks = b.events.map((e) => rank(e, e.kind === 'accounts' && e.event.isStartup));
      expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
      const sigs = new Set(b.events.flatMap((e) => (e.kind === 'transactions' ? [e.event.signatures[0]!.toString('hex')] : [])));
      for (const e of b.events) {
        if (e.kind === 'transactions') expect(e.event.slot).toBe(b.slot);
        if (e.kind !== 'accounts') continue;
        expect(e.event.writeVersion).toBeGreaterThan(lastWv);
        lastWv = e.event.writeVersion;
        expect(e.event.isStartup).toBe(b.slot === 0n);
        if (e.event.txnSignature) expect(sigs.has(e.event.txnSignature.toString('hex'))).toBe(true);
      }
    }
    expect(batches[0]!.events[0]!.kind).toBe('accounts');
    expect(batches[0]!.events.filter((e) => e.kind === 'epochs')).toHaveLength(1);
  });

  it('paces slots on the wall clock, each handed over in pieces across its duration, and stops on abort', async () => {
    const SLOT_MS = 80;
    const src = createSimSource(testOptions({ slotMs: SLOT_MS, tps: 200, maxSlots: 0 }));
    const ac = new AbortController();
    const t0 = performance.now();
    const slots: bigint[] = [];
    const pieces = new Map<bigint, { at: number; n: number; partial: boolean }[]>();
    for await (const b of src.batches({ signal: ac.signal })) {
      if (slots.at(-1) !== b.slot) slots.push(b.slot);
      pieces.set(b.slot, [...(pieces.get(b.slot) ?? []), { at: performance.now() - t0, n: b.events.length, partial: b.partial === true }]);
      if (!b.partial && slots.length === 6) ac.abort();
    }
    expect(slots).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    // 5 slots of 80 ms between the first slot's start and the sixth's.
    expect(pieces.get(5n)![0]!.at).toBeGreaterThanOrEqual(5 * SLOT_MS - 5);
    for (const [slot, ps] of pieces) {
      // Only the last piece ends the slot; a slot with enough events comes in several pieces spread
      // over its 80 ms (not all at its start): piece i never goes out before its time in the slot, i × PIECE_MS
      // (a loaded machine only makes pieces late, so this holds however busy it is).
      expect(ps.map((p) => p.partial)).toEqual(ps.map((_, i) => i < ps.length - 1));
      if (slot > 0n && ps.reduce((n, p) => n + p.n, 0) >= piecesFor(SLOT_MS)) {
        expect(ps.length).toBe(piecesFor(SLOT_MS));
        ps.forEach((p, i) => expect(p.at).toBeGreaterThanOrEqual(Number(slot) * SLOT_MS + i * PIECE_MS - 0.5));
      }
    }
  });

  it('pieces of a paced slot concatenate to the unpaced slot', async () => {
    const paced: SlotBatch[] = [];
    for await (const b of createSimSource(testOptions({ slotMs: 8, tps: 200, maxSlots: 4 })).batches({})) paced.push(b);
    const whole: SlotBatch[] = [];
    for await (const b of createSimSource(testOptions({ slotMs: 0, tps: 200, maxSlots: 4 })).batches({})) whole.push(b);
    for (const w of whole) {
      const ps = paced.filter((p) => p.slot === w.slot);
      expect(ps.flatMap((p) => p.events)).toEqual(w.events);
      expect(ps.at(-1)!.partial).toBeUndefined();
    }
  });

  it('notes say when fast mode uses unsigned signatures', () => {
    expect(createSimSource(testOptions({ fast: true })).notes.join(' ')).toMatch(/NOT ed25519/);
    expect(createSimSource(testOptions({ fast: false })).notes.join(' ')).not.toMatch(/NOT ed25519/);
  });

  it('notes say whether entries are published and the dead-fork rate', () => {
    expect(createSimSource(testOptions({})).notes[0]).toMatch(/dead-fork rate 0\.01, entries published/);
    expect(createSimSource(testOptions({ entries: false, deadRate: 0 })).notes[0]).toMatch(/dead-fork rate 0, no entries/);
  });

  it('rejects bad options naming the option', () => {
    expect(() => createSimSource(testOptions({ deadRate: 0.6 }))).toThrow(/deadRate/);
    expect(() => createSimSource(testOptions({ entries: undefined as never }))).toThrow(/entries/);
    expect(() => createSimSource(testOptions({ skipRate: 1.5 }))).toThrow(ConfigError);
    expect(() => createSimSource(testOptions({ validators: 0 }))).toThrow(/validators/);
    expect(() => createSimSource(testOptions({ tps: 1.5 }))).toThrow(/tps/);
  });
});

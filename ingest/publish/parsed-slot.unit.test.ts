// ParsedSlot builds, per whole slot, one record per pump transaction with content: the update joined with the writes
// that transaction made (found here by a plain search of the slot's events), failed ones included, with the facts the
// request filters read. Simulated current-layout traffic: hot curves (several trades a slot), routers, PumpSwap.
import { describe, expect, it } from 'vitest';
import { SubscribeUpdateParsedTransaction } from '../../proto/gen/stream.js';
import { ParsedFacts, type AccountEvent, type TransactionEvent } from '../../schemas/gen/events.js';
import { encodeParsed } from '../../schemas/pumpfun/encode-parsed.js';
import { parsedFactsOf } from '../../schemas/pumpfun/parsed-facts.js';
import { scanParsedTransaction } from '../../schemas/pumpfun/parsed-scan.js';
import { collect } from '../../test/support/sim/checks.js';
import { ParsedSlot } from './parsed-slot.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('ParsedSlot', () => {
  it('builds each pump transaction’s update with its own curve/pool write, and the facts beside it', async () => {
    const batches = await collect({ seed: 7, maxSlots: 12, fast: true, tps: 1000 });
    // The reference: per slot, each transaction with content, its writes found by signature and pubkey.
    const expected = new Map<string, { tx: TransactionEvent; bytes: Buffer }>();
    const bySlot = new Map<bigint, { txs: TransactionEvent[]; writes: AccountEvent[] }>();
    for (const b of batches)
      for (const e of b.events) {
        const s = bySlot.get(b.slot) ?? { txs: [], writes: [] };
        bySlot.set(b.slot, s);
        if (e.kind === 'transactions') s.txs.push(e.event);
        else if (e.kind === 'accounts') s.writes.push(e.event);
      }
    for (const { txs, writes } of bySlot.values())
      for (const tx of txs) {
        const scan = scanParsedTransaction(tx);
        if (scan.instructions.length + scan.events.length === 0) continue;
        const own = (k: Buffer | undefined) =>
          k && writes.find((w) => w.pubkey.equals(k) && w.txnSignature !== undefined && hex(w.txnSignature) === hex(tx.signatures[0]!));
        expected.set(hex(tx.signatures[0]!), {
          tx,
          bytes: encodeParsed(tx, scan, own(scan.curve) || undefined, own(scan.pool) || undefined),
        });
      }

    const slot = new ParsedSlot();
    const built = [];
    for (const b of batches) {
      for (const e of b.events) slot.add(e);
      if (!b.partial) built.push(...slot.take());
    }
    expect(built.length).toBeGreaterThan(1_000);
    expect(built.map((r) => hex(r.signature)).sort()).toEqual([...expected.keys()].sort());
    const differ = built.filter((r) => !Buffer.from(r.update).equals(expected.get(hex(r.signature))!.bytes)).map((r) => hex(r.signature));
    expect(differ).toEqual([]);
    expect(built.some((r) => r.failed)).toBe(true);

    let joined = 0;
    const perCurveSlot = new Map<string, number>();
    for (const r of built) {
      const { tx } = expected.get(hex(r.signature))!;
      const scan = scanParsedTransaction(tx);
      expect([r.slot, r.index, r.failed, r.hasInstruction]).toEqual([tx.slot, tx.index, scan.failed, scan.instructions.length > 0]);
      expect(ParsedFacts.decode(r.facts)).toEqual(parsedFactsOf(tx, scan));
      const u = SubscribeUpdateParsedTransaction.decode(r.update);
      if (!u.account?.account) continue;
      joined++;
      expect(hex(u.account.account.txnSignature!)).toBe(hex(u.signature));
      const k = `${u.slot}:${hex(u.account.account.pubkey)}`;
      perCurveSlot.set(k, (perCurveSlot.get(k) ?? 0) + 1);
    }
    expect(joined).toBeGreaterThan(500);
    expect(Math.max(...perCurveSlot.values())).toBeGreaterThan(1);
  });
});

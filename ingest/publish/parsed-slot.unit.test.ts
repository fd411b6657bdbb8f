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
import { expectEqual } from '../../test/support/harness/expect-equal.js';
import { ParsedSlot } from './parsed-slot.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('ParsedSlot', () => {
  it('builds each pump transaction’s update with its own curve/pool write, and the facts beside it', async () => {
    const batches = await collect({ seed: 7, maxSlots: 12, fast: true, tps: 1000 });
    // The reference: per slot, each transaction with content, its writes found by signature and pubkey.
    const expected = new Map<string, { tx: TransactionEvent; scan: ReturnType<typeof scanParsedTransaction>; bytes: Buffer }>();
    // A slot's writes grouped by the signature that caused them (searching all of a slot's writes per transaction was
    // most of the test's time at 1,000 tps).
    const bySlot = new Map<bigint, { txs: TransactionEvent[]; writesBySig: Map<string, AccountEvent[]> }>();
    for (const b of batches)
      for (const e of b.events) {
        const s = bySlot.get(b.slot) ?? { txs: [] as TransactionEvent[], writesBySig: new Map<string, AccountEvent[]>() };
        bySlot.set(b.slot, s);
        if (e.kind === 'transactions') s.txs.push(e.event);
        else if (e.kind === 'accounts' && e.event.txnSignature !== undefined) {
          const k = hex(e.event.txnSignature);
          const list = s.writesBySig.get(k);
          if (list) list.push(e.event);
          else s.writesBySig.set(k, [e.event]);
        }
      }
    for (const { txs, writesBySig } of bySlot.values())
      for (const tx of txs) {
        const scan = scanParsedTransaction(tx);
        if (scan.instructions.length + scan.events.length === 0) continue;
        const writes = writesBySig.get(hex(tx.signatures[0]!)) ?? [];
        const own = (k: Buffer | undefined) => k && writes.find((w) => w.pubkey.equals(k));
        expected.set(hex(tx.signatures[0]!), {
          tx,
          scan,
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
      const { tx, scan } = expected.get(hex(r.signature))!;
      expectEqual([r.slot, r.index, r.failed, r.hasInstruction], [tx.slot, tx.index, scan.failed, scan.instructions.length > 0]);
      expectEqual(ParsedFacts.decode(r.facts), parsedFactsOf(tx, scan));
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

// ParsedSlot builds, per whole slot, the bytes the api's SubscribeParsed path sends at processed (its join fed the
// same chain in order), and pairs every trade of a hot curve with its own write.
import { describe, expect, it } from 'vitest';
import { SubscribeUpdateParsedTransaction } from '../../proto/gen/stream.js';
import { ParsedUpdate } from '../../api/grpc/stream/parsed-update.js';
import { PumpJoin } from '../../api/pumpfun/join.js';
import { collect } from '../../test/support/sim/checks.js';
import { ParsedSlot } from './parsed-slot.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('ParsedSlot', () => {
  it("builds each pump transaction's update as the api's join does, every trade with its own curve/pool write", async () => {
    const batches = await collect({ seed: 7, maxSlots: 12, fast: true, tps: 1000 });
    // The api's path at processed: one join over the chain in publish order.
    const api = new Map<string, Buffer>();
    const join = new PumpJoin<ParsedUpdate>((p, curve, pool) => api.set(hex(p.tx.signatures[0]!), p.bytes(curve, pool)), {
      idleMs: 3_600_000,
    });
    let last = 0n;
    for (const b of batches)
      for (const e of b.events) {
        if (e.kind === 'transactions') {
          const u = new ParsedUpdate(e.event);
          if (u.hasContent) join.onTransaction(u);
          else join.onOtherTransaction(e.event.slot);
          if (e.event.slot > last) last = e.event.slot;
        } else if (e.kind === 'accounts')
          join.onAccount({ slot: e.event.slot, pubkey: e.event.pubkey, txnSignature: e.event.txnSignature, event: e.event });
      }
    // Later chain positions release whatever still waits.
    join.onOtherTransaction(last + 10n);
    join.onAccount({ slot: last + 10n, pubkey: Buffer.alloc(32), txnSignature: undefined, event: undefined as never });
    join.stop();

    const built = new Map<string, Buffer>();
    const slot = new ParsedSlot();
    for (const b of batches) {
      for (const e of b.events) slot.add(e);
      if (!b.partial) for (const u of slot.take()) built.set(hex(u.tx.signatures[0]!), u.bytes);
    }
    expect(built.size).toBeGreaterThan(1_000);
    expect([...built.keys()].sort()).toEqual([...api.keys()].sort());
    const differ = [...built].filter(([sig, bytes]) => !bytes.equals(api.get(sig)!)).map(([sig]) => sig);
    expect(differ).toEqual([]);

    // Each update's write is its own, and hot curves (several trades a slot) are in the sample.
    let joined = 0;
    const perCurveSlot = new Map<string, number>();
    for (const bytes of built.values()) {
      const u = SubscribeUpdateParsedTransaction.decode(bytes);
      if (!u.account?.account) continue;
      joined++;
      expect(hex(u.account.account.txnSignature!)).toBe(hex(u.signature));
      const k = `${u.slot}:${hex(u.account.account.pubkey)}`;
      perCurveSlot.set(k, (perCurveSlot.get(k) ?? 0) + 1);
    }
    expect(joined).toBeGreaterThan(500);
    expect(Math.max(...perCurveSlot.values())).toBeGreaterThan(1);
  }, 120_000);
});

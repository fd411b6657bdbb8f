import { describe, expect, it } from 'vitest';
import type { AccountEvent, TransactionEvent } from '../../../schemas/codec.js';
import { encodeMessage } from '../../../schemas/wire.js';
import { BONDING_CURVE_LEN, readCurve } from './layouts.js';
import { PUMP_ACCOUNT, PUMP_IX, PUMP_PROGRAM, rentExempt } from './programs.js';
import { collect, lamportTotals, latestAccounts, mintBalances, verifyEd25519 } from '../../../test/support/sim/checks.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

async function run(o: Parameters<typeof collect>[0]) {
  const batches = await collect(o);
  const txs: TransactionEvent[] = [];
  const writes: AccountEvent[] = [];
  for (const b of batches) {
    for (const e of b.events) {
      if (e.kind === 'transactions') txs.push(e.event);
      if (e.kind === 'accounts') writes.push(e.event);
    }
  }
  return { txs, writes };
}

describe('ledger consistency', async () => {
  // Enough validators for 2/3 of 1,500 tps to be votes: each votes at most once a block (~420 votes).
  const { txs, writes } = await run({ maxSlots: 120, tps: 1500, fast: true, seed: 5, validators: 500 });
  const finalState = latestAccounts(writes);

  it('lamports are conserved apart from the burned half of signature fees', () => {
    const { genesis, end, burned } = lamportTotals(txs, writes);
    expect(burned).toBeGreaterThan(0n);
    expect(end).toBe(genesis - burned);
  });

  it('per mint, token account balances add up to the mint supply', () => {
    const mints = mintBalances(writes);
    expect(mints.size).toBeGreaterThan(5); // two stable mints plus pump.fun coins
    for (const [mint, m] of mints) expect({ mint, held: m.held }).toEqual({ mint, held: m.supply });
  });

  it('bonding curves hold rent + real SOL and follow the constant product', () => {
    const curves = [...finalState.values()].filter((w) => w.owner.equals(PUMP_PROGRAM) && w.data.length === BONDING_CURVE_LEN);
    expect(curves.length).toBeGreaterThan(3);
    for (const w of curves) {
      expect(w.data.subarray(0, 8).equals(PUMP_ACCOUNT.bondingCurve)).toBe(true);
      const c = readCurve(w.data);
      expect(w.lamports).toBe(rentExempt(BONDING_CURVE_LEN) + c.realSolReserves);
      // Rounding always favours the curve, so k never shrinks below its starting value.
      expect(c.virtualTokenReserves * c.virtualSolReserves).toBeGreaterThanOrEqual(1_073_000_000_000_000n * 30_000_000_000n);
      expect(c.complete).toBe(c.realTokenReserves === 0n);
    }
  });

  it('fees: 5,000 per signature plus priority; failed transactions write only the fee payer', () => {
    const bySig = new Map<string, AccountEvent[]>();
    for (const w of writes) {
      if (!w.txnSignature) continue;
      const k = hex(w.txnSignature);
      const list = bySig.get(k);
      if (list) list.push(w);
      else bySig.set(k, [w]);
    }
    const failed = txs.filter((t) => t.err !== undefined);
    expect(failed.length).toBeGreaterThan(0);
    for (const t of txs) {
      expect(t.fee).toBeGreaterThanOrEqual(BigInt(t.numRequiredSignatures) * 5000n);
      const w = bySig.get(hex(t.signatures[0]!)) ?? [];
      if (t.err !== undefined) {
        expect(w.map((x) => hex(x.pubkey))).toEqual([hex(t.accountKeys[0]!)]);
      } else {
        const writable = t.accountKeys.filter((_, i) =>
          i < t.numRequiredSignatures
            ? i < t.numRequiredSignatures - t.numReadonlySignedAccounts
            : i < t.accountKeys.length - t.numReadonlyUnsignedAccounts,
        );
        expect(w.map((x) => hex(x.pubkey)).sort()).toEqual([...writable, ...t.loadedWritable].map(hex).sort());
      }
    }
    expect(txs.some((t) => t.fee > BigInt(t.numRequiredSignatures) * 5000n)).toBe(true);
  });

  it("has a realistic mix: ~2/3 votes, v0 with lookups, today's pump.fun instructions, slippage failures", () => {
    const votes = txs.filter((t) => t.isVote).length / txs.length;
    expect(votes).toBeGreaterThan(0.6);
    expect(votes).toBeLessThan(0.72);
    expect(txs.some((t) => t.versioned && t.loadedWritable.length > 0)).toBe(true);
    const pumpIxs = txs.flatMap((t) =>
      t.instructions.filter((ix) => t.accountKeys[ix.programIdIndex]!.equals(PUMP_PROGRAM)).map((ix) => ({ t, ix })),
    );
    const named = (d: Buffer) => Object.entries(PUMP_IX).find(([, v]) => d.subarray(0, 8).equals(v))?.[0];
    const kinds = new Set(pumpIxs.map(({ ix }) => named(ix.data)));
    // Top level (the rest goes through the router; pump-traffic.unit.test.ts checks every kind and layout).
    for (const k of ['create', 'createV2', 'buy', 'buyExactSolIn', 'buyV2', 'buyExactQuoteInV2', 'sell', 'sellV2'])
      expect(kinds).toContain(k);
    // Today's account lists and argument layouts (the October 2026 IDL's, pump-2026-10.md §1.4: buy and buy_exact_sol_in
    // end with track_volume then partial_fill, 26 bytes; buy_v2 and buy_exact_quote_in_v2 with partial_fill, 25).
    const layout: Record<string, [accounts: number, dataLen: number]> = {
      buy: [16, 26],
      buyExactSolIn: [16, 26],
      buyV2: [27, 25],
      buyExactQuoteInV2: [27, 25],
      sell: [14, 24],
      sellV2: [26, 24],
    };
    for (const { ix } of pumpIxs) {
      const k = named(ix.data)!;
      if (layout[k]) expect([k, ix.accounts.length, ix.data.length]).toEqual([k, ...layout[k]]);
      if (k === 'create') expect(ix.accounts.length).toBe(14);
      // create_v2: 16, or 19 / 21 / 24 with the remaining accounts that select a USDC / pump-coin quote, the last when
      // the quote coin migrated (its pool and vaults too; IDL-2293 docs, CREATE_WITH_PUMP_COIN_QUOTE.md).
      if (k === 'createV2') expect([16, 19, 21, 24]).toContain(ix.accounts.length);
    }
    const errs = txs.flatMap((t) => (t.err ? [t.err] : []));
    expect(errs.some((e) => /\{"Custom":600[23]\}/.test(e))).toBe(true);
    expect(errs.some((e) => /\{"Custom":6042\}/.test(e))).toBe(true);
    for (const e of errs) expect(e).toMatch(/^\{"InstructionError":\[\d+,(\{"Custom":\d+\}|"\w+")\]\}$/);
  });
});

describe('signatures', () => {
  it('every signature verifies against encodeMessage when not in fast mode', async () => {
    const { txs } = await run({ maxSlots: 10, tps: 300, seed: 9 });
    expect(txs.length).toBeGreaterThan(50);
    for (const t of txs) {
      const msg = encodeMessage(t);
      expect(t.signatures.length).toBe(t.numRequiredSignatures);
      t.signatures.forEach((sig, i) => expect(verifyEd25519(msg, sig, t.accountKeys[i]!)).toBe(true));
    }
  });

  it('fast mode signatures are seeded bytes that do not verify', async () => {
    const { txs } = await run({ maxSlots: 3, tps: 100, seed: 9, fast: true });
    const t = txs[0]!;
    expect(verifyEd25519(encodeMessage(t), t.signatures[0]!, t.accountKeys[0]!)).toBe(false);
  });
});

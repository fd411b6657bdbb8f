// The simulator's pump.fun and PumpSwap traffic, checked with the project's decoder (api/pumpfun, written
// independently from the official IDLs): every instruction and event the simulator emits decodes whole (no
// unknown, truncated, invalid, absent or trailing bytes) with the values the chain meant. The values are checked
// against the chain itself, never against the simulator's code: the constant-product math written here, the
// token balances and lamports in the transaction's meta, the account writes the transaction caused.
// This file checks the shapes of before October 2026 (the mix pinned to PRE_2026_10_PUMP_MIX); the October 2026
// shapes (v3 and PumpSwap v2 trades, sweeps, synthetic migrations) are checked in pump-2026-10.unit.test.ts.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import type { AccountEvent, TransactionEvent } from '../../../schemas/codec.js';
import { extractPumpTransaction, keyAt, type PumpEventAt, type PumpInstructionAt } from '../../../schemas/pumpfun/extract.js';
import type { Fields } from '../../../schemas/pumpfun/layout.js';
import { scanPumpTransaction } from '../../../schemas/pumpfun/parse-transaction.js';
import { collect } from '../../../test/support/sim/checks.js';
import { NATIVE_MINT, PUMP_AMM_PROGRAM, PUMP_PROGRAM, SIM_ROUTER_PROGRAM } from './programs.js';
import { PRE_2026_10_PUMP_MIX } from './pump-mix.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const b58 = (b: Uint8Array): string => bs58.encode(b);
const ceilBps = (v: bigint, bps: bigint): bigint => (v * bps + 9_999n) / 10_000n;
const ZERO_KEY = Buffer.alloc(32);

interface Decoded {
  name: string;
  fields: Fields;
}

function decodedOf(x: PumpInstructionAt | PumpEventAt): Decoded {
  const d = x.decoded;
  // Whole: a known discriminator, every field of today's layout present, nothing after them.
  expect(d.kind, `${x.program} ${d.kind === 'decoded' ? d.name : JSON.stringify(d)}`).toBe('decoded');
  if (d.kind !== 'decoded') throw new Error('unreachable');
  expect(d.absent, `${d.name} lacks fields`).toEqual([]);
  expect(d.trailingBytes, `${d.name} has trailing bytes`).toBe(0);
  return { name: d.name, fields: d.fields };
}

/** A named account of a decoded instruction (its account list has exactly today's length). */
function account(ix: PumpInstructionAt, name: string): Buffer {
  if (ix.decoded.kind !== 'decoded') throw new Error('not decoded');
  const names = ix.decoded.def.accounts;
  expect(ix.accounts.length, `${ix.decoded.name} account count`).toBe(names.length);
  const i = names.indexOf(name);
  if (i < 0) throw new Error(`${ix.decoded.name} has no account ${name}`);
  return ix.accounts[i]!;
}

/** Token balance of an account before and after the transaction (0 where the meta lists none). */
function tokenDelta(tx: TransactionEvent, key: Buffer): { pre: bigint; post: bigint } {
  const keys = [...tx.accountKeys, ...tx.loadedWritable, ...tx.loadedReadonly];
  const i = keys.findIndex((k) => k.equals(key));
  const at = (list: TransactionEvent['preTokenBalances']) => list.find((b) => b.accountIndex === i)?.amount ?? 0n;
  return { pre: at(tx.preTokenBalances), post: at(tx.postTokenBalances) };
}

function lamportDelta(tx: TransactionEvent, key: Buffer): bigint {
  const keys = [...tx.accountKeys, ...tx.loadedWritable, ...tx.loadedReadonly];
  const i = keys.findIndex((k) => k.equals(key));
  return tx.postBalances[i]! - tx.preBalances[i]!;
}

/** Curve before a trade, from the reserves the event reports after it. */
function curveBefore(f: Fields): { vS: bigint; vT: bigint; rT: bigint } {
  const sol = f.sol_amount as bigint;
  const tokens = f.token_amount as bigint;
  const sign = f.is_buy ? 1n : -1n;
  return {
    vS: (f.virtual_sol_reserves as bigint) - sign * sol,
    vT: (f.virtual_token_reserves as bigint) + sign * tokens,
    rT: (f.real_token_reserves as bigint) + sign * tokens,
  };
}

const IX_NAME: Record<string, string> = {
  buy: 'buy',
  buy_v2: 'buy',
  buy_exact_sol_in: 'buy_exact_sol_in',
  buy_exact_quote_in_v2: 'buy_exact_quote_in',
  sell: 'sell',
  sell_v2: 'sell',
};

/** `createdSupply`: the curve was created by this transaction with that many tokens (its account had none before). */
function checkTrade(tx: TransactionEvent, ix: PumpInstructionAt, ev: Decoded, writes: AccountEvent[], createdSupply?: bigint): void {
  const name = (ix.decoded as { name: string }).name;
  const args = (ix.decoded as { fields: Fields }).fields;
  const f = ev.fields;
  const v2 = name.endsWith('_v2');
  const isBuy = name.startsWith('buy');
  expect(f.is_buy).toBe(isBuy);
  expect(f.ix_name).toBe(IX_NAME[name]);
  expect(b58(f.mint as Buffer)).toBe(b58(account(ix, v2 ? 'base_mint' : 'mint')));
  expect(b58(f.user as Buffer)).toBe(b58(account(ix, 'user')));
  expect(f.timestamp).toBe(tx.blockTime);
  const sol = f.sol_amount as bigint;
  const tokens = f.token_amount as bigint;
  const b = curveBefore(f);
  // The constant-product curve: buys pay tokens*vS/(vT-tokens)+1 (or get sol*vT/(vS+sol) for exact SOL in),
  // sells receive tokens*vS/(vT+tokens).
  if (!isBuy) {
    expect(sol).toBe((tokens * b.vS) / (b.vT + tokens));
    expect(tokens).toBe(args.amount);
    expect(sol - (f.fee as bigint) - (f.creator_fee as bigint)).toBeGreaterThanOrEqual(args.min_sol_output as bigint);
  } else if (name === 'buy' || name === 'buy_v2') {
    expect(sol).toBe((tokens * b.vS) / (b.vT - tokens) + 1n);
    expect(tokens).toBe((args.amount as bigint) < b.rT ? args.amount : b.rT);
    expect(sol + (f.fee as bigint) + (f.creator_fee as bigint)).toBeLessThanOrEqual(args.max_sol_cost as bigint);
  } else {
    const spend = (name === 'buy_exact_sol_in' ? args.spendable_sol_in : args.spendable_quote_in) as bigint;
    if (tokens === b.rT)
      expect(sol).toBe((tokens * b.vS) / (b.vT - tokens) + 1n); // the curve's last tokens
    else expect(tokens).toBe((sol * b.vT) / (b.vS + sol));
    expect(sol + (f.fee as bigint) + (f.creator_fee as bigint)).toBeLessThanOrEqual(spend);
    expect(tokens).toBeGreaterThanOrEqual(args.min_tokens_out as bigint);
  }
  expect(f.fee).toBe(ceilBps(sol, f.fee_basis_points as bigint));
  expect(f.creator_fee).toBe(ceilBps(sol, f.creator_fee_basis_points as bigint));
  expect(f.quote_mint).toEqual(ZERO_KEY);
  expect(f.quote_amount).toBe(sol);
  // What the meta and the account writes say happened.
  const curve = account(ix, 'bonding_curve');
  const curveAta = account(ix, v2 ? 'associated_base_bonding_curve' : 'associated_bonding_curve');
  const t = tokenDelta(tx, curveAta);
  const pre = createdSupply ?? t.pre;
  expect(isBuy ? pre - t.post : t.post - pre).toBe(tokens);
  if (createdSupply === undefined) expect(lamportDelta(tx, curve)).toBe(isBuy ? sol : -sol);
  const w = writes.findLast((x) => x.pubkey.equals(curve))!;
  expect(w.data.readBigUInt64LE(8)).toBe(f.virtual_token_reserves);
  expect(w.data.readBigUInt64LE(16)).toBe(f.virtual_sol_reserves);
  expect(w.data.readBigUInt64LE(24)).toBe(f.real_token_reserves);
  expect(w.data.readBigUInt64LE(32)).toBe(f.real_sol_reserves);
  expect(w.data[48] === 1).toBe(f.real_token_reserves === 0n);
}

function checkSwap(tx: TransactionEvent, ix: PumpInstructionAt, ev: Decoded): void {
  const name = (ix.decoded as { name: string }).name;
  const args = (ix.decoded as { fields: Fields }).fields;
  const f = ev.fields;
  expect(ev.name).toBe(name === 'buy' ? 'BuyEvent' : 'SellEvent');
  expect(b58(f.pool as Buffer)).toBe(b58(account(ix, 'pool')));
  expect(b58(f.user as Buffer)).toBe(b58(account(ix, 'user')));
  const base = tokenDelta(tx, account(ix, 'pool_base_token_account'));
  const quote = tokenDelta(tx, account(ix, 'pool_quote_token_account'));
  // Reserves are reported as they were before the trade.
  expect(f.pool_base_token_reserves).toBe(base.pre);
  expect(f.pool_quote_token_reserves).toBe(quote.pre);
  const B = base.pre;
  const Q = quote.pre;
  const lp = f.lp_fee as bigint;
  const protocol = f.protocol_fee as bigint;
  const creator = f.coin_creator_fee as bigint;
  if (name === 'buy') {
    const out = f.base_amount_out as bigint;
    expect(out).toBe(args.base_amount_out);
    const q = f.quote_amount_in as bigint;
    expect(q).toBe((out * Q + (B - out) - 1n) / (B - out));
    expect(lp).toBe(ceilBps(q, f.lp_fee_basis_points as bigint));
    expect(f.user_quote_amount_in).toBe(q + lp + protocol + creator);
    expect(f.user_quote_amount_in as bigint).toBeLessThanOrEqual(args.max_quote_amount_in as bigint);
    expect(base.pre - base.post).toBe(out);
    expect(quote.post - quote.pre).toBe(q + lp);
  } else {
    const inAmt = f.base_amount_in as bigint;
    expect(inAmt).toBe(args.base_amount_in);
    const q = f.quote_amount_out as bigint;
    expect(q).toBe((inAmt * Q) / (B + inAmt));
    expect(lp).toBe(ceilBps(q, f.lp_fee_basis_points as bigint));
    expect(f.user_quote_amount_out).toBe(q - lp - protocol - creator);
    expect(f.user_quote_amount_out as bigint).toBeGreaterThanOrEqual(args.min_quote_amount_out as bigint);
    expect(base.post - base.pre).toBe(inAmt);
    expect(quote.pre - quote.post).toBe(q - lp);
  }
  expect(protocol).toBe(
    ceilBps(name === 'buy' ? (f.quote_amount_in as bigint) : (f.quote_amount_out as bigint), f.protocol_fee_basis_points as bigint),
  );
}

describe('simulated pump.fun and PumpSwap traffic, through the project decoder', async () => {
  const batches = await collect({ maxSlots: 260, tps: 600, fast: true, seed: 3, validators: 400, pumpMix: PRE_2026_10_PUMP_MIX });
  const kinds = new Map<string, number>();
  const note = (k: string): void => void kinds.set(k, (kinds.get(k) ?? 0) + 1);
  let pumpTxs = 0;
  let oldDecoderTxs = 0;
  let checkedTrades = 0;
  let checkedSwaps = 0;

  it('every instruction and event decodes whole, inner ones marked, with the values the chain meant', () => {
    for (const batch of batches) {
      const writesBySig = new Map<string, AccountEvent[]>();
      for (const e of batch.events) {
        if (e.kind !== 'accounts' || !e.event.txnSignature) continue;
        const k = hex(e.event.txnSignature);
        writesBySig.set(k, [...(writesBySig.get(k) ?? []), e.event]);
      }
      for (const e of batch.events) {
        if (e.kind !== 'transactions') continue;
        const tx = e.event;
        const x = extractPumpTransaction(tx);
        if (x.programs.length === 0) continue;
        pumpTxs++;
        if (scanPumpTransaction(tx).instructions.length > 0) oldDecoderTxs++;
        const ixs = x.instructions.map((ix) => ({ ix, d: decodedOf(ix) }));
        const evs = x.events.map((ev) => ({ ev, d: decodedOf(ev) }));
        // The `Program data:` lines carry the same events as the self-CPIs, in the same order.
        const logged = tx.logMessages.filter((l) => l.startsWith('Program data: ')).map((l) => l.slice(14));
        const cpi = x.events.map((ev) => {
          const group = tx.innerInstructions.find((g) => g.index === ev.index)!;
          return group.instructions[ev.innerIndex]!.data.subarray(8).toString('base64');
        });
        expect(logged).toEqual(cpi);
        for (const { ix, d } of ixs) {
          const top = keyAt(tx, tx.instructions[ix.index]!.programIdIndex)!;
          if (ix.inner) {
            // Through the router (stack height 2), or PumpSwap's create_pool invoked by pump's migrate.
            expect(ix.stackHeight).toBe(2);
            expect(b58(ix.invokedBy!)).toBe(b58(d.name === 'create_pool' ? PUMP_PROGRAM : SIM_ROUTER_PROGRAM));
          } else expect(top.equals(ix.program === 'pump' ? PUMP_PROGRAM : PUMP_AMM_PROGRAM)).toBe(true);
          note(`${ix.program}:${d.name}:${ix.inner ? 'inner' : 'top'}${tx.err ? ':failed' : ''}`);
        }
        for (const { ev, d } of evs) {
          // An event sits one level below the instruction that emitted it.
          const owner = x.instructions
            .filter((i) => i.index === ev.index && i.program === ev.program && (i.innerIndex ?? -1) < ev.innerIndex)
            .at(-1)!;
          expect(ev.stackHeight).toBe((owner.stackHeight ?? 0) + 1);
          note(`${ev.program}:${d.name}:@${ev.stackHeight}`);
        }
        if (tx.err) {
          expect(x.events).toEqual([]); // a failed transaction's inner instructions are not recorded
          continue;
        }
        const writes = writesBySig.get(hex(tx.signatures[0]!)) ?? [];
        const trades = evs.filter((e) => e.d.name === 'TradeEvent');
        const tradeIxs = ixs.filter(({ ix, d }) => ix.program === 'pump' && d.name in IX_NAME);
        expect(trades.length).toBe(tradeIxs.length);
        const created = evs.find((e) => e.d.name === 'CreateEvent')?.d.fields.token_total_supply as bigint | undefined;
        trades.forEach((t, i) => {
          checkTrade(tx, tradeIxs[i]!.ix, t.d, writes, created);
          checkedTrades++;
          const after = evs[evs.indexOf(t) + 1];
          if (t.d.fields.real_token_reserves === 0n) {
            expect(after?.d.name).toBe('CompleteEvent');
            expect(after!.d.fields.bonding_curve).toEqual(account(tradeIxs[i]!.ix, 'bonding_curve'));
            expect(after!.d.fields.mint).toEqual(t.d.fields.mint);
          } else expect(after?.d.name).not.toBe('CompleteEvent');
        });
        const swaps = ixs.filter(
          ({ ix }) => ix.program === 'pump_amm' && ix.decoded.kind === 'decoded' && ix.decoded.name !== 'create_pool',
        );
        const swapEvents = evs.filter((e) => e.d.name === 'BuyEvent' || e.d.name === 'SellEvent');
        expect(swapEvents.length).toBe(swaps.length);
        swaps.forEach((s, i) => {
          checkSwap(tx, s.ix, swapEvents[i]!.d);
          checkedSwaps++;
        });
        const create = ixs.find(({ d }) => d.name === 'create' || d.name === 'create_v2');
        if (create) {
          const ev = evs.find((e) => e.d.name === 'CreateEvent')!.d.fields;
          for (const k of ['name', 'symbol', 'uri', 'creator'] as const) expect(ev[k]).toEqual(create.d.fields[k]);
          expect(ev.mint).toEqual(account(create.ix, 'mint'));
          expect(ev.bonding_curve).toEqual(account(create.ix, 'bonding_curve'));
        }
        const migrate = ixs.find(({ d }) => d.name === 'migrate');
        if (migrate) {
          const cp = ixs.find(({ d }) => d.name === 'create_pool')!;
          const poolEv = evs.find((e) => e.d.name === 'CreatePoolEvent')!.d.fields;
          const done = evs.find((e) => e.d.name === 'CompletePumpAmmMigrationEvent')!.d.fields;
          const pool = account(migrate.ix, 'pool');
          expect(account(cp.ix, 'pool')).toEqual(pool);
          expect(poolEv.pool).toEqual(pool);
          expect(done.pool).toEqual(pool);
          expect(poolEv.base_amount_in).toBe(cp.d.fields.base_amount_in);
          expect(poolEv.quote_amount_in).toBe(cp.d.fields.quote_amount_in);
          expect(done.mint_amount).toBe(cp.d.fields.base_amount_in);
          expect(done.sol_amount).toBe(cp.d.fields.quote_amount_in);
          expect(poolEv.quote_mint).toEqual(NATIVE_MINT);
          // The pool account is written, owned by PumpSwap, naming the mint and wrapped SOL (Pool layout).
          const w = writes.find((a) => a.pubkey.equals(pool))!;
          expect(w.owner).toEqual(PUMP_AMM_PROGRAM);
          expect(w.data.subarray(43, 75)).toEqual(account(migrate.ix, 'mint'));
          expect(w.data.subarray(75, 107)).toEqual(NATIVE_MINT);
          expect(tokenDelta(tx, account(cp.ix, 'pool_base_token_account')).post).toBe(cp.d.fields.base_amount_in);
          expect(tokenDelta(tx, account(cp.ix, 'pool_quote_token_account')).post).toBe(cp.d.fields.quote_amount_in);
        }
      }
    }
    expect(checkedTrades).toBeGreaterThan(1000);
    expect(checkedSwaps).toBeGreaterThan(100);
  });

  it('the mix holds every kind: current instructions, top level and through the router, completion, migration, pool trades', () => {
    const has = (k: string): boolean => (kinds.get(k) ?? 0) > 0;
    for (const name of ['buy', 'buy_exact_sol_in', 'buy_v2', 'buy_exact_quote_in_v2', 'sell', 'sell_v2']) {
      expect(has(`pump:${name}:top`), name).toBe(true);
      expect(has(`pump:${name}:inner`), `${name} through the router`).toBe(true);
    }
    for (const k of ['pump:create:top', 'pump:create_v2:top', 'pump:migrate:top', 'pump:set_params:top', 'pump_amm:create_pool:inner'])
      expect(has(k), k).toBe(true);
    for (const k of ['pump_amm:buy:top', 'pump_amm:buy:inner', 'pump_amm:sell:top', 'pump_amm:sell:inner']) expect(has(k), k).toBe(true);
    for (const k of [
      'pump:TradeEvent:@2',
      'pump:TradeEvent:@3',
      'pump:CreateEvent:@2',
      'pump:CompleteEvent:@2',
      'pump:CompletePumpAmmMigrationEvent:@2',
      'pump:SetParamsEvent:@2',
    ]) {
      expect(has(k), k).toBe(true);
    }
    for (const k of [
      'pump_amm:CreatePoolEvent:@3',
      'pump_amm:BuyEvent:@2',
      'pump_amm:BuyEvent:@3',
      'pump_amm:SellEvent:@2',
      'pump_amm:SellEvent:@3',
    ])
      expect(has(k), k).toBe(true);
    // Failures the programs report stay in the mix (slippage, completed curve, not authorized, ...).
    expect([...kinds.keys()].some((k) => k.endsWith(':failed'))).toBe(true);
  });

  it("the seed's SubscribeParsed decoder (top-level create/buy/sell) still sees a share of the pump transactions", () => {
    // About 18%: every create, top-level `buy` (45% of 35% of curve buys) and `sell` (45% of 75% of curve sells);
    // nothing routed, no v2 or exact-in form, no PumpSwap (ingest/sources/sim/README.md).
    const share = oldDecoderTxs / pumpTxs;
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.25);
  });
});

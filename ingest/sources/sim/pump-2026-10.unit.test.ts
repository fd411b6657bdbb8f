// The simulator's October 2026 pump shapes (issue 34, item 5): v3 curve trades, PumpSwap v2 trades, fee sweeps and
// synthetic migrations, in the shares the pump mix sets, every pump transaction decoding whole through the project's
// decoder (schemas/pumpfun), and the curve and pool state consistent across trades, sweeps and migration. The values
// are checked against the chain: the account writes (BondingCurve and Pool layouts of pump-2026-10.md §3.1/§3.2),
// balances in the meta and the constant-product math written here, never against the simulator's code. Facts used:
// v3 fees kept on the curve (TRADE_V3.md), sweeps pay them out and zero the bucket (SWEEP_FEES.md), a synthetic
// migration's events in order TradeEvent, CompleteEvent, PostCompleteBuyEvent and migrate opening the pool at
// `*_after` (SYNTHETIC_MIGRATION.md), v2 fees kept in the pool vault and subtracted from virtual_quote_reserves
// (PUMP_SWAP_TRADE_V2.md, VIRTUAL_QUOTE_RESERVES_FEE_ADJUSTMENT.md); a quoted coin's curve holds its quote in its
// associated_quote_bonding_curve token account and names the quote mint in BondingCurve.quote_mint, its events and
// `create_v2`'s remaining accounts (pump-2026-10.md §1.4, §3.1, §4); a multi-hop route is a PumpSwap multi_hop_swap
// whose curve hops are pump multi_hop_curve_swap CPIs, each emitting a TradeEvent with ix_name multi_hop_swap, and
// whose pool hops (a quote coin that migrated) PumpSwap trades itself, emitting BuyEvent (ix_name multi_hop_swap) or
// SellEvent, the protocol fee charged once on the SOL hop and the creator fee once on the far-end coin's hop
// (MULTI_HOP_SWAP.md); a coin quoted in a migrated coin names that coin's pool and vaults in create_v2
// (CREATE_WITH_PUMP_COIN_QUOTE.md).
import { describe, expect, it } from 'vitest';
import type { AccountEvent, TransactionEvent } from '../../../schemas/codec.js';
import { extractPumpTransaction, type PumpEventAt, type PumpInstructionAt } from '../../../schemas/pumpfun/extract.js';
import { tradesOf, USDC, WSOL } from '../../../schemas/pumpfun/trades.js';
import type { Fields } from '../../../schemas/pumpfun/layout.js';
import type { SlotBatch } from '../../source.js';
import { collect } from '../../../test/support/sim/checks.js';
import { DEFAULT_PUMP_MIX, parsePumpMix, type PumpMix } from './pump-mix.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const ceilBps = (v: bigint, bps: bigint): bigint => (v * bps + 9_999n) / 10_000n;
const ZERO_KEY = Buffer.alloc(32);
const CURVE_V3 = new Set(['buy_v3', 'buy_exact_quote_in_v3', 'sell_v3']);
const CURVE_OLD = new Set(['buy', 'buy_exact_sol_in', 'buy_v2', 'buy_exact_quote_in_v2', 'sell', 'sell_v2']);
const POOL_V2 = new Set(['buy_v2', 'buy_exact_quote_in_v2', 'sell_v2']);
const POOL_OLD = new Set(['buy', 'sell']);

interface Named {
  name: string;
  fields: Fields;
}

// whole() and account() run for every instruction and event of the chain: their expects run only when a check
// fails (each expect costs more than the check), so they assert the same and fail with the same message.
function whole(x: PumpInstructionAt | PumpEventAt): Named {
  const d = x.decoded;
  if (d.kind !== 'decoded' || d.absent.length > 0 || d.trailingBytes !== 0) {
    expect(d.kind, `${x.program} ${d.kind === 'decoded' ? d.name : d.reason}`).toBe('decoded');
    if (d.kind !== 'decoded') throw new Error('unreachable');
    expect(d.absent, `${d.name} lacks fields`).toEqual([]);
    expect(d.trailingBytes, `${d.name} has trailing bytes`).toBe(0);
  }
  if (d.kind !== 'decoded') throw new Error('unreachable');
  return { name: d.name, fields: d.fields };
}

function account(ix: PumpInstructionAt, name: string): Buffer {
  if (ix.decoded.kind !== 'decoded') throw new Error('not decoded');
  const names = ix.decoded.def.accounts;
  if (ix.accounts.length !== names.length) expect(ix.accounts.length, `${ix.decoded.name} account count`).toBe(names.length);
  return ix.accounts[names.indexOf(name)]!;
}

const keysOf = (tx: TransactionEvent): Buffer[] => [...tx.accountKeys, ...tx.loadedWritable, ...tx.loadedReadonly];
function lamportDelta(tx: TransactionEvent, key: Buffer): bigint {
  const i = keysOf(tx).findIndex((k) => k.equals(key));
  return tx.postBalances[i]! - tx.preBalances[i]!;
}
function tokens(tx: TransactionEvent, key: Buffer): { pre: bigint; post: bigint } {
  const i = keysOf(tx).findIndex((k) => k.equals(key));
  const at = (l: TransactionEvent['preTokenBalances']) => l.find((b) => b.accountIndex === i)?.amount ?? 0n;
  return { pre: at(tx.preTokenBalances), post: at(tx.postTokenBalances) };
}

/** BondingCurve fields (pump-2026-10.md §3.1); missing trailing fields read as 0. */
function curveOf(d: Buffer) {
  const u64 = (at: number): bigint => (d.length >= at + 8 ? d.readBigUInt64LE(at) : 0n);
  return {
    vT: u64(8),
    vS: u64(16),
    rT: u64(24),
    rS: u64(32),
    complete: d[48] === 1,
    quoteMint: d.subarray(83, 115),
    creatorFee: u64(125),
    depth: d.length > 141 ? d[141]! : 0,
    protocolFees: u64(133),
    len: d.length,
  };
}
/** Pool fields (pump-2026-10.md §3.2). */
function poolOf(d: Buffer) {
  if (d.length < 287) return { virtual: 0n, protocolFees: 0n, creatorFees: 0n };
  return {
    virtual: (d.readBigInt64LE(253) << 64n) | d.readBigUInt64LE(245),
    protocolFees: d.readBigUInt64LE(271),
    creatorFees: d.readBigUInt64LE(279),
  };
}

interface Tally {
  curveTrades: number;
  curveV3: number;
  poolTrades: number;
  poolV2: number;
  /** Transactions that trade on a curve or pool, or sweep (the slots the mix's sweep share is drawn on). */
  tradeOrSweepTxs: number;
  sweepTxs: number;
  curveBuyTxs: number;
  graduations: number;
  kinds: Set<string>;
  checkedV3: number;
  checkedV2: number;
  checkedSweeps: number;
  checkedMigrations: number;
  routes: number;
  usdcCurveTrades: number;
  creates: number;
  usdcCreates: number;
  coinCreates: number;
  checkedRoutes: number;
  checkedPoolHops: number;
  poolHopSells: number;
  checkedQuoted: number;
  quotedOnPools: number;
}

/** Walks the traffic, checking each pump transaction; returns what it counted. */
function walk(batches: SlotBatch[]): Tally {
  const t: Tally = {
    curveTrades: 0,
    curveV3: 0,
    poolTrades: 0,
    poolV2: 0,
    tradeOrSweepTxs: 0,
    sweepTxs: 0,
    curveBuyTxs: 0,
    graduations: 0,
    kinds: new Set(),
    checkedV3: 0,
    checkedV2: 0,
    checkedSweeps: 0,
    checkedMigrations: 0,
    routes: 0,
    usdcCurveTrades: 0,
    creates: 0,
    usdcCreates: 0,
    coinCreates: 0,
    checkedRoutes: 0,
    checkedPoolHops: 0,
    poolHopSells: 0,
    checkedQuoted: 0,
    quotedOnPools: 0,
  };
  // The last write of every account (the chain's state as the transactions left it).
  const state = new Map<string, AccountEvent>();
  // What synthetic migrations said the pool will open with, by mint.
  const promised = new Map<string, { base: bigint; quote: bigint }>();
  for (const batch of batches) {
    const writesBySig = new Map<string, AccountEvent[]>();
    for (const e of batch.events)
      if (e.kind === 'accounts' && e.event.txnSignature) {
        const k = hex(e.event.txnSignature);
        writesBySig.set(k, [...(writesBySig.get(k) ?? []), e.event]);
      }
    for (const e of batch.events) {
      if (e.kind !== 'transactions') continue;
      const tx = e.event;
      const writes = writesBySig.get(hex(tx.signatures[0]!)) ?? [];
      const x = extractPumpTransaction(tx);
      if (x.programs.length > 0) {
        const ixs = x.instructions.map((ix) => ({ ix, d: whole(ix) }));
        const evs = x.events.map((ev) => ({ ev, d: whole(ev) }));
        for (const { ix, d } of ixs) t.kinds.add(`${ix.program}:${d.name}`);
        for (const { ev, d } of evs) t.kinds.add(`${ev.program}:${d.name}`);
        const curveTrades = ixs.filter(({ ix, d }) => ix.program === 'pump' && (CURVE_V3.has(d.name) || CURVE_OLD.has(d.name)));
        const poolTrades = ixs.filter(({ ix, d }) => ix.program === 'pump_amm' && (POOL_V2.has(d.name) || POOL_OLD.has(d.name)));
        const sweeps = ixs.filter(({ d }) => d.name === 'sweep_protocol_fee' || d.name === 'sweep_creator_fee');
        const isCreate = ixs.some(({ d }) => d.name === 'create' || d.name === 'create_v2');
        const isRoute = ixs.some(({ ix, d }) => ix.program === 'pump_amm' && d.name === 'multi_hop_swap');
        if (isCreate) countCreate(evs, t);
        if (isRoute) t.routes++;
        if (!isCreate) {
          const usdc = curveTrades.filter(({ ix, d }) => CURVE_V3.has(d.name) && account(ix, 'quote_mint').equals(USDC)).length;
          t.usdcCurveTrades += usdc;
          t.curveTrades += curveTrades.length;
          // The v3 share is of SOL coins' trades (a USDC coin trades only with v3).
          t.curveV3 += curveTrades.filter(({ d }) => CURVE_V3.has(d.name)).length - usdc;
          if (curveTrades.some(({ d }) => d.name.startsWith('buy'))) t.curveBuyTxs++;
        }
        t.poolTrades += poolTrades.length;
        t.poolV2 += poolTrades.filter(({ d }) => POOL_V2.has(d.name)).length;
        if ((curveTrades.length > 0 && !isCreate) || poolTrades.length > 0 || sweeps.length > 0 || isRoute) t.tradeOrSweepTxs++;
        if (sweeps.length > 0) t.sweepTxs++;
        if (evs.some(({ d }) => d.name === 'PostCompleteBuyEvent')) t.graduations++;
        if (!tx.err) check(tx, ixs, evs, writes, state, promised, t);
        if (!tx.err && isRoute) checkRoute(tx, x, ixs, evs, writes, state, t);
        if (!tx.err && isCreate) checkQuotedCreate(ixs, evs, writes, state, t);
        if (!tx.err) checkUsdcParsed(x, ixs, t);
      }
      for (const w of writes) state.set(hex(w.pubkey), w);
    }
  }
  return t;
}

type Ixs = { ix: PumpInstructionAt; d: Named }[];
type Evs = { ev: PumpEventAt; d: Named }[];

function check(
  tx: TransactionEvent,
  ixs: Ixs,
  evs: Evs,
  writes: AccountEvent[],
  state: Map<string, AccountEvent>,
  promised: Map<string, { base: bigint; quote: bigint }>,
  t: Tally,
): void {
  const written = (k: Buffer) => writes.findLast((w) => w.pubkey.equals(k))!;
  const before = (k: Buffer) => state.get(hex(k));
  for (const { ix, d } of ixs) {
    const mine = evs.filter(({ ev }) => ev.index === ix.index && ev.program === ix.program && (ix.innerIndex ?? -1) < ev.innerIndex);
    if (ix.program === 'pump' && CURVE_V3.has(d.name)) {
      const trade = mine.find((m) => m.d.name === 'TradeEvent')!.d.fields;
      const curveKey = account(ix, 'bonding_curve');
      const pre = before(curveKey) ? curveOf(before(curveKey)!.data) : undefined;
      const post = curveOf(written(curveKey).data);
      const sol = trade.sol_amount as bigint;
      const fee = trade.fee as bigint;
      const cfee = trade.creator_fee as bigint;
      // The quote: SOL (instructions name wrapped SOL, the curve and events the zero key) or the coin's quote mint.
      const quoteMint = account(ix, 'quote_mint');
      const isSol = quoteMint.equals(WSOL);
      expect(trade.quote_mint).toEqual(isSol ? ZERO_KEY : quoteMint);
      expect(curveOf(written(curveKey).data).quoteMint).toEqual(isSol ? ZERO_KEY : quoteMint);
      const quoteIn = (topUp: bigint): bigint => {
        if (isSol) return lamportDelta(tx, curveKey) - topUp;
        const q = tokens(tx, account(ix, 'associated_quote_bonding_curve'));
        return q.post - q.pre;
      };
      if (!isSol) t.checkedQuoted++;
      expect(trade.ix_name).toBe(d.name);
      expect(trade.fee_recipient).toEqual(ZERO_KEY);
      expect(fee).toBe(ceilBps(sol, trade.fee_basis_points as bigint));
      expect(cfee).toBe(ceilBps(sol, trade.creator_fee_basis_points as bigint));
      expect(post.len).toBe(166);
      expect([post.vT, post.vS, post.rT]).toEqual([trade.virtual_token_reserves, trade.virtual_sol_reserves, trade.real_token_reserves]);
      expect(trade.creator_fee_unclaimed).toBe(post.creatorFee);
      // The constant-product curve, from the reserves before the trade.
      if (pre) {
        const tok = trade.token_amount as bigint;
        // An older, shorter curve grows to 166 bytes on its first v3 trade; the trader tops up the rent.
        const topUp = BigInt(166 - pre.len) * 6960n;
        if (d.name === 'sell_v3') {
          expect(sol).toBe((tok * pre.vS) / (pre.vT + tok));
          expect(post.rS).toBe(pre.rS - sol);
          // The fees stay on the curve: only the seller's part leaves it.
          expect(quoteIn(topUp)).toBe(-(sol - fee - cfee));
        }
        const pc = mine.find((m) => m.d.name === 'PostCompleteBuyEvent')?.d.fields;
        if (d.name !== 'sell_v3') {
          expect(sol).toBe((tok * pre.vS) / (pre.vT - tok) + 1n);
          // Price and both fees of both parts go to the curve (the fees kept there until a sweep).
          const pcTotal = pc ? (pc.quote_in as bigint) + (pc.fee as bigint) + (pc.creator_fee as bigint) : 0n;
          expect(quoteIn(topUp)).toBe(sol + fee + cfee + pcTotal);
        }
        expect(post.creatorFee).toBe(pre.creatorFee + cfee + ((pc?.creator_fee as bigint | undefined) ?? 0n));
        expect(post.protocolFees).toBe(pre.protocolFees + fee + ((pc?.fee as bigint | undefined) ?? 0n));
      }
      const names = mine.map((m) => m.d.name);
      if (post.rT === 0n) {
        expect(names.slice(0, 2)).toEqual(['TradeEvent', 'CompleteEvent']);
        const pc = mine.find((m) => m.d.name === 'PostCompleteBuyEvent')?.d.fields;
        if (pc) {
          expect(names).toEqual(['TradeEvent', 'CompleteEvent', 'PostCompleteBuyEvent']);
          const out = pc.base_out as bigint;
          const qin = pc.quote_in as bigint;
          const B = pc.pool_base_reserves_before as bigint;
          const Q = pc.pool_quote_reserves_before as bigint;
          // Priced constant-product on the would-be pool (SYNTHETIC_MIGRATION.md's formulas).
          if (d.name === 'buy_v3') expect(qin).toBe((Q * out + (B - out) - 1n) / (B - out));
          else expect(out).toBe(((qin - 1n) * B) / (Q + qin - 1n));
          expect([pc.pool_base_reserves_after, pc.pool_quote_reserves_after]).toEqual([B - out, Q + qin]);
          expect(pc.fee).toBe(ceilBps(qin, pc.fee_basis_points as bigint));
          // What the buyer got: the curve's last tokens plus the pool part.
          expect(tokens(tx, account(ix, 'associated_base_user')).post - tokens(tx, account(ix, 'associated_base_user')).pre).toBe(
            (trade.token_amount as bigint) + out,
          );
          expect(tokens(tx, account(ix, 'associated_base_bonding_curve')).post).toBe(B - out);
          promised.set(hex(trade.mint as Buffer), { base: B - out, quote: Q + qin });
        }
      } else expect(names).toEqual(['TradeEvent']);
      t.checkedV3++;
    }
    if (ix.program === 'pump' && (d.name === 'sweep_protocol_fee' || d.name === 'sweep_creator_fee')) {
      const ev = mine.find((m) => m.d.name === 'SweepBondingCurveFeeEvent')?.d.fields;
      const curveKey = account(ix, 'bonding_curve');
      const pre = curveOf(before(curveKey)!.data);
      const waiting = d.name === 'sweep_creator_fee' ? pre.creatorFee : pre.protocolFees;
      if (waiting === 0n) expect(ev).toBeUndefined();
      else {
        expect(ev!.amount).toBe(waiting);
        expect(ev!.bucket).toBe(d.name === 'sweep_creator_fee' ? 1 : 0);
        expect(ev!.recipient).toEqual(account(ix, 'recipient'));
        const post = curveOf(written(curveKey).data);
        expect(d.name === 'sweep_creator_fee' ? post.creatorFee : post.protocolFees).toBe(0n);
        // The reserves are untouched; the curve's lamports pay the recipient.
        expect([post.vT, post.vS, post.rT, post.rS]).toEqual([pre.vT, pre.vS, pre.rT, pre.rS]);
        expect(ev!.quote_mint).toEqual(post.quoteMint);
        if (post.quoteMint.equals(ZERO_KEY)) {
          expect(lamportDelta(tx, curveKey)).toBe(-waiting);
          expect(lamportDelta(tx, account(ix, 'recipient'))).toBe(waiting);
        } else {
          // A quoted coin's fees leave the curve's quote token account for the recipient's.
          const from = tokens(tx, account(ix, 'associated_quote_bonding_curve'));
          const to = tokens(tx, account(ix, 'associated_quote_recipient'));
          expect([from.post - from.pre, to.post - to.pre]).toEqual([-waiting, waiting]);
          t.checkedQuoted++;
        }
        t.checkedSweeps++;
      }
    }
    if (ix.program === 'pump_amm' && POOL_V2.has(d.name)) {
      const ev = mine.find((m) => m.d.name === 'BuyEvent' || m.d.name === 'SellEvent')!.d.fields;
      const poolKey = account(ix, 'pool');
      const pre = poolOf(before(poolKey)!.data);
      const post = poolOf(written(poolKey).data);
      const vault = tokens(tx, account(ix, 'pool_quote_token_account'));
      const base = tokens(tx, account(ix, 'pool_base_token_account'));
      // Reserves it was priced on: the vault plus the signed virtual reserves (fees waiting never price a trade).
      expect(ev.pool_quote_token_reserves).toBe(vault.pre + pre.virtual);
      expect(ev.pool_base_token_reserves).toBe(base.pre);
      expect(ev.protocol_fee_recipient).toEqual(ZERO_KEY);
      const protocol = ev.protocol_fee as bigint;
      const creator = ev.coin_creator_fee as bigint;
      expect([post.protocolFees, post.creatorFees]).toEqual([pre.protocolFees + protocol, pre.creatorFees + creator]);
      expect(post.virtual).toBe(pre.virtual - protocol - creator);
      expect(post.virtual).toBe(-(post.protocolFees + post.creatorFees));
      expect(ev.virtual_quote_reserves).toBe(post.virtual);
      expect(ev.creator_fee_unclaimed).toBe(post.creatorFees);
      const B = base.pre;
      const Q = vault.pre + pre.virtual;
      if (d.name === 'sell_v2') {
        const q = ev.quote_amount_out as bigint;
        expect(q).toBe(((ev.base_amount_in as bigint) * Q) / (B + (ev.base_amount_in as bigint)));
        expect(vault.pre - vault.post).toBe(ev.user_quote_amount_out);
      } else {
        expect(ev.ix_name).toBe(d.name);
        const out = ev.base_amount_out as bigint;
        expect(ev.quote_amount_in).toBe((out * Q + (B - out) - 1n) / (B - out));
        expect(vault.post - vault.pre).toBe(ev.user_quote_amount_in);
      }
      t.checkedV2++;
    }
    if (ix.program === 'pump_amm' && (d.name === 'sweep_protocol_fee' || d.name === 'sweep_creator_fee')) {
      const ev = mine.find((m) => m.d.name === 'SweepPoolFeeEvent')?.d.fields;
      const poolKey = account(ix, 'pool');
      const pre = poolOf(before(poolKey)!.data);
      const waiting = d.name === 'sweep_creator_fee' ? pre.creatorFees : pre.protocolFees;
      if (waiting === 0n) expect(ev).toBeUndefined();
      else {
        expect(ev!.amount).toBe(waiting);
        const post = poolOf(written(poolKey).data);
        expect(d.name === 'sweep_creator_fee' ? post.creatorFees : post.protocolFees).toBe(0n);
        expect(post.virtual).toBe(pre.virtual + waiting);
        const v = tokens(tx, account(ix, 'pool_quote_token_account'));
        expect(v.pre - v.post).toBe(waiting);
        const r = tokens(tx, account(ix, 'recipient_token_account'));
        expect(r.post - r.pre).toBe(waiting);
        t.checkedSweeps++;
      }
    }
    if (d.name === 'create_pool') {
      const mint = hex(account(ix, 'base_mint'));
      const p = promised.get(mint);
      // A synthetic migration's promise: the pool opens with exactly the reserves PostCompleteBuyEvent named.
      if (p) {
        expect([d.fields.base_amount_in, d.fields.quote_amount_in]).toEqual([p.base, p.quote]);
        promised.delete(mint);
        t.checkedMigrations++;
      }
    }
  }
}

/** A creation's quote: SOL (no or the zero quote mint), USDC, or another pump coin. */
function countCreate(evs: Evs, t: Tally): void {
  const ev = evs.find(({ d }) => d.name === 'CreateEvent');
  if (!ev) return;
  t.creates++;
  const q = ev.d.fields.quote_mint as Buffer | undefined;
  if (q?.equals(USDC)) t.usdcCreates++;
  else if (q && !q.equals(ZERO_KEY)) t.coinCreates++;
}

/** A quoted create_v2: its remaining accounts name the quote, and the curve, its quote account and CreateEvent agree. */
function checkQuotedCreate(ixs: Ixs, evs: Evs, writes: AccountEvent[], state: Map<string, AccountEvent>, t: Tally): void {
  const create = ixs.find(({ ix, d }) => d.name === 'create_v2' && ix.accounts.length > 16);
  if (!create) return;
  const quoteMint = create.ix.accounts[16]!;
  const curveKey = create.ix.accounts[2]!;
  const ev = evs.find(({ d }) => d.name === 'CreateEvent')!.d.fields;
  // A pump coin as quote adds the quote-control PDA and its bonding curve (CREATE_WITH_PUMP_COIN_QUOTE.md): depth 1.
  // Once Q migrated, also its pool and the pool's two vaults (all 8 remaining accounts, else 6101).
  const depth = create.ix.accounts.length >= 21 ? 1 : 0;
  const onPool = create.ix.accounts.length === 24;
  expect(create.ix.accounts.length).toBe(depth ? (onPool ? 24 : 21) : 19);
  if (onPool) {
    const vault = state.get(hex(create.ix.accounts[22]!))!.data;
    expect([vault.subarray(0, 32), vault.subarray(32, 64)]).toEqual([quoteMint, create.ix.accounts[21]]);
    expect(curveOf(state.get(hex(create.ix.accounts[20]!))!.data).complete).toBe(true);
    t.quotedOnPools++;
  }
  expect([ev.quote_mint, ev.depth]).toEqual([quoteMint, depth]);
  const curve = curveOf(writes.findLast((w) => w.pubkey.equals(curveKey))!.data);
  expect([curve.quoteMint, curve.depth, curve.len, curve.vS]).toEqual([quoteMint, depth, 166, ev.virtual_quote_reserves]);
  // The curve's token account for the quote: that mint, owned by the curve.
  const quoteAta = writes.findLast((w) => w.pubkey.equals(create.ix.accounts[17]!))!.data;
  expect([quoteAta.subarray(0, 32), quoteAta.subarray(32, 64)]).toEqual([quoteMint, curveKey]);
}

/** The protocol and creator fees charged so far over a route's hops (once each over the route). */
interface Charged {
  protocol: number;
  creator: number;
}
const POOL_DISC = Buffer.from('f19a6d0411b16dbc', 'hex');
const tokenAmountOf = (d: Buffer): bigint => d.readBigUInt64LE(64);

/**
 * A multi-hop route: per hop, in route order, a curve hop's multi_hop_curve_swap CPI and TradeEvent (ix_name
 * multi_hop_swap) or a pool hop's BuyEvent (ix_name multi_hop_swap) / SellEvent, each hop fed with the previous
 * hop's output and priced on its curve or pool, the protocol and creator fees charged once each, the middle coin
 * netting to zero, and the parsed trades one per hop with the hop's quote mint.
 */
function checkRoute(
  tx: TransactionEvent,
  x: ReturnType<typeof extractPumpTransaction>,
  ixs: Ixs,
  evs: Evs,
  writes: AccountEvent[],
  state: Map<string, AccountEvent>,
  t: Tally,
): void {
  const route = ixs.find(({ ix, d }) => ix.program === 'pump_amm' && d.name === 'multi_hop_swap')!;
  const at = route.ix.index;
  const cpis = ixs.filter(({ ix, d }) => ix.index === at && ix.program === 'pump' && d.name === 'multi_hop_curve_swap');
  const hopEvents = evs.filter(
    ({ ev, d }) => ev.index === at && (ev.program === 'pump' ? d.name === 'TradeEvent' : d.name === 'BuyEvent' || d.name === 'SellEvent'),
  );
  const n = (route.ix.accounts.length - 16) / 5;
  expect(hopEvents.length).toBe(n);
  let amount = route.d.fields.amount_in as bigint;
  let dust = 0n;
  let mid: Buffer | undefined;
  let curveHops = 0;
  const charged: Charged = { protocol: 0, creator: 0 };
  for (let i = 0; i < n; i++) {
    const f = hopEvents[i]!.d.fields;
    const hop = route.ix.accounts.slice(16 + 5 * i, 21 + 5 * i);
    if (state.get(hex(hop[2]!))!.data.subarray(0, 8).equals(POOL_DISC)) {
      expect(hopEvents[i]!.ev.program).toBe('pump_amm');
      if (i === 0) mid = f.user_base_token_account as Buffer;
      const r = checkPoolHop(f, hop, amount, writes, state, charged);
      if (i > 0) dust = r.dust;
      amount = r.out;
      t.checkedPoolHops++;
      if (f.base_amount_in !== undefined) t.poolHopSells++;
      continue;
    }
    const { ix, d } = cpis[curveHops++]!;
    if (i === 0) mid = ix.accounts[6]!;
    expect(ix.accounts.slice(13)).toEqual(hop);
    expect(f.mint).toEqual(hop[0]);
    expect(f.ix_name).toBe('multi_hop_swap');
    expect(d.fields.amount_in).toBe(amount);
    expect(f.quote_mint).toEqual(hop[1]!.equals(WSOL) ? ZERO_KEY : hop[1]);
    const pre = curveOf(state.get(hex(hop[2]!))!.data);
    const post = curveOf(writes.findLast((w) => w.pubkey.equals(hop[2]!))!.data);
    const [q, tok, fee, cfee] = [f.sol_amount, f.token_amount, f.fee, f.creator_fee] as bigint[];
    if (fee! > 0n) charged.protocol++;
    if (cfee! > 0n) charged.creator++;
    expect(fee).toBe(fee! > 0n ? ceilBps(q!, f.fee_basis_points as bigint) : 0n);
    expect(cfee).toBe(cfee! > 0n ? ceilBps(q!, f.creator_fee_basis_points as bigint) : 0n);
    if (f.is_buy) {
      expect(tok).toBe((q! * pre.vT) / (pre.vS + q!));
      expect(q! + fee! + cfee!).toBeLessThanOrEqual(amount);
      // What the fees' rounding leaves of a later hop's input stays with the user (a few base units at most).
      if (i > 0) dust = amount - q! - fee! - cfee!;
      amount = tok!;
    } else {
      expect(tok).toBe(amount);
      expect(q).toBe((tok! * pre.vS) / (pre.vT + tok!));
      amount = q! - fee! - cfee!;
    }
    expect([post.vT, post.vS, post.rT]).toEqual([f.virtual_token_reserves, f.virtual_sol_reserves, f.real_token_reserves]);
    expect([post.creatorFee, post.protocolFees]).toEqual([pre.creatorFee + cfee!, pre.protocolFees + fee!]);
  }
  expect(cpis.length).toBe(curveHops);
  expect(charged).toEqual({ protocol: 1, creator: 1 });
  expect(amount).toBeGreaterThanOrEqual(route.d.fields.min_amount_out as bigint);
  // The middle coin passes through the user's account for it and nets to zero (but for the rounding dust).
  const m = tokens(tx, mid!);
  expect(dust).toBeLessThan(4n);
  expect(m.post - m.pre).toBe(dust);
  const parsed = tradesOf(x.instructions, x.events).filter((p) => p.index === at);
  const isBuy = (f: Fields): boolean => (f.is_buy as boolean | undefined) ?? f.base_amount_out !== undefined;
  expect(parsed.map((p) => [p.kind, p.hop, p.hops])).toEqual(hopEvents.map((e, i) => [isBuy(e.d.fields) ? 'buy' : 'sell', i, n]));
  parsed.forEach((p, i) => {
    const quote = route.ix.accounts[17 + 5 * i]!;
    expect([p.quoteMint, p.quote, p.mint]).toEqual([quote, quote.equals(WSOL) ? 'SOL' : 'TOKEN', route.ix.accounts[16 + 5 * i]]);
  });
  t.checkedRoutes++;
}

/**
 * A pool hop (MULTI_HOP_SWAP.md): the event's pool and reserves are the hop's pool and its vaults (quote plus the
 * pool's virtual_quote_reserves) before the trade, priced constant-product exact-in, its protocol and creator fees
 * kept in the pool (v2 rule) and charged as the route's hop flags say.
 */
function checkPoolHop(
  f: Fields,
  hop: (Buffer | undefined)[],
  amount: bigint,
  writes: AccountEvent[],
  state: Map<string, AccountEvent>,
  charged: Charged,
) {
  const pre = poolOf(state.get(hex(hop[2]!))!.data);
  const post = poolOf(writes.findLast((w) => w.pubkey.equals(hop[2]!))!.data);
  const baseVault = state.get(hex(hop[3]!))!.data;
  // The base vault holds the hop's base mint (a pool event names its pool, not its mint).
  expect(baseVault.subarray(0, 32)).toEqual(hop[0]);
  const base = tokenAmountOf(baseVault);
  const quote = tokenAmountOf(state.get(hex(hop[4]!))!.data) + pre.virtual;
  expect([f.pool, f.pool_base_token_reserves, f.pool_quote_token_reserves]).toEqual([hop[2], base, quote]);
  const [lp, protocol, creator] = [f.lp_fee, f.protocol_fee, f.coin_creator_fee] as bigint[];
  if (protocol! > 0n) charged.protocol++;
  if (creator! > 0n) charged.creator++;
  expect(protocol).toBe(
    protocol! > 0n ? ceilBps((f.quote_amount_in ?? f.quote_amount_out) as bigint, f.protocol_fee_basis_points as bigint) : 0n,
  );
  expect([post.protocolFees, post.creatorFees, post.virtual]).toEqual([
    pre.protocolFees + protocol!,
    pre.creatorFees + creator!,
    pre.virtual - protocol! - creator!,
  ]);
  if (f.base_amount_out !== undefined) {
    const [out, q, total] = [f.base_amount_out, f.quote_amount_in, f.user_quote_amount_in] as bigint[];
    expect(f.ix_name).toBe('multi_hop_swap');
    expect(q).toBe((out! * quote + (base - out!) - 1n) / (base - out!));
    expect(total).toBe(q! + lp! + protocol! + creator!);
    expect(total).toBeLessThanOrEqual(amount);
    return { out: out!, dust: amount - total! };
  }
  const [q, out] = [f.quote_amount_out, f.user_quote_amount_out] as bigint[];
  expect(f.base_amount_in).toBe(amount);
  expect(q).toBe((amount * quote) / (base + amount));
  expect(out).toBe(q! - lp! - protocol! - creator!);
  return { out: out!, dust: 0n };
}

/** A USDC-quoted v3 trade's parsed trade names USDC as its quote. */
function checkUsdcParsed(x: ReturnType<typeof extractPumpTransaction>, ixs: Ixs, t: Tally): void {
  for (const { ix, d } of ixs) {
    if (ix.program !== 'pump' || !CURVE_V3.has(d.name) || !account(ix, 'quote_mint').equals(USDC)) continue;
    const p = tradesOf(x.instructions, x.events).find((p) => p.index === ix.index && p.venue === 'curve')!;
    expect([p.quoteMint, p.quote, p.mint]).toEqual([USDC, 'USDC', account(ix, 'base_mint')]);
    t.checkedQuoted++;
  }
}

const near = (got: number, want: number, tol: number): void => {
  expect(got).toBeGreaterThan(want - tol);
  expect(got).toBeLessThan(want + tol);
};

describe('the simulator trades like October 2026 pump (issue 34, item 5)', () => {
  it('default mix: v3 and v2 trades lead, sweeps and synthetic migrations occur; all decodes whole and the state adds up', async () => {
    const t = walk(await collect({ maxSlots: 200, tps: 600, fast: true, seed: 3, validators: 400 }));
    const m = DEFAULT_PUMP_MIX;
    near(t.curveV3 / (t.curveTrades - t.usdcCurveTrades), m.curveV3, 0.05);
    near(t.poolV2 / t.poolTrades, m.poolV2, 0.06);
    near(t.sweepTxs / t.tradeOrSweepTxs, m.sweep, 0.015);
    expect(t.graduations).toBeGreaterThan(0);
    expect(t.graduations / t.curveBuyTxs).toBeLessThan(m.graduate * 2);
    for (const k of [
      'pump:buy_v3',
      'pump:buy_exact_quote_in_v3',
      'pump:sell_v3',
      'pump:sweep_protocol_fee',
      'pump:sweep_creator_fee',
      'pump:SweepBondingCurveFeeEvent',
      'pump:PostCompleteBuyEvent',
      'pump_amm:buy_v2',
      'pump_amm:buy_exact_quote_in_v2',
      'pump_amm:sell_v2',
      'pump_amm:sweep_protocol_fee',
      'pump_amm:sweep_creator_fee',
      'pump_amm:SweepPoolFeeEvent',
      // The older forms keep their share.
      'pump:buy',
      'pump:sell',
      'pump_amm:buy',
      'pump_amm:sell',
    ])
      expect(t.kinds.has(k), k).toBe(true);
    expect(t.checkedV3).toBeGreaterThan(1000);
    expect(t.checkedV2).toBeGreaterThan(100);
    expect(t.checkedSweeps).toBeGreaterThan(50);
    expect(t.checkedMigrations).toBeGreaterThan(0);
    // Multi-hop routes and quoted coins (created in their shares of creates; USDC coins traded in theirs).
    near(t.routes / t.tradeOrSweepTxs, m.multiHop, 0.015);
    near(t.usdcCurveTrades / t.curveTrades, m.usdcQuote, 0.02);
    near(t.usdcCreates / t.creates, m.usdcQuote, 0.05);
    near(t.coinCreates / t.creates, m.coinQuote, 0.05);
    for (const k of ['pump_amm:multi_hop_swap', 'pump:multi_hop_curve_swap']) expect(t.kinds.has(k), k).toBe(true);
    expect(t.checkedRoutes).toBeGreaterThan(20);
    expect(t.checkedQuoted).toBeGreaterThan(50);
    // Coins quoted in a coin that migrated, and routes whose SOL end is that coin's pool.
    expect(t.quotedOnPools).toBeGreaterThan(0);
    expect(t.checkedPoolHops).toBeGreaterThan(0);
    expect(t.poolHopSells).toBeGreaterThan(0);
  });

  it('an operator-set mix changes the shares (same seed)', async () => {
    const mix: PumpMix = parsePumpMix('curve_v3=0.2,pool_v2=0.9,sweep=0.1,graduate=0.02,multi_hop=0.12,usdc_quote=0.15,coin_quote=0.3');
    const t = walk(await collect({ maxSlots: 120, tps: 600, fast: true, seed: 3, validators: 400, pumpMix: mix }));
    near(t.curveV3 / (t.curveTrades - t.usdcCurveTrades), 0.2, 0.05);
    near(t.poolV2 / t.poolTrades, 0.9, 0.06);
    near(t.sweepTxs / t.tradeOrSweepTxs, 0.1, 0.03);
    near(t.graduations / t.curveBuyTxs, 0.02, 0.012);
    near(t.routes / t.tradeOrSweepTxs, 0.12 * (1 - 0.1), 0.03);
    near(t.usdcCurveTrades / t.curveTrades, 0.15, 0.04);
    // At least their share of creates: a route or USDC trade that finds no such coin trading launches one instead.
    const quoted = (t.usdcCreates + t.coinCreates) / t.creates;
    expect(quoted).toBeGreaterThan(0.45 - 0.1);
    expect(quoted).toBeLessThan(0.45 + 0.2);
    expect(t.checkedRoutes).toBeGreaterThan(50);
  });

  it('a mix without the October 2026 shapes emits none of them', async () => {
    const t = walk(
      await collect({
        maxSlots: 60,
        tps: 600,
        fast: true,
        seed: 3,
        validators: 400,
        pumpMix: parsePumpMix('curve_v3=0,pool_v2=0,sweep=0,graduate=0,multi_hop=0,usdc_quote=0,coin_quote=0'),
      }),
    );
    expect(t.curveTrades).toBeGreaterThan(100);
    expect([t.curveV3, t.poolV2, t.sweepTxs, t.graduations]).toEqual([0, 0, 0, 0]);
    expect([t.routes, t.usdcCurveTrades, t.usdcCreates, t.coinCreates]).toEqual([0, 0, 0, 0]);
  });

  it('the mix option refuses unknown shares and out-of-range numbers, naming them', () => {
    expect(parsePumpMix('')).toEqual(DEFAULT_PUMP_MIX);
    expect(parsePumpMix('sweep=0.1')).toEqual({ ...DEFAULT_PUMP_MIX, sweep: 0.1 });
    expect(() => parsePumpMix('v4=0.1')).toThrow(/unknown share "v4"/);
    expect(() => parsePumpMix('curve_v3=x')).toThrow(/curve_v3="x" is not a number/);
    expect(() => parsePumpMix('curve_v3=1.5')).toThrow(/curveV3 must be a number in \[0, 1\]/);
    expect(() => parsePumpMix('sweep=0.5')).toThrow(/sweep must be a number in \[0, 0.25\]/);
    expect(parsePumpMix('multi_hop=0.1,usdc_quote=0.2,coin_quote=0')).toEqual({
      ...DEFAULT_PUMP_MIX,
      multiHop: 0.1,
      usdcQuote: 0.2,
      coinQuote: 0,
    });
    expect(() => parsePumpMix('multi_hop=0.5')).toThrow(/multiHop must be a number in \[0, 0.25\]/);
    expect(() => parsePumpMix('usdc_quote=-0.1')).toThrow(/usdcQuote must be a number in \[0, 0.5\]/);
    expect(() => parsePumpMix('coin_quote=')).toThrow(/coin_quote="" is not a number/);
  });
});

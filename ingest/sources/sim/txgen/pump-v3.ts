// pump.fun's October 2026 curve instructions (pump-2026-10.md §1.1, §1.2, §1.6; IDL-2293): `buy_v3`,
// `buy_exact_quote_in_v3`, `sell_v3` (17 accounts; the protocol and creator fees are kept on the curve in
// `BondingCurve.protocol_fees` / `creator_fee` instead of paid per trade; TradeEvent with `fee_recipient` the zero
// key and `creator_fee_unclaimed` the creator fee waiting on the curve), the synthetic migration (a v3 buy larger
// than what the curve has left completes it and buys the rest from the would-be pool: TradeEvent, CompleteEvent,
// PostCompleteBuyEvent), and the permissionless sweeps that pay the kept fees out (`sweep_protocol_fee`,
// `sweep_creator_fee`, 13 accounts, SweepBondingCurveFeeEvent). Instruction data and the new events come from the
// decoder's tables (pump-tables.ts). SOL-quoted coins only; no buyback fee (the simulator charges none).
import type { Acct } from '../accounts.js';
import type { AccountMeta, Ix } from '../compile.js';
import { createAtaIdempotent, CUSTOM, debit, moveTokens, systemTransferData, tokenTransferData } from '../instructions.js';
import {
  BONDING_CURVE_2026_10_LEN,
  grownCurveData,
  readCurve,
  readCurveFees,
  tokenAmount,
  trackVolume,
  writeCurve,
  writeCurveFees,
  ZERO_KEY,
  type CurveState,
} from '../layouts.js';
import { associatedTokenAddress } from '../pda.js';
import { emitEvent } from '../pump-events.js';
import { tableEventData, tableIxData } from '../pump-tables.js';
import { PUMP_ERR, rentExempt } from '../programs.js';
import { LAMPORTS_PER_SOL, type Coin, type SimState, type User } from '../state.js';
import type { Step } from '../trace.js';
import { pickUser, withBudget, type GenCtx } from './context.js';
import { meta } from './pump-accounts.js';
import {
  buyCost,
  fees,
  maybeRouted,
  netOfFees,
  noteCompletion,
  quoteLimits,
  registerPosition,
  sellProceeds,
  tokensForSol,
  tradeBase,
  volumeAccumulator,
} from './pumpfun.js';

/** Which v3 buy a client sends: the exact-quote-in form leads, as with the v1/v2 forms (not measured anywhere public). */
export const BUY_V3_KINDS = { buy_v3: 40, buy_exact_quote_in_v3: 60 } as const;
export type V3BuyKind = keyof typeof BUY_V3_KINDS;
/** Most curves the sweeps look at (the ones with fees waiting, newest first). */
const FEE_CURVES = 256;

export interface V3BuyOrder {
  kind: V3BuyKind;
  /** buy_v3: tokens wanted and the most SOL (fees included) to pay. */
  amount?: bigint;
  maxSolCost?: bigint;
  /** buy_exact_quote_in_v3: SOL to spend (fees included) and the fewest tokens to accept. */
  spend?: bigint;
  minTokensOut?: bigint;
}

/** The v3 list (IDL-2293, 17 accounts). A SOL-quoted coin passes wrapped SOL and its derived, unused token accounts. */
export function v3Accounts(s: SimState, coin: Coin, user: User, ata: Acct): AccountMeta[] {
  const p = s.programs;
  const f = s.pumpFixed;
  const u = s.pumpAccountsOf(user);
  return [
    meta(s.pumpGlobal),
    meta(coin.mint),
    meta(f.nativeMint),
    meta(p.token),
    meta(p.token),
    meta(coin.curve, true),
    meta(coin.curveAta, true),
    meta(curveWsol(s, coin), true),
    meta(user.acct, true, true),
    meta(ata, true),
    meta(u.wsol, true),
    meta(u.volume, true),
    meta(f.feeConfig),
    // SOL-paired coin: one of the buyback wallets itself (TRADE_V3.md).
    meta(f.buybackFeeRecipient, true),
    meta(p.system),
    meta(f.eventAuthority),
    meta(p.pump),
  ];
}

const wsolCache = new WeakMap<Coin, Acct>();
/** The curve's derived wrapped SOL account (named by v3 trades and sweeps of SOL coins; never used). */
function curveWsol(s: SimState, coin: Coin): Acct {
  let a = wsolCache.get(coin);
  if (a === undefined) {
    a = s.world.at(associatedTokenAddress(coin.curve.key, s.nativeMint.key));
    wsolCache.set(coin, a);
  }
  return a;
}

/** An older curve grows to the October 2026 layout on its first v3 trade or sweep; the payer tops up the rent. */
function growCurve(s: SimState, coin: Coin, payer: Acct): void {
  const d = coin.curve.data;
  if (d.length >= BONDING_CURVE_2026_10_LEN) return;
  const topUp = rentExempt(BONDING_CURVE_2026_10_LEN) - rentExempt(d.length);
  debit(payer, topUp);
  coin.curve.lamports += topUp;
  coin.curve.data = grownCurveData(d, s.globalParams.initialVirtualSolReserves);
}

function noteFees(s: SimState, coin: Coin): void {
  if (s.feeCurves.includes(coin)) return;
  s.feeCurves.push(coin);
  if (s.feeCurves.length > FEE_CURVES) s.feeCurves.shift();
}

/** TradeEvent in the October 2026 layout (35 fields), as a v3 trade writes it. */
function v3TradeEvent(
  s: SimState,
  coin: Coin,
  c: CurveState,
  user: User,
  ts: bigint,
  t: { sol: bigint; tokens: bigint; isBuy: boolean; fee: bigint; creatorFee: bigint; volume: bigint; ixName: string; unclaimed: bigint },
): Buffer {
  const b = tradeBase(s, coin, c, user, ts);
  return tableEventData('pump', 'TradeEvent', {
    mint: coin.mint.key,
    sol_amount: t.sol,
    token_amount: t.tokens,
    is_buy: t.isBuy,
    user: user.acct.key,
    timestamp: ts,
    virtual_sol_reserves: c.virtualSolReserves,
    virtual_token_reserves: c.virtualTokenReserves,
    real_sol_reserves: c.realSolReserves,
    real_token_reserves: c.realTokenReserves,
    // v3: the fee is kept on the curve, so no recipient (TRADE_V3.md).
    fee_recipient: ZERO_KEY,
    fee_basis_points: b.feeBasisPoints,
    fee: t.fee,
    creator: coin.creator.acct.key,
    creator_fee_basis_points: b.creatorFeeBasisPoints,
    creator_fee: t.creatorFee,
    track_volume: t.isBuy,
    total_unclaimed_tokens: 0n,
    total_claimed_tokens: 0n,
    current_sol_volume: t.volume,
    last_update_timestamp: t.isBuy ? ts : 0n,
    ix_name: t.ixName,
    mayhem_mode: false,
    cashback_fee_basis_points: 0n,
    cashback: 0n,
    buyback_fee_basis_points: 0n,
    buyback_fee: 0n,
    shareholders: [],
    // SOL-quoted: the zero key, the SOL figures repeated as the quote ones (as the older layouts here and record 23).
    quote_mint: ZERO_KEY,
    quote_amount: t.sol,
    virtual_quote_reserves: c.virtualSolReserves,
    real_quote_reserves: c.realSolReserves,
    holder_rewards_bps: 0n,
    holder_rewards: 0n,
    creator_fee_unclaimed: t.unclaimed,
  });
}

/**
 * The pool part of a synthetic migration (SYNTHETIC_MIGRATION.md's off-chain formula, SOL-paired): priced
 * constant-product on the would-be migration reserves. `out` for buy_v3's extra tokens, `quoteIn` for the exact-in
 * form's rest (net of fees).
 */
export function postCompleteQuote(
  poolBase: bigint,
  poolQuote: bigint,
  o: { out: bigint } | { quoteIn: bigint },
): { out: bigint; quoteIn: bigint } {
  if ('out' in o) return { out: o.out, quoteIn: (poolQuote * o.out + (poolBase - o.out) - 1n) / (poolBase - o.out) };
  if (o.quoteIn <= 1n) return { out: 0n, quoteIn: 0n };
  return { out: ((o.quoteIn - 1n) * poolBase) / (poolQuote + o.quoteIn - 1n), quoteIn: o.quoteIn };
}

function runV3Buy(ctx: GenCtx, coin: Coin, user: User, ata: Acct, o: V3BuyOrder, onDone: () => void): Step[] {
  const { s } = ctx;
  const p = s.programs;
  const g = s.globalParams;
  const c = readCurve(coin.curve.data);
  if (c.complete) throw CUSTOM(PUMP_ERR.bondingCurveComplete);
  // The curve part.
  let tokens: bigint;
  let cost: bigint;
  let extraOut = 0n;
  let restSpend = 0n;
  if (o.spend !== undefined) {
    cost = netOfFees(s, o.spend);
    tokens = tokensForSol(c, cost);
    if (tokens >= c.realTokenReserves) {
      tokens = c.realTokenReserves;
      cost = buyCost(c, tokens);
      const f = fees(s, cost);
      restSpend = o.spend - cost - f.fee - f.creatorFee;
    }
  } else {
    tokens = o.amount! < c.realTokenReserves ? o.amount! : c.realTokenReserves;
    extraOut = o.amount! - tokens;
    cost = buyCost(c, tokens);
  }
  const { fee, creatorFee } = fees(s, cost);
  // The pool part, when the buy empties the curve and wants more (non-mayhem: whatever partial_fill says).
  const completes = tokens === c.realTokenReserves;
  let post: { out: bigint; quoteIn: bigint; fee: bigint; creatorFee: bigint; base: bigint; quote: bigint } | undefined;
  if (completes && (extraOut > 0n || restSpend > 0n)) {
    const base = tokenAmount(coin.curveAta.data) - tokens;
    const quote = c.realSolReserves + cost - g.poolMigrationFee;
    const q =
      extraOut > 0n
        ? postCompleteQuote(base, quote, { out: extraOut })
        : postCompleteQuote(base, quote, { quoteIn: netOfFees(s, restSpend) });
    if (q.out > 0n) post = { ...q, ...fees(s, q.quoteIn), base, quote };
  }
  const postTotal = post ? post.quoteIn + post.fee + post.creatorFee : 0n;
  const total = cost + fee + creatorFee + postTotal;
  if (o.maxSolCost !== undefined && total > o.maxSolCost) throw CUSTOM(PUMP_ERR.tooMuchSolRequired);
  if (o.minTokensOut !== undefined && tokens + (post?.out ?? 0n) < o.minTokensOut) throw CUSTOM(PUMP_ERR.buySlippageBelowMinTokensOut);
  growCurve(s, coin, user.acct);
  debit(user.acct, total);
  // Everything goes to the curve: the price into its reserves, both fees kept in its lamports until a sweep.
  coin.curve.lamports += total;
  moveTokens(coin.curveAta, ata, tokens + (post?.out ?? 0n));
  c.virtualTokenReserves -= tokens;
  c.virtualSolReserves += cost;
  c.realTokenReserves -= tokens;
  // The pool part's quote joins what migration moves to the pool (pool_quote_reserves_after).
  c.realSolReserves += cost + (post?.quoteIn ?? 0n);
  c.complete = c.realTokenReserves === 0n;
  writeCurve(coin.curve.data, c);
  const kept = readCurveFees(coin.curve.data);
  kept.creatorFee += creatorFee + (post?.creatorFee ?? 0n);
  kept.protocolFees += fee + (post?.fee ?? 0n);
  if (post) {
    kept.postCompleteBaseOut = post.out;
    kept.postCompleteQuoteIn = post.quoteIn;
  }
  writeCurveFees(coin.curve.data, kept);
  noteFees(s, coin);
  const ts = ctx.b.blockTime;
  const volume = trackVolume(volumeAccumulator(s, user).data, cost, ts);
  onDone();
  // The event reports the curve as the curve part left it (real_quote_reserves without the pool part).
  const reported: CurveState = { ...c, realSolReserves: c.realSolReserves - (post?.quoteIn ?? 0n) };
  const steps: Step[] = [
    { program: p.token, accounts: [coin.curveAta, ata, coin.curve], data: tokenTransferData(tokens + (post?.out ?? 0n)) },
    { program: p.system, accounts: [user.acct, coin.curve], data: systemTransferData(total) },
  ];
  const auth = s.pumpFixed.eventAuthority;
  // The creator fee waiting on the curve after this instruction (pool part included).
  const unclaimed = kept.creatorFee;
  steps.push(
    ...emitEvent(ctx.b.recording, p.pump, auth, () =>
      v3TradeEvent(s, coin, reported, user, ts, { sol: cost, tokens, isBuy: true, fee, creatorFee, volume, ixName: o.kind, unclaimed }),
    ),
  );
  if (c.complete) {
    steps.push(
      ...emitEvent(ctx.b.recording, p.pump, auth, () =>
        tableEventData('pump', 'CompleteEvent', {
          user: user.acct.key,
          mint: coin.mint.key,
          bonding_curve: coin.curve.key,
          timestamp: ts,
          quote_mint: ZERO_KEY,
        }),
      ),
    );
  }
  if (post) {
    const pc = post;
    steps.push(
      ...emitEvent(ctx.b.recording, p.pump, auth, () =>
        tableEventData('pump', 'PostCompleteBuyEvent', {
          user: user.acct.key,
          mint: coin.mint.key,
          bonding_curve: coin.curve.key,
          quote_mint: ZERO_KEY,
          timestamp: ts,
          base_out: pc.out,
          quote_in: pc.quoteIn,
          fee_basis_points: g.feeBasisPoints,
          fee: pc.fee,
          creator_fee_basis_points: g.creatorFeeBasisPoints,
          creator_fee: pc.creatorFee,
          buyback_fee: 0n,
          pool_base_reserves_before: pc.base,
          pool_quote_reserves_before: pc.quote,
          pool_base_reserves_after: pc.base - pc.out,
          pool_quote_reserves_after: pc.quote + pc.quoteIn,
        }),
      ),
    );
  }
  return steps;
}

function v3BuyData(o: V3BuyOrder): Buffer {
  // partial_fill: only read on mayhem coins (not simulated); sent as [false], as the v1/v2 buys here.
  return o.kind === 'buy_v3'
    ? tableIxData('pump', 'buy_v3', { amount: o.amount!, max_sol_cost: o.maxSolCost!, partial_fill: [false] })
    : tableIxData('pump', 'buy_exact_quote_in_v3', {
        spendable_quote_in: o.spend!,
        min_tokens_out: o.minTokensOut!,
        partial_fill: [false],
      });
}

export function v3BuyIx(ctx: GenCtx, coin: Coin, user: User, ata: Acct, o: V3BuyOrder, onDone: () => void): Ix {
  return {
    program: ctx.s.programs.pump,
    accounts: v3Accounts(ctx.s, coin, user, ata),
    data: v3BuyData(o),
    run: () => runV3Buy(ctx, coin, user, ata, o, onDone),
  };
}

/** A v3 buy order for about `budget` lamports, quoted from the curve the client last saw. */
export function v3BuyOrder(ctx: GenCtx, kind: V3BuyKind, c: CurveState, budget: bigint): V3BuyOrder {
  const { s } = ctx;
  let amount = c.complete ? 1_000_000n : tokensForSol(c, netOfFees(s, budget));
  if (!c.complete && amount > c.realTokenReserves) amount = c.realTokenReserves;
  if (amount <= 0n) amount = 1_000_000n;
  if (kind === 'buy_v3') {
    const cost = c.complete ? budget : buyCost(c, amount);
    const f = fees(s, cost);
    return { kind, amount, maxSolCost: quoteLimits(ctx, cost + f.fee + f.creatorFee, true) };
  }
  return { kind, spend: budget, minTokensOut: quoteLimits(ctx, amount, false) };
}

export function v3SellIx(ctx: GenCtx, coin: Coin, user: User, ata: Acct, amount: bigint, minSolOutput: bigint): Ix {
  const { s } = ctx;
  const p = s.programs;
  return {
    program: p.pump,
    accounts: v3Accounts(s, coin, user, ata),
    data: tableIxData('pump', 'sell_v3', { amount, min_sol_output: minSolOutput }),
    run: () => {
      const c = readCurve(coin.curve.data);
      if (c.complete) throw CUSTOM(PUMP_ERR.bondingCurveComplete);
      const out = sellProceeds(c, amount);
      const { fee, creatorFee } = fees(s, out);
      if (out - fee - creatorFee < minSolOutput) throw CUSTOM(PUMP_ERR.tooLittleSolReceived);
      growCurve(s, coin, user.acct);
      moveTokens(ata, coin.curveAta, amount);
      // The fees stay on the curve: only the seller's part leaves it.
      coin.curve.lamports -= out - fee - creatorFee;
      user.acct.lamports += out - fee - creatorFee;
      c.virtualTokenReserves += amount;
      c.virtualSolReserves -= out;
      c.realTokenReserves += amount;
      c.realSolReserves -= out;
      writeCurve(coin.curve.data, c);
      const kept = readCurveFees(coin.curve.data);
      kept.creatorFee += creatorFee;
      kept.protocolFees += fee;
      writeCurveFees(coin.curve.data, kept);
      noteFees(s, coin);
      const ts = ctx.b.blockTime;
      return [
        { program: p.token, accounts: [ata, coin.curveAta, user.acct], data: tokenTransferData(amount) },
        ...emitEvent(ctx.b.recording, p.pump, s.pumpFixed.eventAuthority, () =>
          v3TradeEvent(s, coin, c, user, ts, {
            sol: out,
            tokens: amount,
            isBuy: false,
            fee,
            creatorFee,
            volume: 0n,
            ixName: 'sell_v3',
            unclaimed: kept.creatorFee,
          }),
        ),
      ];
    },
  };
}

/**
 * A graduation buy: a trader buys more than the most-filled open curve has left with a v3 buy, which completes the
 * curve and buys the rest from the would-be pool (synthetic migration). False when no curve or rich trader is at hand.
 */
export function graduationBuyTx(ctx: GenCtx): boolean {
  const { s, rng } = ctx;
  let coin: Coin | undefined;
  for (const k of s.openCoins.slice(-64))
    if (!coin || readCurve(k.curve.data).realTokenReserves < readCurve(coin.curve.data).realTokenReserves) coin = k;
  if (!coin) return false;
  const c = readCurve(coin.curve.data);
  if (c.complete || c.realTokenReserves === 0n) return false;
  const cost = buyCost(c, c.realTokenReserves);
  const f = fees(s, cost);
  // The rest: 1-20% of the curve part again, bought from the would-be pool.
  const extraSpend = ((cost + f.fee + f.creatorFee) * BigInt(rng.range(1, 20))) / 100n + LAMPORTS_PER_SOL / 100n;
  const need = cost + f.fee + f.creatorFee + 2n * extraSpend;
  const user = pickUser(ctx, need);
  if (!user) return false;
  const kind = rng.weighted(BUY_V3_KINDS);
  let order: V3BuyOrder;
  if (kind === 'buy_exact_quote_in_v3') {
    order = { kind, spend: cost + f.fee + f.creatorFee + extraSpend, minTokensOut: c.realTokenReserves };
  } else {
    const base = tokenAmount(coin.curveAta.data) - c.realTokenReserves;
    const quote = c.realSolReserves + cost - s.globalParams.poolMigrationFee;
    const extra = (netOfFees(s, extraSpend) * base) / (quote + netOfFees(s, extraSpend));
    order = { kind, amount: c.realTokenReserves + extra, maxSolCost: cost + f.fee + f.creatorFee + 2n * extraSpend };
  }
  const ata = s.ataOf(user, coin.mint);
  const target = coin;
  const buy = v3BuyIx(ctx, target, user, ata, order, () => registerPosition(s, user, target, ata));
  const tx = ctx.b.submit({
    payer: user.acct,
    ixs: withBudget(ctx, [createAtaIdempotentFor(ctx, user, ata, target), maybeRouted(ctx, user, buy, cost)], 0.9),
    table: rng.chance(0.4) ? s.table : undefined,
  });
  if (tx && tx.err === undefined) noteCompletion(ctx, target);
  return true;
}

function createAtaIdempotentFor(ctx: GenCtx, user: User, ata: Acct, coin: Coin): Ix {
  return createAtaIdempotent(ctx.s.programs, user.acct, ata, user.acct, coin.mint);
}

/** The sweeps' list (IDL-2293, 13 accounts). SOL coins pass the derived (unused) wrapped SOL accounts. */
function sweepAccounts(s: SimState, coin: Coin, payer: Acct, recipient: Acct): AccountMeta[] {
  const p = s.programs;
  return [
    meta(payer, true, true),
    meta(s.pumpGlobal),
    meta(coin.mint),
    meta(s.nativeMint),
    meta(p.token),
    meta(p.ata),
    meta(p.system),
    meta(coin.curve, true),
    meta(curveWsol(s, coin), true),
    meta(recipient, true),
    meta(s.world.at(associatedTokenAddress(recipient.key, s.nativeMint.key)), true),
    meta(s.pumpFixed.eventAuthority),
    meta(p.pump),
  ];
}

/**
 * A permissionless sweep of fees v3 trades kept on a curve: `sweep_creator_fee` to the creator's vault (usually
 * sent by the creator) or `sweep_protocol_fee` to the fee recipient (by anyone). False when no curve has fees waiting.
 */
export function curveSweepTx(ctx: GenCtx): boolean {
  const { s, rng } = ctx;
  for (let tries = 0; tries < 4 && s.feeCurves.length > 0; tries++) {
    const i = rng.int(s.feeCurves.length);
    const coin = s.feeCurves[i]!;
    const waiting = readCurveFees(coin.curve.data);
    if (waiting.creatorFee === 0n && waiting.protocolFees === 0n) {
      s.feeCurves.splice(i, 1);
      continue;
    }
    const creator = waiting.creatorFee > 0n && (waiting.protocolFees === 0n || rng.chance(0.6));
    const payer = creator && s.spendable(coin.creator) > 1_000_000n ? coin.creator : pickUser(ctx, 1_000_000n);
    if (!payer) return false;
    const recipient = creator ? coin.creatorVault : s.feeRecipient;
    const name = creator ? 'sweep_creator_fee' : 'sweep_protocol_fee';
    const ix: Ix = {
      program: s.programs.pump,
      accounts: sweepAccounts(s, coin, payer.acct, recipient),
      data: tableIxData('pump', name),
      run: () => {
        growCurve(s, coin, payer.acct);
        const kept = readCurveFees(coin.curve.data);
        const amount = creator ? kept.creatorFee : kept.protocolFees;
        if (creator) kept.creatorFee = 0n;
        else kept.protocolFees = 0n;
        writeCurveFees(coin.curve.data, kept);
        // Nothing waiting (a sweep already landed in this block): a no-op, no event.
        if (amount === 0n) return [];
        // The curve is pump's own account: its lamports move without a CPI.
        coin.curve.lamports -= amount;
        recipient.lamports += amount;
        const ts = ctx.b.blockTime;
        return emitEvent(ctx.b.recording, s.programs.pump, s.pumpFixed.eventAuthority, () =>
          tableEventData('pump', 'SweepBondingCurveFeeEvent', {
            timestamp: ts,
            mint: coin.mint.key,
            bonding_curve: coin.curve.key,
            quote_mint: ZERO_KEY,
            recipient: recipient.key,
            amount,
            bucket: creator ? 1 : 0,
          }),
        );
      },
    };
    ctx.b.submit({ payer: payer.acct, ixs: withBudget(ctx, [ix], 0.6) });
    return true;
  }
  return false;
}

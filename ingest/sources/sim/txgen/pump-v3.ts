// pump.fun's October 2026 curve instructions (pump-2026-10.md §1.1, §1.2, §1.6; IDL-2293): `buy_v3`,
// `buy_exact_quote_in_v3`, `sell_v3` (17 accounts; the protocol and creator fees are kept on the curve in
// `BondingCurve.protocol_fees` / `creator_fee` instead of paid per trade; TradeEvent with `fee_recipient` the zero
// key and `creator_fee_unclaimed` the creator fee waiting on the curve), the synthetic migration (a v3 buy larger
// than what the curve has left completes it and buys the rest from the would-be pool: TradeEvent, CompleteEvent,
// PostCompleteBuyEvent), and the permissionless sweeps that pay the kept fees out (`sweep_protocol_fee`,
// `sweep_creator_fee`, 13 accounts, SweepBondingCurveFeeEvent). Instruction data and the new events come from the
// decoder's tables (pump-tables.ts). SOL, USDC and pump-coin quotes (curve-quote.ts moves the quote); no buyback
// fee (the simulator charges none).
import type { Acct } from '../accounts.js';
import type { AccountMeta, Ix } from '../compile.js';
import { createAtaIdempotent, CUSTOM, debit, moveTokens, tokenTransferData } from '../instructions.js';
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
import { emitEvent } from '../pump-events.js';
import { tableEventData, tableIxData } from '../pump-tables.js';
import { PUMP_ERR, rentExempt } from '../programs.js';
import { LAMPORTS_PER_SOL, type Coin, type SimState, type User } from '../state.js';
import type { Step } from '../trace.js';
import { pickUser, withBudget, type GenCtx } from './context.js';
import {
  ataFor,
  buybackRecipient,
  curveQuoteAccount,
  ensureTokenAccount,
  quoteIntoCurve,
  quoteMintAcct,
  quoteMintKey,
  quoteOutOfCurve,
  userQuoteAccount,
} from './curve-quote.js';
import { meta } from './pump-accounts.js';
import {
  buyCost,
  curveBuyPart,
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
  const u = s.pumpAccountsOf(user);
  return [
    meta(s.pumpGlobal),
    meta(coin.mint),
    meta(quoteMintAcct(s, coin)),
    meta(p.token),
    meta(p.token),
    meta(coin.curve, true),
    meta(coin.curveAta, true),
    meta(curveQuoteAccount(s, coin), true),
    meta(user.acct, true, true),
    meta(ata, true),
    meta(userQuoteAccount(s, coin, user), true),
    meta(u.volume, true),
    meta(s.pumpFixed.feeConfig),
    meta(buybackRecipient(s, coin), true),
    meta(p.system),
    meta(s.pumpFixed.eventAuthority),
    meta(p.pump),
  ];
}

/** An older curve grows to the October 2026 layout on its first v3 trade or sweep; the payer tops up the rent. */
export function growCurve(s: SimState, coin: Coin, payer: Acct): void {
  const d = coin.curve.data;
  if (d.length >= BONDING_CURVE_2026_10_LEN) return;
  const topUp = rentExempt(BONDING_CURVE_2026_10_LEN) - rentExempt(d.length);
  debit(payer, topUp);
  coin.curve.lamports += topUp;
  coin.curve.data = grownCurveData(d, s.globalParams.initialVirtualSolReserves);
}

/** Fees kept on the curve until a sweep (both buckets); returns the creator fee now waiting. */
export function keepCurveFees(s: SimState, coin: Coin, fee: bigint, creatorFee: bigint, post?: PostPart): bigint {
  const kept = readCurveFees(coin.curve.data);
  kept.creatorFee += creatorFee + (post?.creatorFee ?? 0n);
  kept.protocolFees += fee + (post?.fee ?? 0n);
  if (post) {
    kept.postCompleteBaseOut = post.out;
    kept.postCompleteQuoteIn = post.quoteIn;
  }
  writeCurveFees(coin.curve.data, kept);
  if (!s.feeCurves.includes(coin)) {
    s.feeCurves.push(coin);
    if (s.feeCurves.length > FEE_CURVES) s.feeCurves.shift();
  }
  return kept.creatorFee;
}

/** What a TradeEvent of the October 2026 layout says of one trade (amounts in the quote mint's units). */
export interface V3Trade {
  sol: bigint;
  tokens: bigint;
  isBuy: boolean;
  fee: bigint;
  creatorFee: bigint;
  volume: bigint;
  ixName: string;
  unclaimed: bigint;
}

/** TradeEvent in the October 2026 layout (35 fields), as a v3 trade or a multi-hop curve hop writes it. */
export function v3TradeEvent(s: SimState, coin: Coin, c: CurveState, user: User, ts: bigint, t: V3Trade): Buffer {
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
    ...NO_EXTRAS,
    // The quote side: the zero key for SOL with the SOL figures repeated (as record 23), or the quote mint with the
    // same figures in its units (what `sol_amount` holds for other quotes is undocumented, pump-2026-10.md §6.4).
    quote_mint: quoteMintKey(coin),
    quote_amount: t.sol,
    virtual_quote_reserves: c.virtualSolReserves,
    real_quote_reserves: c.realSolReserves,
    holder_rewards_bps: 0n,
    holder_rewards: 0n,
    creator_fee_unclaimed: t.unclaimed,
  });
}

/** No mayhem, cashback, buyback fee or shareholders: the simulator runs none of them. */
const NO_EXTRAS = {
  mayhem_mode: false,
  cashback_fee_basis_points: 0n,
  cashback: 0n,
  buyback_fee_basis_points: 0n,
  buyback_fee: 0n,
  shareholders: [],
} as const;

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

/** The pool part of a synthetic migration with its fees and the reserves it was priced on. */
interface PostPart {
  out: bigint;
  quoteIn: bigint;
  fee: bigint;
  creatorFee: bigint;
  base: bigint;
  quote: bigint;
}

/** A v3 buy's fill: the curve part, its fees, and the pool part when the buy empties the curve and wants more. */
interface V3Fill {
  tokens: bigint;
  cost: bigint;
  fee: bigint;
  creatorFee: bigint;
  post?: PostPart;
  /** Everything the buyer pays (both parts, fees included). */
  total: bigint;
  /** Everything the buyer gets. */
  out: bigint;
}

function v3Fill(s: SimState, coin: Coin, c: CurveState, o: V3BuyOrder): V3Fill {
  const { tokens, cost, capped } = curveBuyPart(s, c, o);
  const { fee, creatorFee } = fees(s, cost);
  const extraOut = o.amount !== undefined ? o.amount - tokens : 0n;
  const restSpend = o.spend !== undefined && capped ? o.spend - cost - fee - creatorFee : 0n;
  let post: PostPart | undefined;
  // The pool part (non-mayhem: whatever partial_fill says). The simulator migrates SOL coins only; its traders leave
  // quoted coins long before they fill (quoted-coins.ts), so a quoted curve that would complete refuses.
  if (capped && (extraOut > 0n || restSpend > 0n)) {
    if (coin.quote) throw CUSTOM(PUMP_ERR.notEnoughTokensToBuy);
    const base = tokenAmount(coin.curveAta.data) - tokens;
    const quote = c.realSolReserves + cost - s.globalParams.poolMigrationFee;
    const q =
      extraOut > 0n
        ? postCompleteQuote(base, quote, { out: extraOut })
        : postCompleteQuote(base, quote, { quoteIn: netOfFees(s, restSpend) });
    if (q.out > 0n) post = { ...q, ...fees(s, q.quoteIn), base, quote };
  }
  const total = cost + fee + creatorFee + (post ? post.quoteIn + post.fee + post.creatorFee : 0n);
  if (o.maxSolCost !== undefined && total > o.maxSolCost) throw CUSTOM(PUMP_ERR.tooMuchSolRequired);
  const out = tokens + (post?.out ?? 0n);
  if (o.minTokensOut !== undefined && out < o.minTokensOut) throw CUSTOM(PUMP_ERR.buySlippageBelowMinTokensOut);
  return { tokens, cost, fee, creatorFee, post, total, out };
}

/** The curve after a v3 buy; the pool part's quote joins what migration moves to the pool (pool_quote_reserves_after). */
function applyV3Buy(coin: Coin, c: CurveState, f: V3Fill): void {
  c.virtualTokenReserves -= f.tokens;
  c.virtualSolReserves += f.cost;
  c.realTokenReserves -= f.tokens;
  c.realSolReserves += f.cost + (f.post?.quoteIn ?? 0n);
  c.complete = c.realTokenReserves === 0n;
  writeCurve(coin.curve.data, c);
}

function runV3Buy(ctx: GenCtx, coin: Coin, user: User, ata: Acct, o: V3BuyOrder, onDone: () => void): Step[] {
  const { s } = ctx;
  const p = s.programs;
  const c = readCurve(coin.curve.data);
  if (c.complete) throw CUSTOM(PUMP_ERR.bondingCurveComplete);
  const f = v3Fill(s, coin, c, o);
  growCurve(s, coin, user.acct);
  // Everything goes to the curve: the price into its reserves, both fees kept there until a sweep.
  const pay = quoteIntoCurve(s, coin, user.acct, userQuoteAccount(s, coin, user), f.total);
  moveTokens(coin.curveAta, ata, f.out);
  applyV3Buy(coin, c, f);
  const unclaimed = keepCurveFees(s, coin, f.fee, f.creatorFee, f.post);
  const ts = ctx.b.blockTime;
  const volume = trackVolume(volumeAccumulator(s, user).data, f.cost, ts);
  onDone();
  // The event reports the curve as the curve part left it (real_quote_reserves without the pool part).
  const reported: CurveState = { ...c, realSolReserves: c.realSolReserves - (f.post?.quoteIn ?? 0n) };
  const trade: V3Trade = {
    sol: f.cost,
    tokens: f.tokens,
    isBuy: true,
    fee: f.fee,
    creatorFee: f.creatorFee,
    volume,
    ixName: o.kind,
    unclaimed,
  };
  const emit = (encode: () => Buffer): Step[] => emitEvent(ctx.b.recording, p.pump, s.pumpFixed.eventAuthority, encode);
  return [
    { program: p.token, accounts: [coin.curveAta, ata, coin.curve], data: tokenTransferData(f.out) },
    pay,
    ...emit(() => v3TradeEvent(s, coin, reported, user, ts, trade)),
    ...(c.complete ? emit(() => completeEventData(coin, user, ts)) : []),
    ...(f.post ? emit(() => postCompleteBuyEventData(s, coin, user, ts, f.post!)) : []),
  ];
}

function completeEventData(coin: Coin, user: User, ts: bigint): Buffer {
  return tableEventData('pump', 'CompleteEvent', {
    user: user.acct.key,
    mint: coin.mint.key,
    bonding_curve: coin.curve.key,
    timestamp: ts,
    quote_mint: quoteMintKey(coin),
  });
}

function postCompleteBuyEventData(s: SimState, coin: Coin, user: User, ts: bigint, pc: PostPart): Buffer {
  const g = s.globalParams;
  return tableEventData('pump', 'PostCompleteBuyEvent', {
    user: user.acct.key,
    mint: coin.mint.key,
    bonding_curve: coin.curve.key,
    quote_mint: quoteMintKey(coin),
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
  });
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
  return {
    program: s.programs.pump,
    accounts: v3Accounts(s, coin, user, ata),
    data: tableIxData('pump', 'sell_v3', { amount, min_sol_output: minSolOutput }),
    run: () => runV3Sell(ctx, coin, user, ata, amount, minSolOutput),
  };
}

function runV3Sell(ctx: GenCtx, coin: Coin, user: User, ata: Acct, amount: bigint, minSolOutput: bigint): Step[] {
  const { s } = ctx;
  const p = s.programs;
  const c = readCurve(coin.curve.data);
  if (c.complete) throw CUSTOM(PUMP_ERR.bondingCurveComplete);
  const out = sellProceeds(c, amount);
  const { fee, creatorFee } = fees(s, out);
  if (out - fee - creatorFee < minSolOutput) throw CUSTOM(PUMP_ERR.tooLittleSolReceived);
  growCurve(s, coin, user.acct);
  moveTokens(ata, coin.curveAta, amount);
  // The fees stay on the curve: only the seller's part leaves it.
  const paid = quoteOutOfCurve(s, coin, user.acct, userQuoteAccount(s, coin, user), out - fee - creatorFee);
  c.virtualTokenReserves += amount;
  c.virtualSolReserves -= out;
  c.realTokenReserves += amount;
  c.realSolReserves -= out;
  writeCurve(coin.curve.data, c);
  const unclaimed = keepCurveFees(s, coin, fee, creatorFee);
  const ts = ctx.b.blockTime;
  const trade: V3Trade = { sol: out, tokens: amount, isBuy: false, fee, creatorFee, volume: 0n, ixName: 'sell_v3', unclaimed };
  return [
    { program: p.token, accounts: [ata, coin.curveAta, user.acct], data: tokenTransferData(amount) },
    ...paid,
    ...emitEvent(ctx.b.recording, p.pump, s.pumpFixed.eventAuthority, () => v3TradeEvent(s, coin, c, user, ts, trade)),
  ];
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
    meta(quoteMintAcct(s, coin)),
    meta(p.token),
    meta(p.ata),
    meta(p.system),
    meta(coin.curve, true),
    meta(curveQuoteAccount(s, coin), true),
    meta(recipient, true),
    meta(ataFor(s, recipient, quoteMintAcct(s, coin)), true),
    meta(s.pumpFixed.eventAuthority),
    meta(p.pump),
  ];
}

/** A fee holder with fees waiting (a curve or pool; up to four tries), dropping from `list` the ones swept empty. */
export function pickFeeHolder<T>(ctx: GenCtx, list: T[], waiting: (x: T) => { creator: bigint; protocol: bigint }) {
  for (let tries = 0; tries < 4 && list.length > 0; tries++) {
    const i = ctx.rng.int(list.length);
    const x = list[i]!;
    const w = waiting(x);
    if (w.creator === 0n && w.protocol === 0n) {
      list.splice(i, 1);
      continue;
    }
    // Creators sweep their own fees more often than anyone sweeps the protocol's.
    return { x, creator: w.creator > 0n && (w.protocol === 0n || ctx.rng.chance(0.6)) };
  }
  return undefined;
}

/**
 * A permissionless sweep of fees v3 trades kept on a curve: `sweep_creator_fee` to the creator's vault (usually
 * sent by the creator) or `sweep_protocol_fee` to the fee recipient (by anyone); a quoted coin's fees go to the
 * recipient's token account for the quote (created if missing). False when no curve has fees waiting.
 */
export function curveSweepTx(ctx: GenCtx): boolean {
  const { s } = ctx;
  const pick = pickFeeHolder(ctx, s.feeCurves, (coin) => {
    const w = readCurveFees(coin.curve.data);
    return { creator: w.creatorFee, protocol: w.protocolFees };
  });
  if (!pick) return false;
  const { x: coin, creator } = pick;
  const payer = creator && s.spendable(coin.creator) > 1_000_000n ? coin.creator : pickUser(ctx, 1_000_000n);
  if (!payer) return false;
  const recipient = creator ? coin.creatorVault : s.feeRecipient;
  const ix: Ix = {
    program: s.programs.pump,
    accounts: sweepAccounts(s, coin, payer.acct, recipient),
    data: tableIxData('pump', creator ? 'sweep_creator_fee' : 'sweep_protocol_fee'),
    run: () => runCurveSweep(ctx, coin, payer.acct, recipient, creator),
  };
  ctx.b.submit({ payer: payer.acct, ixs: withBudget(ctx, [ix], 0.6) });
  return true;
}

function runCurveSweep(ctx: GenCtx, coin: Coin, payer: Acct, recipient: Acct, creator: boolean): Step[] {
  const { s } = ctx;
  growCurve(s, coin, payer);
  const kept = readCurveFees(coin.curve.data);
  const amount = creator ? kept.creatorFee : kept.protocolFees;
  if (creator) kept.creatorFee = 0n;
  else kept.protocolFees = 0n;
  writeCurveFees(coin.curve.data, kept);
  // Nothing waiting (a sweep already landed in this block): a no-op, no event.
  if (amount === 0n) return [];
  const to = ataFor(s, recipient, quoteMintAcct(s, coin));
  if (coin.quote) ensureTokenAccount(payer, to, coin.quote.mint, recipient);
  const paid = quoteOutOfCurve(s, coin, recipient, to, amount);
  const ts = ctx.b.blockTime;
  return [
    ...paid,
    ...emitEvent(ctx.b.recording, s.programs.pump, s.pumpFixed.eventAuthority, () =>
      tableEventData('pump', 'SweepBondingCurveFeeEvent', {
        timestamp: ts,
        mint: coin.mint.key,
        bonding_curve: coin.curve.key,
        quote_mint: quoteMintKey(coin),
        recipient: recipient.key,
        amount,
        bucket: creator ? 1 : 0,
      }),
    ),
  ];
}

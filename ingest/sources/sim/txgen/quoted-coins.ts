// Coins quoted in USDC or in another pump coin (pump-2026-10.md §1.4 `create_v2`, §4; IDL-2293). A quoted coin is
// created with `create_v2` whose remaining accounts select the quote (quote mint, the curve's token account for it,
// the quote's token program; for a pump coin as quote also the `quote-control` PDA and the quote coin's bonding
// curve, CREATE_WITH_PUMP_COIN_QUOTE.md). Its curve is written in the October 2026 layout with `quote_mint`, `depth`
// (0 for USDC, 1 for a pump coin) and `initial_virtual_quote_reserves`; its CreateEvent names the quote. USDC coins
// trade with the v3 instructions paid in USDC (legacy instructions cannot trade them, README.md @2293f9a); coins
// quoted in a pump coin (on its curve or, once it migrated, its pool) trade through multi-hop routes (multi-hop.ts).
// Not simulated: migration of quoted coins (their traders leave them with a quarter of the curve left, so none
// completes), quote-control admin traffic.
import type { AccountMeta } from '../compile.js';
import { createAtaIdempotent, createTokenAccount } from '../instructions.js';
import { BONDING_CURVE_2026_10_LEN, grownCurveData, readCurve, tokenAmount, type CurveState } from '../layouts.js';
import { findProgramAddress } from '../pda.js';
import { emitEvent } from '../pump-events.js';
import { tableEventData, tableIxData } from '../pump-tables.js';
import { PUMP_PROGRAM, TOKEN_PROGRAM } from '../programs.js';
import { LAMPORTS_PER_SOL, type Coin, type SimState, type User } from '../state.js';
import type { Step } from '../trace.js';
import { pickUser, withBudget, type GenCtx } from './context.js';
import { ataFor, quoteMintKey } from './curve-quote.js';
import { reservesOf } from './pumpswap.js';
import { meta } from './pump-accounts.js';
import { BUY_V3_KINDS, v3BuyIx, v3BuyOrder, v3SellIx } from './pump-v3.js';
import { coinNames, createV2Accounts, fees, initialCurve, newCoin, openCurve, quoteLimits, sellProceeds } from './pumpfun.js';

/** Quoted coins that trade (the newest). */
const QUOTED_COINS = 64;
/**
 * USDC's initial virtual quote reserves: the SOL curve's 30 SOL at about 150 USDC a SOL (Global's
 * `initial_virtual_quote_reserves` is not published; the simulator's choice).
 */
export const USDC_INITIAL_VIRTUAL_QUOTE = 4_500_000_000n;
const USDC_UNIT = 1_000_000n;

/** The `quote-control` PDA (pump-2026-10.md §3.4: `6z6GDdfb…`, re-derived from its seed). */
let quoteControl: Buffer | undefined;
const quoteControlAddress = (): Buffer => (quoteControl ??= findProgramAddress([Buffer.from('quote-control')], PUMP_PROGRAM).address);

/**
 * A new coin's virtual quote reserves: USDC's fixed seed, or for a pump coin Q the SOL curve's seed in Q at Q's
 * current price (CreateEvent.virtual_quote_reserves "carries the derived seed", CREATE_WITH_PUMP_COIN_QUOTE.md; the
 * derivation itself is not published).
 */
function initialVirtualQuote(s: SimState, quoteCoin: Coin | undefined): bigint {
  if (!quoteCoin) return USDC_INITIAL_VIRTUAL_QUOTE;
  if (quoteCoin.pool) {
    const r = reservesOf(quoteCoin.pool);
    return (s.globalParams.initialVirtualSolReserves * r.base) / r.quote;
  }
  const q = readCurve(quoteCoin.curve.data);
  return (s.globalParams.initialVirtualSolReserves * q.virtualTokenReserves) / q.virtualSolReserves;
}

/**
 * A quote coin: one of the newest SOL curves still open or, a third of the time, of the newest pools (a coin that
 * migrated; its routes' SOL end is then a pool hop). A pump-coin-quoted coin cannot itself be a quote (6105).
 */
function quoteCoinFor(ctx: GenCtx): Coin | undefined {
  const { pools } = ctx.s;
  if (pools.length > 0 && ctx.rng.chance(1 / 3)) return pools[Math.max(0, pools.length - 1 - ctx.rng.int(32))]!.coin;
  const open = ctx.s.openCoins;
  if (open.length === 0) return undefined;
  const coin = open[Math.max(0, open.length - 1 - ctx.rng.int(32))]!;
  return readCurve(coin.curve.data).complete ? undefined : coin;
}

/** create_v2's remaining accounts selecting the quote (IDL-2293 `create_v2` docs). */
function quoteAccounts(s: SimState, coin: Coin): AccountMeta[] {
  const q = coin.quote!;
  const list = [meta(q.mint), meta(q.curveAta, true), meta(s.programs.token)];
  if (q.coin) list.push(meta(s.world.at(quoteControlAddress())), meta(q.coin.curve));
  // Q migrated: its pool and the pool's two vaults too (all 8 accounts, else 6101).
  const pool = q.coin?.pool;
  if (pool) list.push(meta(pool.acct), meta(pool.baseAta), meta(pool.quoteAta));
  return list;
}

/** A coin quoted in USDC (`usdc`) or in a pump coin, created with create_v2; false when no creator or quote coin is at hand. */
export function createQuotedTx(ctx: GenCtx, quote: 'usdc' | 'coin'): boolean {
  const { s } = ctx;
  const quoteCoin = quote === 'coin' ? quoteCoinFor(ctx) : undefined;
  if (quote === 'coin' && !quoteCoin) return false;
  const creator = pickUser(ctx, LAMPORTS_PER_SOL / 10n);
  if (!creator) return false;
  const coin = newCoin(s, creator);
  const mint = quoteCoin?.mint ?? s.usdc;
  coin.quote = { mint, curveAta: ataFor(s, coin.curve, mint), coin: quoteCoin };
  const names = coinNames(ctx);
  const virtualQuote = initialVirtualQuote(s, quoteCoin);
  const ix = {
    program: s.programs.pump,
    accounts: [...createV2Accounts(s, coin), ...quoteAccounts(s, coin)],
    data: tableIxData('pump', 'create_v2', {
      ...names,
      creator: creator.acct.key,
      is_mayhem_mode: false,
      is_cashback_enabled: [false],
      creator_fee_bps: [0n],
      is_holder_reward: [false],
    }),
    run: () => runCreateQuoted(ctx, coin, names, virtualQuote),
  };
  const tx = ctx.b.submit({ payer: creator.acct, ixs: withBudget(ctx, [ix], 0.9) });
  if (tx && tx.err === undefined) {
    s.coins.push(coin);
    const list = quoteCoin ? s.coinQuotedCoins : s.usdcCoins;
    list.push(coin);
    if (list.length > QUOTED_COINS) list.shift();
  }
  return true;
}

function runCreateQuoted(ctx: GenCtx, coin: Coin, names: { name: string; symbol: string; uri: string }, virtualQuote: bigint): Step[] {
  const { s } = ctx;
  const q = coin.quote!;
  const state = initialCurve(s, virtualQuote);
  openCurve(ctx, coin, state, BONDING_CURVE_2026_10_LEN);
  const depth = q.coin ? 1 : 0;
  // The October 2026 curve: quote_mint @83, depth @141, initial_virtual_quote_reserves @142 (pump-2026-10.md §3.1).
  const d = grownCurveData(coin.curve.data, virtualQuote);
  d.set(q.mint.key, 83);
  d[141] = depth;
  coin.curve.data = d;
  createTokenAccount(coin.creator.acct, q.curveAta, q.mint, coin.curve);
  return emitEvent(ctx.b.recording, s.programs.pump, s.pumpFixed.eventAuthority, () =>
    tableEventData('pump', 'CreateEvent', {
      ...names,
      mint: coin.mint.key,
      bonding_curve: coin.curve.key,
      user: coin.creator.acct.key,
      creator: coin.creator.acct.key,
      timestamp: ctx.b.blockTime,
      virtual_token_reserves: state.virtualTokenReserves,
      virtual_sol_reserves: state.virtualSolReserves,
      real_token_reserves: state.realTokenReserves,
      token_total_supply: state.tokenTotalSupply,
      token_program: TOKEN_PROGRAM,
      is_mayhem_mode: false,
      is_cashback_enabled: false,
      quote_mint: quoteMintKey(coin),
      virtual_quote_reserves: virtualQuote,
      creator_fee_bps: 0n,
      is_holder_reward: false,
      depth,
    }),
  );
}

/** A quoted coin that still trades (skewed to the newest); coins with under a quarter of their curve left retire. */
export function tradingQuotedCoin(ctx: GenCtx, list: Coin[]): Coin | undefined {
  for (let tries = 0; tries < 2 && list.length > 0; tries++) {
    const u = ctx.rng.float();
    const i = list.length - 1 - Math.floor(list.length * u * u);
    const coin = list[i]!;
    if (readCurve(coin.curve.data).realTokenReserves * 4n >= ctx.s.globalParams.initialRealTokenReserves) return coin;
    list.splice(i, 1);
  }
  return undefined;
}

export function addHolder(coin: Coin, user: User): void {
  if (coin.holders.length < 256 && !coin.holders.includes(user)) coin.holders.push(user);
}

/** A user holding at least `min` USDC (a few tries). */
function usdcHolder(ctx: GenCtx, min: bigint): User | undefined {
  const { s } = ctx;
  for (let i = 0; i < 6; i++) {
    const u = ctx.rng.pick(s.users);
    const ata = s.ataOf(u, s.usdc);
    if (ata.exists && tokenAmount(ata.data) >= min && s.spendable(u) >= LAMPORTS_PER_SOL / 100n) return u;
  }
  return undefined;
}

/**
 * A v3 trade of a USDC-quoted coin, paid in USDC: a buy of 1 to 500 USDC, or (when a holder still has some) a sell
 * of part of a position; with no USDC coin trading, the launch of one. False when no trader is at hand.
 */
export function usdcTradeTx(ctx: GenCtx): boolean {
  const coin = tradingQuotedCoin(ctx, ctx.s.usdcCoins);
  // None trading yet (or all retired): someone launches one, so the USDC share of trades holds from the start.
  if (!coin) return createQuotedTx(ctx, 'usdc');
  const holder = coin.holders.length > 0 && ctx.rng.chance(0.4) ? ctx.rng.pick(coin.holders) : undefined;
  if (holder && usdcSell(ctx, coin, holder)) return true;
  return usdcBuy(ctx, coin);
}

function usdcBuy(ctx: GenCtx, coin: Coin): boolean {
  const { s, rng } = ctx;
  const user = usdcHolder(ctx, 5n * USDC_UNIT);
  if (!user) return false;
  const have = tokenAmount(s.ataOf(user, s.usdc).data) / 2n;
  const budget = USDC_UNIT + (BigInt(rng.u32()) * ((have < 500n * USDC_UNIT ? have : 500n * USDC_UNIT) - USDC_UNIT)) / 0xffff_ffffn;
  const ata = s.ataOf(user, coin.mint);
  const order = v3BuyOrder(ctx, rng.weighted(BUY_V3_KINDS), readCurve(coin.curve.data), budget);
  const buy = v3BuyIx(ctx, coin, user, ata, order, () => addHolder(coin, user));
  ctx.b.submit({
    payer: user.acct,
    ixs: withBudget(ctx, [createAtaIdempotent(s.programs, user.acct, ata, user.acct, coin.mint), buy], 0.9),
    table: rng.chance(0.4) ? s.table : undefined,
  });
  return true;
}

function usdcSell(ctx: GenCtx, coin: Coin, user: User): boolean {
  const { s, rng } = ctx;
  const ata = s.ataOf(user, coin.mint);
  const have = ata.exists ? tokenAmount(ata.data) : 0n;
  if (have === 0n || s.spendable(user) < 1_000_000n) return false;
  const amount = rng.chance(0.3) ? have : 1n + (have * BigInt(rng.range(1, 60))) / 100n;
  const proceeds = sellProceeds(readCurve(coin.curve.data), amount);
  const f = fees(s, proceeds);
  const sell = v3SellIx(ctx, coin, user, ata, amount, quoteLimits(ctx, proceeds - f.fee - f.creatorFee, false));
  ctx.b.submit({ payer: user.acct, ixs: withBudget(ctx, [sell], 0.9), table: rng.chance(0.4) ? s.table : undefined });
  return true;
}

/** A curve's state now (for quoting routes). */
export const curveNow = (coin: Coin): CurveState => readCurve(coin.curve.data);

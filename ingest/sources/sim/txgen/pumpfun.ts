// pump.fun's bonding curve as mainnet runs it today (the official IDL, pump-public-docs 1b822158, read in
// ../shared/data/mainnet/pump): `create` / `create_v2`, `buy` / `buy_exact_sol_in` / `buy_v2` /
// `buy_exact_quote_in_v2`, `sell` / `sell_v2`, with today's argument and account lists, protocol and creator
// fees, slippage limits (6002/6003/6042 when the price moved), TradeEvent / CreateEvent / CompleteEvent in
// today's layouts (as `Program data:` logs and self-CPIs), and a share of trades through the simulated router.
// A curve that sells its last token completes; pump-migrate.ts migrates it.
import type { Acct } from '../accounts.js';
import type { AccountMeta, Ix } from '../compile.js';
import { borsh } from '../borsh.js';
import {
  createAtaIdempotent,
  createTokenAccount,
  CUSTOM,
  debit,
  IxError,
  moveTokens,
  systemTransferData,
  tokenTransferData,
} from '../instructions.js';
import {
  BONDING_CURVE_LEN,
  bondingCurveData,
  METADATA_LEN,
  metadataData,
  mintData,
  MINT_LEN,
  readCurve,
  tokenAmount,
  trackVolume,
  USER_VOLUME_ACCUMULATOR_LEN,
  userVolumeAccumulatorData,
  writeCurve,
  type CurveState,
} from '../layouts.js';
import { associatedTokenAddress, bondingCurveAddress, creatorVaultAddress, mayhemStateAddress, metadataAddress } from '../pda.js';
import { completeEvent, createEvent, emitEvent, tradeEvent } from '../pump-events.js';
import { PUMP_ERR, PUMP_IX, PUMP_MINT_AUTHORITY, rentExempt, TOKEN_PROGRAM } from '../programs.js';
import { LAMPORTS_PER_SOL, type Coin, type SimState, type User } from '../state.js';
import type { Step } from '../trace.js';
import { lamportsBetween, pickUser, withBudget, type GenCtx } from './context.js';
import { buyAccounts, meta, sellAccounts, v2Accounts } from './pump-accounts.js';
import { BUY_V3_KINDS, graduationBuyTx, v3BuyIx, v3BuyOrder, v3SellIx } from './pump-v3.js';
import { usdcInsteadTx } from './october.js';
import { viaRouter } from './router.js';

const HOT_COINS = 64;
const SELL_SHARES = { all: 3, half: 3, some: 4 } as const;
const TOLERANCE_BPS: Record<string, number> = { '50': 2, '100': 2, '500': 3, '1000': 2, '2500': 1 };
/**
 * Which buy instruction a trader's client sends. Not measured anywhere public: chosen so every current kind is
 * common, the exact-SOL-in forms (what trading UIs send) most of all; `buy` keeps a large share because bots and
 * the creator's first buy still use it.
 */
const BUY_KINDS = { buy: 35, buy_exact_sol_in: 40, buy_v2: 10, buy_exact_quote_in_v2: 15 } as const;
const SELL_KINDS = { sell: 75, sell_v2: 25 } as const;
/**
 * Share of curve trades sent through a router. 8 of the 14 pump.fun trades in the real sample are inner (routed)
 * ones, and issue 20 says most trades arrive that way: 55%.
 */
export const ROUTED_SHARE = 0.55;
/** Share of buys that ask pump.fun to track the user's volume (the OptionBool argument). */
const TRACK_VOLUME_SHARE = 0.7;

type BuyKind = keyof typeof BUY_KINDS;
type SellKind = keyof typeof SELL_KINDS;

const IX_NAME: Record<BuyKind | SellKind, string> = {
  buy: 'buy',
  buy_v2: 'buy',
  buy_exact_sol_in: 'buy_exact_sol_in',
  // Record 23 (a real buy_exact_quote_in_v2) writes this name in its TradeEvent.
  buy_exact_quote_in_v2: 'buy_exact_quote_in',
  sell: 'sell',
  sell_v2: 'sell',
};

const DISC: Record<BuyKind | SellKind, Buffer> = {
  buy: PUMP_IX.buy,
  buy_exact_sol_in: PUMP_IX.buyExactSolIn,
  buy_v2: PUMP_IX.buyV2,
  buy_exact_quote_in_v2: PUMP_IX.buyExactQuoteInV2,
  sell: PUMP_IX.sell,
  sell_v2: PUMP_IX.sellV2,
};

/** SOL the program charges for `amount` tokens (before the fees): amount*vS/(vT-amount) + 1. */
export function buyCost(c: CurveState, amount: bigint): bigint {
  return (amount * c.virtualSolReserves) / (c.virtualTokenReserves - amount) + 1n;
}

/** SOL the curve pays for `amount` tokens (before the fees): amount*vS/(vT+amount). */
export function sellProceeds(c: CurveState, amount: bigint): bigint {
  return (amount * c.virtualSolReserves) / (c.virtualTokenReserves + amount);
}

/** Tokens an exact SOL input buys: net*vT/(vS+net), so the product of the reserves never shrinks. */
export function tokensForSol(c: CurveState, net: bigint): bigint {
  return (net * c.virtualTokenReserves) / (c.virtualSolReserves + net);
}

/** A fee in basis points, rounded up (record 23: 95 bps of 97,777,777 is 928,889). */
export const feeOf = (sol: bigint, bps: bigint): bigint => (sol * bps + 9_999n) / 10_000n;

/** Protocol and creator fee on `sol`. */
export function fees(s: SimState, sol: bigint): { fee: bigint; creatorFee: bigint } {
  const g = s.globalParams;
  return { fee: feeOf(sol, g.feeBasisPoints), creatorFee: feeOf(sol, g.creatorFeeBasisPoints) };
}

/** The most SOL that goes into the curve from `spend` once both fees are added on top. */
export function netOfFees(s: SimState, spend: bigint): bigint {
  const g = s.globalParams;
  let net = (spend * 10_000n) / (10_000n + g.feeBasisPoints + g.creatorFeeBasisPoints);
  for (;;) {
    const f = fees(s, net);
    if (net + f.fee + f.creatorFee <= spend || net === 0n) return net;
    net--;
  }
}

/**
 * The curve part of a buy (any form): the tokens bought and their price before fees, capped at what the curve has
 * left (`capped`). Exact-in forms (`spend`, fees included) buy what the net buys; the others ask for `amount`.
 */
export function curveBuyPart(
  s: SimState,
  c: CurveState,
  o: { amount?: bigint; spend?: bigint },
): { tokens: bigint; cost: bigint; capped: boolean } {
  let tokens = o.spend !== undefined ? tokensForSol(c, netOfFees(s, o.spend)) : o.amount!;
  const capped = tokens >= c.realTokenReserves;
  if (capped) tokens = c.realTokenReserves;
  const cost = o.spend !== undefined && !capped ? netOfFees(s, o.spend) : buyCost(c, tokens);
  return { tokens, cost, capped };
}

interface BuyOrder {
  kind: BuyKind;
  /** buy, buy_v2: tokens wanted and the most SOL (fees included) to pay. */
  amount?: bigint;
  maxSolCost?: bigint;
  /** buy_exact_sol_in, buy_exact_quote_in_v2: SOL to spend (fees included) and the fewest tokens to accept. */
  spend?: bigint;
  minTokensOut?: bigint;
  trackVolume: boolean;
}

function buyData(o: BuyOrder): Buffer {
  const w = borsh(32).bytes(DISC[o.kind]);
  if (o.kind === 'buy' || o.kind === 'buy_v2') w.u64(o.amount!).u64(o.maxSolCost!);
  else w.u64(o.spend!).u64(o.minTokensOut!);
  // Only the v1 forms carry track_volume (OptionBool); the v2 forms take it from the user's accumulator.
  if (o.kind === 'buy' || o.kind === 'buy_exact_sol_in') w.optionBool(o.trackVolume);
  // partial_fill (OptionBool, October 2026 layout: IDL-2293): only read on mayhem coins, which are not simulated.
  w.optionBool(false);
  return w.done();
}

/** The creator's vault holds its uncollected fees (above the rent of an empty account). */
const unclaimed = (vault: Acct): bigint => (vault.lamports > rentExempt(0) ? vault.lamports - rentExempt(0) : 0n);

/** The user's volume accumulator, created on first tracked trade (rent from the user). */
export function volumeAccumulator(s: SimState, user: User): Acct {
  const acc = s.pumpAccountsOf(user).volume;
  if (!acc.exists) {
    debit(user.acct, rentExempt(USER_VOLUME_ACCUMULATOR_LEN));
    acc.lamports = rentExempt(USER_VOLUME_ACCUMULATOR_LEN);
    acc.owner = s.programs.pump.key;
    acc.data = userVolumeAccumulatorData(user.acct.key);
  }
  return acc;
}

/** Executes a buy of any kind against the curve: state change, then what the program invokes and emits. */
function runBuy(ctx: GenCtx, coin: Coin, user: User, ata: Acct, o: BuyOrder, onDone: () => void): Step[] {
  const { s } = ctx;
  const p = s.programs;
  const c = readCurve(coin.curve.data);
  if (c.complete) throw CUSTOM(PUMP_ERR.bondingCurveComplete);
  const { tokens, cost } = curveBuyPart(s, c, o);
  if (o.spend !== undefined && tokens < o.minTokensOut!) throw CUSTOM(PUMP_ERR.buySlippageBelowMinTokensOut);
  const { fee, creatorFee } = fees(s, cost);
  if (o.maxSolCost !== undefined && cost + fee + creatorFee > o.maxSolCost) throw CUSTOM(PUMP_ERR.tooMuchSolRequired);
  debit(user.acct, cost + fee + creatorFee);
  coin.curve.lamports += cost;
  s.feeRecipient.lamports += fee;
  coin.creatorVault.lamports += creatorFee;
  moveTokens(coin.curveAta, ata, tokens);
  c.virtualTokenReserves -= tokens;
  c.virtualSolReserves += cost;
  c.realTokenReserves -= tokens;
  c.realSolReserves += cost;
  c.complete = c.realTokenReserves === 0n;
  writeCurve(coin.curve.data, c);
  const ts = ctx.b.blockTime;
  const volume = o.trackVolume ? trackVolume(volumeAccumulator(s, user).data, cost, ts) : 0n;
  onDone();
  // What pump.fun invokes: the curve's tokens to the buyer (the curve PDA signs), SOL to the curve and the fees.
  const steps: Step[] = [
    { program: p.token, accounts: [coin.curveAta, ata, coin.curve], data: tokenTransferData(tokens) },
    { program: p.system, accounts: [user.acct, coin.curve], data: systemTransferData(cost) },
    { program: p.system, accounts: [user.acct, s.feeRecipient], data: systemTransferData(fee) },
    { program: p.system, accounts: [user.acct, coin.creatorVault], data: systemTransferData(creatorFee) },
  ];
  const event = (): Buffer =>
    tradeEvent({
      ...tradeBase(s, coin, c, user, ts),
      solAmount: cost,
      tokenAmount: tokens,
      isBuy: true,
      fee,
      creatorFee,
      trackVolume: o.trackVolume,
      currentSolVolume: volume,
      lastUpdateTimestamp: o.trackVolume ? ts : 0n,
      ixName: IX_NAME[o.kind],
    });
  const auth = s.pumpFixed.eventAuthority;
  steps.push(...emitEvent(ctx.b.recording, p.pump, auth, event));
  if (c.complete)
    steps.push(
      ...emitEvent(ctx.b.recording, p.pump, auth, () =>
        completeEvent({ user: user.acct.key, mint: coin.mint.key, bondingCurve: coin.curve.key, timestamp: ts }),
      ),
    );
  return steps;
}

export function tradeBase(s: SimState, coin: Coin, c: CurveState, user: User, ts: bigint) {
  const g = s.globalParams;
  return {
    mint: coin.mint.key,
    user: user.acct.key,
    timestamp: ts,
    virtualSolReserves: c.virtualSolReserves,
    virtualTokenReserves: c.virtualTokenReserves,
    realSolReserves: c.realSolReserves,
    realTokenReserves: c.realTokenReserves,
    feeRecipient: s.feeRecipient.key,
    feeBasisPoints: g.feeBasisPoints,
    creator: coin.creator.acct.key,
    creatorFeeBasisPoints: g.creatorFeeBasisPoints,
    creatorFeeUnclaimed: unclaimed(coin.creatorVault),
  };
}

function buyIx(ctx: GenCtx, coin: Coin, user: User, ata: Acct, o: BuyOrder, onDone: () => void): Ix {
  const v2 = o.kind === 'buy_v2' || o.kind === 'buy_exact_quote_in_v2';
  return {
    program: ctx.s.programs.pump,
    accounts: v2 ? v2Accounts(ctx.s, coin, user, ata, true) : buyAccounts(ctx.s, coin, user, ata),
    data: buyData(o),
    run: () => runBuy(ctx, coin, user, ata, o, onDone),
  };
}

function sellIx(ctx: GenCtx, kind: SellKind, coin: Coin, user: User, ata: Acct, amount: bigint, minSolOutput: bigint): Ix {
  const { s } = ctx;
  const p = s.programs;
  return {
    program: p.pump,
    accounts: kind === 'sell_v2' ? v2Accounts(s, coin, user, ata, false) : sellAccounts(s, coin, user, ata),
    data: borsh(24).bytes(DISC[kind]).u64(amount).u64(minSolOutput).done(),
    run: () => {
      const c = readCurve(coin.curve.data);
      if (c.complete) throw CUSTOM(PUMP_ERR.bondingCurveComplete);
      const out = sellProceeds(c, amount);
      const { fee, creatorFee } = fees(s, out);
      if (out - fee - creatorFee < minSolOutput) throw CUSTOM(PUMP_ERR.tooLittleSolReceived);
      if (out > c.realSolReserves) throw new IxError('"InsufficientFunds"');
      moveTokens(ata, coin.curveAta, amount);
      coin.curve.lamports -= out;
      user.acct.lamports += out - fee - creatorFee;
      s.feeRecipient.lamports += fee;
      coin.creatorVault.lamports += creatorFee;
      c.virtualTokenReserves += amount;
      c.virtualSolReserves -= out;
      c.realTokenReserves += amount;
      c.realSolReserves -= out;
      writeCurve(coin.curve.data, c);
      const ts = ctx.b.blockTime;
      const event = (): Buffer =>
        tradeEvent({
          ...tradeBase(s, coin, c, user, ts),
          solAmount: out,
          tokenAmount: amount,
          isBuy: false,
          fee,
          creatorFee,
          trackVolume: false,
          currentSolVolume: 0n,
          lastUpdateTimestamp: 0n,
          ixName: IX_NAME[kind],
        });
      // The seller's tokens go back to the curve; SOL leaves the program-owned curve directly (no CPI).
      return [
        { program: p.token, accounts: [ata, coin.curveAta, user.acct], data: tokenTransferData(amount) },
        ...emitEvent(ctx.b.recording, p.pump, s.pumpFixed.eventAuthority, event),
      ];
    },
  };
}

export function pickTolerance(ctx: GenCtx): bigint {
  return BigInt(ctx.rng.weighted(TOLERANCE_BPS));
}

/** The client quotes from a price that may be up to 1.5% stale, then adds its slippage tolerance. */
export function quoteLimits(ctx: GenCtx, quote: bigint, up: boolean): bigint {
  const tol = pickTolerance(ctx);
  const drift = BigInt(ctx.rng.int(151));
  return up ? (quote * (10_000n + tol) * (10_000n - drift)) / 100_000_000n : (quote * (10_000n - tol) * (10_000n + drift)) / 100_000_000n;
}

export function registerPosition(s: SimState, user: User, coin: Coin, ata: Acct): void {
  if (s.positionAtas.has(ata)) return;
  s.positionAtas.add(ata);
  s.positions.push({ user, coin, ata });
  if (coin.holders.length < 256) coin.holders.push(user);
}

export function noteCompletion(ctx: GenCtx, coin: Coin): void {
  if (coin.completedAt === undefined && readCurve(coin.curve.data).complete) {
    coin.completedAt = ctx.slot;
    ctx.s.pendingMigrate.push(coin);
    ctx.s.completedCoins.push(coin);
    if (ctx.s.completedCoins.length > HOT_COINS) ctx.s.completedCoins.shift();
    const i = ctx.s.openCoins.indexOf(coin);
    if (i >= 0) ctx.s.openCoins.splice(i, 1);
  }
}

/** A buy order of `kind` for about `budget` lamports, quoted from the curve the client last saw. */
function buyOrder(ctx: GenCtx, kind: BuyKind, c: CurveState, budget: bigint): BuyOrder {
  const { s } = ctx;
  const trackVolume = ctx.rng.chance(TRACK_VOLUME_SHARE);
  const net = netOfFees(s, budget);
  let amount = c.complete ? 1_000_000n : tokensForSol(c, net);
  if (!c.complete && amount > c.realTokenReserves) amount = c.realTokenReserves;
  if (amount <= 0n) amount = 1_000_000n;
  if (kind === 'buy' || kind === 'buy_v2') {
    const cost = c.complete ? budget : buyCost(c, amount);
    const f = fees(s, cost);
    return { kind, amount, maxSolCost: quoteLimits(ctx, cost + f.fee + f.creatorFee, true), trackVolume };
  }
  return { kind, spend: budget, minTokensOut: quoteLimits(ctx, amount, false), trackVolume };
}

/**
 * The coin a trader buys: one of the newest open curves, skewed toward the older ones of that window
 * (they have momentum, so some fill up and complete). Now and then a stale client picks a curve that
 * already completed and gets 6005.
 */
export function hotCoin(ctx: GenCtx): Coin | undefined {
  const { openCoins, completedCoins } = ctx.s;
  if (completedCoins.length > 0 && ctx.rng.chance(0.01)) return ctx.rng.pick(completedCoins);
  if (openCoins.length === 0) return undefined;
  const lo = Math.max(0, openCoins.length - HOT_COINS);
  const u = ctx.rng.float();
  return openCoins[lo + Math.floor((openCoins.length - lo) * u * u)];
}

/** A trade instruction, top level or (ROUTED_SHARE of them) inside a router instruction. */
export function maybeRouted(ctx: GenCtx, user: User, ix: Ix, tradeSol: bigint): Ix {
  return ctx.rng.chance(ROUTED_SHARE) ? viaRouter(ctx.s, user.acct, ix, tradeSol) : ix;
}

export function buyTx(ctx: GenCtx): void {
  if (usdcInsteadTx(ctx)) return;
  // October 2026 shapes (pump-mix.ts): drawn only when their share is set, so a mix without them is the chain it was.
  if (ctx.mix.graduate > 0 && ctx.rng.chance(ctx.mix.graduate) && graduationBuyTx(ctx)) return;
  const coin = hotCoin(ctx);
  if (!coin) return createTx(ctx);
  // Most buyers already hold the coin (adding to a position), the rest are new to it.
  const holder = coin.holders.length > 0 && ctx.rng.chance(0.6) ? ctx.rng.pick(coin.holders) : undefined;
  const user = holder && ctx.s.spendable(holder) >= LAMPORTS_PER_SOL / 20n ? holder : pickUser(ctx, LAMPORTS_PER_SOL / 20n);
  if (!user) return createTx(ctx);
  const spend = ctx.s.spendable(user) / 2n;
  const budget = lamportsBetween(ctx, LAMPORTS_PER_SOL / 100n, spend < 3n * LAMPORTS_PER_SOL ? spend : 3n * LAMPORTS_PER_SOL);
  const { s } = ctx;
  const ata = s.ataOf(user, coin.mint);
  const onDone = (): void => registerPosition(s, user, coin, ata);
  let buy: Ix;
  if (ctx.mix.curveV3 > 0 && ctx.rng.chance(ctx.mix.curveV3)) {
    buy = v3BuyIx(ctx, coin, user, ata, v3BuyOrder(ctx, ctx.rng.weighted(BUY_V3_KINDS), readCurve(coin.curve.data), budget), onDone);
  } else {
    const kind = ctx.rng.weighted(BUY_KINDS);
    buy = buyIx(ctx, coin, user, ata, buyOrder(ctx, kind, readCurve(coin.curve.data), budget), onDone);
  }
  const tx = ctx.b.submit({
    payer: user.acct,
    ixs: withBudget(ctx, [createAtaIdempotent(s.programs, user.acct, ata, user.acct, coin.mint), maybeRouted(ctx, user, buy, budget)], 0.9),
    table: ctx.rng.chance(0.4) ? s.table : undefined,
  });
  if (tx && tx.err === undefined) noteCompletion(ctx, coin);
}

export function sellTx(ctx: GenCtx, poolSell: (pos: { user: User; coin: Coin; ata: Acct }) => void): void {
  const { s, rng } = ctx;
  for (let tries = 0; tries < 4 && s.positions.length > 0; tries++) {
    const i = rng.int(s.positions.length);
    const pos = s.positions[i]!;
    const have = tokenAmount(pos.ata.data);
    // Sold out, or the curve completed: holders sell on PumpSwap once it migrated (a few still try the curve: 6005).
    const completed = pos.coin.completedAt !== undefined;
    if (have === 0n || (completed && !pos.coin.pool && rng.chance(0.9))) {
      s.positions[i] = s.positions[s.positions.length - 1]!; // swap-remove keeps this O(1)
      s.positions.pop();
      s.positionAtas.delete(pos.ata);
      continue;
    }
    if (s.spendable(pos.user) < 1_000_000n) continue;
    if (pos.coin.pool) return poolSell(pos);
    // A share of curve trades is on USDC-quoted coins (pump-mix.ts usdcQuote).
    if (usdcInsteadTx(ctx)) return;
    const share = rng.weighted(SELL_SHARES);
    const amount = share === 'all' ? have : share === 'half' ? have / 2n + 1n : 1n + (have * BigInt(rng.range(1, 40))) / 100n;
    const c = readCurve(pos.coin.curve.data);
    const proceeds = sellProceeds(c, amount);
    const f = fees(s, proceeds);
    const minOut = quoteLimits(ctx, proceeds - f.fee - f.creatorFee, false);
    const ix =
      ctx.mix.curveV3 > 0 && rng.chance(ctx.mix.curveV3)
        ? v3SellIx(ctx, pos.coin, pos.user, pos.ata, amount, minOut)
        : sellIx(ctx, rng.weighted(SELL_KINDS), pos.coin, pos.user, pos.ata, amount, minOut);
    ctx.b.submit({
      payer: pos.user.acct,
      ixs: withBudget(ctx, [maybeRouted(ctx, pos.user, ix, proceeds)], 0.9),
      table: rng.chance(0.4) ? s.table : undefined,
    });
    return;
  }
  buyTx(ctx);
}

const WORDS = ['PEPE', 'DOGE', 'CAT', 'MOON', 'FROG', 'WIF', 'BONK', 'CHAD', 'GIGA', 'SOL', 'AI', 'TRUMP', 'BASED', 'NEKO', 'HAT'];
/** Share of coins created with `create_v2` (today's default in pump.fun's UI); the rest use `create`. */
const CREATE_V2_SHARE = 0.8;

/** A new coin of `creator` (its mint, curve and their PDAs; nothing exists until its create runs). */
export function newCoin(s: SimState, creator: User): Coin {
  const mint = s.keyed('mint', s.mintCounter++, 0n);
  const curve = s.world.at(bondingCurveAddress(mint.key));
  const curveAta = s.world.at(associatedTokenAddress(curve.key, mint.key));
  const creatorVault = s.world.at(creatorVaultAddress(creator.acct.key));
  return { mint, curve, curveAta, creator, creatorVault, holders: [] };
}

/** A coin's name, symbol and metadata URI, as launch pages make them up. */
export function coinNames(ctx: GenCtx): { name: string; symbol: string; uri: string } {
  const { rng } = ctx;
  const symbol = `${rng.pick(WORDS)}${rng.chance(0.5) ? rng.pick(WORDS) : ''}`;
  const name = `${symbol.charAt(0)}${symbol.slice(1).toLowerCase()} ${rng.pick(['Coin', 'Token', 'Inu', 'on Solana', 'Classic'])}`;
  return { name, symbol, uri: `https://ipfs.io/ipfs/Qm${rng.bytes(22).toString('hex')}` };
}

export function createTx(ctx: GenCtx): void {
  const { s, rng } = ctx;
  const creator = pickUser(ctx, LAMPORTS_PER_SOL / 10n);
  if (!creator) return;
  const coin = newCoin(s, creator);
  const { name, symbol, uri } = coinNames(ctx);
  const v2 = rng.chance(CREATE_V2_SHARE);
  const ixs = [v2 ? createV2Ix(ctx, coin, name, symbol, uri) : createIx(ctx, coin, name, symbol, uri)];
  // Most creators buy first in the same transaction.
  if (rng.chance(0.7)) ixs.push(...buyIxsAfterCreate(ctx, coin, creator));
  const tx = ctx.b.submit({ payer: creator.acct, ixs: withBudget(ctx, ixs, 0.9) });
  if (tx && tx.err === undefined) {
    s.coins.push(coin);
    s.openCoins.push(coin);
  }
}

/** create: 14 accounts (with Metaplex metadata); name, symbol, uri, creator. */
function createIx(ctx: GenCtx, coin: Coin, name: string, symbol: string, uri: string): Ix {
  const { s } = ctx;
  const p = s.programs;
  const metadata = s.world.at(metadataAddress(coin.mint.key));
  return {
    program: p.pump,
    accounts: [
      meta(coin.mint, true, true),
      meta(s.world.at(PUMP_MINT_AUTHORITY)),
      meta(coin.curve, true),
      meta(coin.curveAta, true),
      meta(s.pumpGlobal),
      meta(p.metadata),
      meta(metadata, true),
      meta(coin.creator.acct, true, true),
      meta(p.system),
      meta(p.token),
      meta(p.ata),
      meta(p.rent),
      meta(s.pumpFixed.eventAuthority),
      meta(p.pump),
    ],
    data: borsh(256).bytes(PUMP_IX.create).string(name).string(symbol).string(uri).pubkey(coin.creator.acct.key).done(),
    run: () => {
      debit(coin.creator.acct, rentExempt(METADATA_LEN));
      metadata.lamports += rentExempt(METADATA_LEN);
      metadata.owner = p.metadata.key;
      metadata.data = metadataData(PUMP_MINT_AUTHORITY, coin.mint.key, name, symbol, uri);
      return runCreate(ctx, coin, name, symbol, uri);
    },
  };
}

/**
 * create_v2: 16 accounts (the mayhem program's accounts instead of Metaplex); name, symbol, uri, creator,
 * is_mayhem_mode (false: mayhem is not simulated), is_cashback_enabled. On mainnet it makes a Token-2022 mint
 * with on-mint metadata; the simulator's coins all stay SPL Token mints (one token account layout, one program
 * in balances), so `token_program` names SPL Token here.
 */
function createV2Ix(ctx: GenCtx, coin: Coin, name: string, symbol: string, uri: string): Ix {
  return {
    program: ctx.s.programs.pump,
    accounts: createV2Accounts(ctx.s, coin),
    data: borsh(256)
      .bytes(PUMP_IX.createV2)
      .string(name)
      .string(symbol)
      .string(uri)
      .pubkey(coin.creator.acct.key)
      .bool(false)
      .optionBool(false)
      // October 2026 layout (IDL-2293): creator_fee_bps OptionU64 (ignored for SOL quotes), is_holder_reward OptionBool.
      .u64(0n)
      .optionBool(false)
      .done(),
    run: () => runCreate(ctx, coin, name, symbol, uri),
  };
}

/** create_v2's 16 accounts (IDL-2293). */
export function createV2Accounts(s: SimState, coin: Coin): AccountMeta[] {
  const p = s.programs;
  const f = s.pumpFixed;
  const mayhemState = s.world.at(mayhemStateAddress(coin.mint.key));
  return [
    meta(coin.mint, true, true),
    meta(s.world.at(PUMP_MINT_AUTHORITY)),
    meta(coin.curve, true),
    meta(coin.curveAta, true),
    meta(s.pumpGlobal),
    meta(coin.creator.acct, true, true),
    meta(p.system),
    meta(p.token),
    meta(p.ata),
    meta(p.mayhem),
    meta(f.mayhemGlobalParams),
    meta(f.mayhemSolVault, true),
    meta(mayhemState, true),
    meta(s.world.at(associatedTokenAddress(f.mayhemSolVault.key, coin.mint.key)), true),
    meta(f.eventAuthority),
    meta(p.pump),
  ];
}

/** The coin's mint (whole supply to the curve, mint authority revoked), its curve of `curveLen` and its token account. */
export function openCurve(ctx: GenCtx, coin: Coin, state: CurveState, curveLen: number): void {
  const { s } = ctx;
  const { mint, curve, curveAta, creator } = coin;
  debit(creator.acct, rentExempt(MINT_LEN) + rentExempt(curveLen));
  mint.lamports += rentExempt(MINT_LEN);
  mint.owner = TOKEN_PROGRAM;
  mint.data = mintData(null, state.tokenTotalSupply, 6);
  curve.lamports += rentExempt(curveLen);
  curve.owner = s.programs.pump.key;
  curve.data = bondingCurveData(state, creator.acct.key);
  createTokenAccount(creator.acct, curveAta, mint, curve);
  curveAta.data.writeBigUInt64LE(state.tokenTotalSupply, 64);
}

/** A new curve's state: the Global's initial reserves, `virtualQuote` its virtual quote reserves. */
export function initialCurve(s: SimState, virtualQuote: bigint): CurveState {
  const g = s.globalParams;
  return {
    virtualTokenReserves: g.initialVirtualTokenReserves,
    virtualSolReserves: virtualQuote,
    realTokenReserves: g.initialRealTokenReserves,
    realSolReserves: 0n,
    tokenTotalSupply: g.tokenTotalSupply,
    complete: false,
  };
}

/** The mint (whole supply to the curve, mint authority revoked), the curve, its token account, CreateEvent. */
function runCreate(ctx: GenCtx, coin: Coin, name: string, symbol: string, uri: string): Step[] {
  const { s } = ctx;
  const p = s.programs;
  const { mint, curve, creator } = coin;
  const state = initialCurve(s, s.globalParams.initialVirtualSolReserves);
  openCurve(ctx, coin, state, BONDING_CURVE_LEN);
  const event = (): Buffer =>
    createEvent({
      name,
      symbol,
      uri,
      mint: mint.key,
      bondingCurve: curve.key,
      user: creator.acct.key,
      creator: creator.acct.key,
      timestamp: ctx.b.blockTime,
      virtualTokenReserves: state.virtualTokenReserves,
      virtualSolReserves: state.virtualSolReserves,
      realTokenReserves: state.realTokenReserves,
      tokenTotalSupply: state.tokenTotalSupply,
      tokenProgram: TOKEN_PROGRAM,
    });
  return emitEvent(ctx.b.recording, p.pump, s.pumpFixed.eventAuthority, event);
}

/** The creator's first buy (`buy`, top level): quoted from the initial curve (the create has not run yet). */
function buyIxsAfterCreate(ctx: GenCtx, coin: Coin, creator: User): Ix[] {
  const { s } = ctx;
  const c = initialCurve(s, s.globalParams.initialVirtualSolReserves);
  const budget = lamportsBetween(ctx, LAMPORTS_PER_SOL / 100n, LAMPORTS_PER_SOL / 20n);
  const amount = tokensForSol(c, netOfFees(s, budget));
  const cost = buyCost(c, amount);
  const f = fees(s, cost);
  const ata = s.ataOf(creator, coin.mint);
  // The creator's own buy cannot be front-run: a generous limit.
  const order: BuyOrder = {
    kind: 'buy',
    amount,
    maxSolCost: ((cost + f.fee + f.creatorFee) * 105n) / 100n,
    trackVolume: ctx.rng.chance(TRACK_VOLUME_SHARE),
  };
  return [
    createAtaIdempotent(s.programs, creator.acct, ata, creator.acct, coin.mint),
    buyIx(ctx, coin, creator, ata, order, () => registerPosition(s, creator, coin, ata)),
  ];
}

// PumpSwap (pump_amm, `pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA`) trading on the pools migrated curves get
// (pump-migrate.ts): `buy` (23 accounts) and `sell` (21), each emitting BuyEvent / SellEvent, some through the
// router. Trades wrap SOL as mainnet clients do: create the user's wrapped SOL account, fund it and SyncNative,
// trade, close it back to the user.
import type { Acct } from '../accounts.js';
import type { AccountMeta, Ix } from '../compile.js';
import { borsh } from '../borsh.js';
import {
  closeTokenAccountIx,
  createAtaIdempotent,
  createTokenAccount,
  CUSTOM,
  moveTokens,
  syncNativeIx,
  systemTransfer,
  tokenTransferData,
} from '../instructions.js';
import { readPoolFees, tokenAmount } from '../layouts.js';
import { buyEvent, emitEvent, sellEvent } from '../pump-events.js';
import { PUMP_AMM_ERR, PUMP_AMM_IX } from '../programs.js';
import { LAMPORTS_PER_SOL, type Coin, type Pool, type SimState, type User } from '../state.js';
import { lamportsBetween, pickUser, withBudget, type GenCtx } from './context.js';
import { meta } from './pump-accounts.js';
import { maybeRouted, quoteLimits, registerPosition } from './pumpfun.js';
import { v2BuyIx, v2SellIx } from './pumpswap-v2.js';

export const ceilBps = (v: bigint, bps: bigint): bigint => (v * bps + 9_999n) / 10_000n;

/** The first 9 accounts of every PumpSwap trade (v1 and v2): pool, user, config, mints, the five token accounts. */
export function poolTradeHead(s: SimState, pool: Pool, user: User, userBase: Acct): AccountMeta[] {
  const u = s.pumpAccountsOf(user);
  return [
    meta(pool.acct, true),
    meta(user.acct, true, true),
    meta(s.amm.globalConfig),
    meta(pool.coin.mint),
    meta(s.nativeMint),
    meta(userBase, true),
    meta(u.wsol, true),
    meta(pool.baseAta, true),
    meta(pool.quoteAta, true),
  ];
}

/** The accounts of PumpSwap buy (23) and sell (21: no volume accumulators). */
function swapAccounts(s: SimState, pool: Pool, user: User, userBase: Acct, buy: boolean): AccountMeta[] {
  const p = s.programs;
  const u = s.pumpAccountsOf(user);
  return [
    ...poolTradeHead(s, pool, user, userBase),
    meta(s.amm.protocolFeeRecipient),
    meta(s.amm.protocolFeeRecipientWsol, true),
    meta(p.token),
    meta(p.token),
    meta(p.system),
    meta(p.ata),
    meta(s.amm.eventAuthority),
    meta(p.pumpAmm),
    meta(pool.creatorVaultAta, true),
    meta(pool.creatorVaultAuthority),
    ...(buy ? [meta(s.amm.globalVolumeAccumulator), meta(u.ammVolume, true)] : []),
    meta(s.amm.feeConfig),
    meta(p.pumpFee),
  ];
}

export interface Reserves {
  base: bigint;
  quote: bigint;
}
/**
 * What a pool trades on: the base vault, and the quote vault plus the pool's signed virtual_quote_reserves (0 on a
 * pool no v2 trade touched; v2 trades keep their protocol and creator fees in the vault and subtract them there,
 * pump-2026-10.md §3.2), so fees waiting for a sweep never price a trade.
 */
export const reservesOf = (pool: Pool): Reserves => ({
  base: tokenAmount(pool.baseAta.data),
  quote: tokenAmount(pool.quoteAta.data) + readPoolFees(pool.acct.data).virtualQuoteReserves,
});

/** Quote (before fees) a buy of `baseOut` costs: ceil(baseOut*quote/(base-baseOut)). */
export function ammBuyQuote(r: Reserves, baseOut: bigint): bigint {
  return (baseOut * r.quote + (r.base - baseOut) - 1n) / (r.base - baseOut);
}

/** Quote (before fees) a sell of `baseIn` gives: floor(baseIn*quote/(base+baseIn)). */
export function ammSellQuote(r: Reserves, baseIn: bigint): bigint {
  return (baseIn * r.quote) / (r.base + baseIn);
}

/** A sell of `baseIn` against reserves `r` (sell and sell_v2): the quote before fees, the fees and what the seller
 * gets, or the program's slippage error when that is below `minQuoteOut`. */
export function ammSell(s: SimState, r: Reserves, baseIn: bigint, minQuoteOut: bigint) {
  const quote = ammSellQuote(r, baseIn);
  const fee = ammFees(s, quote);
  const out = quote - fee.lp - fee.protocol - fee.creator;
  if (out < minQuoteOut || out <= 0n) throw CUSTOM(PUMP_AMM_ERR.exceededSlippage);
  return { quote, fee, out };
}

/** The coin creator's wrapped SOL fee account, created by the first trade that pays into it (rent from the user). */
export function creatorVaultAta(s: SimState, pool: Pool, payer: Acct): Acct {
  if (!pool.creatorVaultAta.exists) createTokenAccount(payer, pool.creatorVaultAta, s.nativeMint, pool.creatorVaultAuthority);
  return pool.creatorVaultAta;
}

export function ammFees(s: SimState, quote: bigint): { lp: bigint; protocol: bigint; creator: bigint } {
  const f = s.amm.fees;
  return {
    lp: ceilBps(quote, f.lpFeeBasisPoints),
    protocol: ceilBps(quote, f.protocolFeeBasisPoints),
    creator: ceilBps(quote, f.coinCreatorFeeBasisPoints),
  };
}

export function swapBase(s: SimState, pool: Pool, user: User, userBase: Acct, r: Reserves, ts: bigint) {
  const f = s.amm.fees;
  return {
    timestamp: ts,
    userBaseTokenReserves: userBase.exists ? tokenAmount(userBase.data) : 0n,
    userQuoteTokenReserves: tokenAmount(s.pumpAccountsOf(user).wsol.data),
    poolBaseTokenReserves: r.base,
    poolQuoteTokenReserves: r.quote,
    lpFeeBasisPoints: f.lpFeeBasisPoints,
    protocolFeeBasisPoints: f.protocolFeeBasisPoints,
    pool: pool.acct.key,
    user: user.acct.key,
    userBaseTokenAccount: userBase.key,
    userQuoteTokenAccount: s.pumpAccountsOf(user).wsol.key,
    protocolFeeRecipient: s.amm.protocolFeeRecipient.key,
    protocolFeeRecipientTokenAccount: s.amm.protocolFeeRecipientWsol.key,
    coinCreator: pool.coin.creator.acct.key,
    coinCreatorFeeBasisPoints: f.coinCreatorFeeBasisPoints,
  };
}

function ammBuyIx(ctx: GenCtx, pool: Pool, user: User, userBase: Acct, baseOut: bigint, maxQuoteIn: bigint, trackVolume: boolean): Ix {
  const { s } = ctx;
  const p = s.programs;
  const wsol = s.pumpAccountsOf(user).wsol;
  return {
    program: p.pumpAmm,
    accounts: swapAccounts(s, pool, user, userBase, true),
    data: borsh(32).bytes(PUMP_AMM_IX.buy).u64(baseOut).u64(maxQuoteIn).optionBool(trackVolume).done(),
    run: () => {
      const r = reservesOf(pool);
      if (baseOut >= r.base) throw CUSTOM(PUMP_AMM_ERR.exceededSlippage);
      const quote = ammBuyQuote(r, baseOut);
      const fee = ammFees(s, quote);
      const total = quote + fee.lp + fee.protocol + fee.creator;
      if (total > maxQuoteIn) throw CUSTOM(PUMP_AMM_ERR.exceededSlippage);
      const base = swapBase(s, pool, user, userBase, r, ctx.b.blockTime);
      moveTokens(pool.baseAta, userBase, baseOut);
      moveTokens(wsol, pool.quoteAta, quote + fee.lp);
      moveTokens(wsol, s.amm.protocolFeeRecipientWsol, fee.protocol);
      moveTokens(wsol, creatorVaultAta(s, pool, user.acct), fee.creator);
      const event = (): Buffer =>
        buyEvent({
          ...base,
          baseAmountOut: baseOut,
          maxQuoteAmountIn: maxQuoteIn,
          quoteAmountIn: quote,
          lpFee: fee.lp,
          protocolFee: fee.protocol,
          quoteAmountInWithLpFee: quote + fee.lp,
          userQuoteAmountIn: total,
          coinCreatorFee: fee.creator,
          trackVolume,
          baseSupply: s.globalParams.tokenTotalSupply,
        });
      return [
        { program: p.token, accounts: [pool.baseAta, userBase, pool.acct], data: tokenTransferData(baseOut) },
        { program: p.token, accounts: [wsol, pool.quoteAta, user.acct], data: tokenTransferData(quote + fee.lp) },
        { program: p.token, accounts: [wsol, s.amm.protocolFeeRecipientWsol, user.acct], data: tokenTransferData(fee.protocol) },
        { program: p.token, accounts: [wsol, pool.creatorVaultAta, user.acct], data: tokenTransferData(fee.creator) },
        ...emitEvent(ctx.b.recording, p.pumpAmm, s.amm.eventAuthority, event),
      ];
    },
  };
}

function ammSellIx(ctx: GenCtx, pool: Pool, user: User, userBase: Acct, baseIn: bigint, minQuoteOut: bigint): Ix {
  const { s } = ctx;
  const p = s.programs;
  const wsol = s.pumpAccountsOf(user).wsol;
  return {
    program: p.pumpAmm,
    accounts: swapAccounts(s, pool, user, userBase, false),
    data: borsh(24).bytes(PUMP_AMM_IX.sell).u64(baseIn).u64(minQuoteOut).done(),
    run: () => {
      const r = reservesOf(pool);
      const { quote, fee, out } = ammSell(s, r, baseIn, minQuoteOut);
      const base = swapBase(s, pool, user, userBase, r, ctx.b.blockTime);
      moveTokens(userBase, pool.baseAta, baseIn);
      moveTokens(pool.quoteAta, wsol, out);
      moveTokens(pool.quoteAta, s.amm.protocolFeeRecipientWsol, fee.protocol);
      moveTokens(pool.quoteAta, creatorVaultAta(s, pool, user.acct), fee.creator);
      const event = (): Buffer =>
        sellEvent({
          ...base,
          baseAmountIn: baseIn,
          minQuoteAmountOut: minQuoteOut,
          quoteAmountOut: quote,
          lpFee: fee.lp,
          protocolFee: fee.protocol,
          quoteAmountOutWithoutLpFee: quote - fee.lp,
          userQuoteAmountOut: out,
          coinCreatorFee: fee.creator,
          baseSupply: s.globalParams.tokenTotalSupply,
        });
      return [
        { program: p.token, accounts: [userBase, pool.baseAta, user.acct], data: tokenTransferData(baseIn) },
        { program: p.token, accounts: [pool.quoteAta, wsol, pool.acct], data: tokenTransferData(out) },
        { program: p.token, accounts: [pool.quoteAta, s.amm.protocolFeeRecipientWsol, pool.acct], data: tokenTransferData(fee.protocol) },
        { program: p.token, accounts: [pool.quoteAta, pool.creatorVaultAta, pool.acct], data: tokenTransferData(fee.creator) },
        ...emitEvent(ctx.b.recording, p.pumpAmm, s.amm.eventAuthority, event),
      ];
    },
  };
}

/** A buy on a pool: wrap the SOL limit, buy (maybe through the router), unwrap what is left. */
function poolBuyTx(ctx: GenCtx, pool: Pool): void {
  const { s } = ctx;
  // As on the curve, most buyers already hold the coin.
  const holder = pool.coin.holders.length > 0 && ctx.rng.chance(0.6) ? ctx.rng.pick(pool.coin.holders) : undefined;
  const user = holder && s.spendable(holder) >= LAMPORTS_PER_SOL / 20n ? holder : pickUser(ctx, LAMPORTS_PER_SOL / 20n);
  if (!user) return;
  const spend = s.spendable(user) / 2n;
  const budget = lamportsBetween(ctx, LAMPORTS_PER_SOL / 100n, spend < 3n * LAMPORTS_PER_SOL ? spend : 3n * LAMPORTS_PER_SOL);
  const r = reservesOf(pool);
  const f = s.amm.fees;
  const net = (budget * 10_000n) / (10_000n + f.lpFeeBasisPoints + f.protocolFeeBasisPoints + f.coinCreatorFeeBasisPoints);
  const baseOut = (net * r.base) / (r.quote + net);
  if (baseOut <= 0n) return;
  const quote = ammBuyQuote(r, baseOut);
  const fee = ammFees(s, quote);
  const maxQuoteIn = quoteLimits(ctx, quote + fee.lp + fee.protocol + fee.creator, true);
  const userBase = s.ataOf(user, pool.coin.mint);
  const wsol = s.pumpAccountsOf(user).wsol;
  const p = s.programs;
  const v2 = ctx.mix.poolV2 > 0 && ctx.rng.chance(ctx.mix.poolV2);
  const buy = v2
    ? v2BuyIx(
        ctx,
        pool,
        user,
        userBase,
        ctx.rng.chance(0.5) ? { baseOut, maxQuoteIn } : { spend: maxQuoteIn, minBaseOut: quoteLimits(ctx, baseOut, false) },
      )
    : ammBuyIx(ctx, pool, user, userBase, baseOut, maxQuoteIn, ctx.rng.chance(0.7));
  const tx = ctx.b.submit({
    payer: user.acct,
    ixs: withBudget(
      ctx,
      [
        createAtaIdempotent(p, user.acct, userBase, user.acct, pool.coin.mint),
        createAtaIdempotent(p, user.acct, wsol, user.acct, s.nativeMint),
        systemTransfer(p, user.acct, wsol, maxQuoteIn),
        syncNativeIx(p, wsol),
        maybeRouted(ctx, user, buy, budget),
        closeTokenAccountIx(p, wsol, user.acct, user.acct),
      ],
      0.9,
    ),
    table: ctx.rng.chance(0.4) ? s.table : undefined,
  });
  if (tx && tx.err === undefined) registerPosition(s, user, pool.coin, userBase);
}

/** A holder of a migrated coin sells some on its pool, into a wrapped SOL account closed right after. */
export function poolSellTx(ctx: GenCtx, pos: { user: User; coin: Coin; ata: Acct }): void {
  const { s, rng } = ctx;
  const pool = pos.coin.pool!;
  const have = tokenAmount(pos.ata.data);
  const amount = rng.chance(0.3) ? have : 1n + (have * BigInt(rng.range(1, 60))) / 100n;
  const r = reservesOf(pool);
  const quote = ammSellQuote(r, amount);
  const fee = ammFees(s, quote);
  const minOut = quoteLimits(ctx, quote - fee.lp - fee.protocol - fee.creator, false);
  const wsol = s.pumpAccountsOf(pos.user).wsol;
  const p = s.programs;
  const sell =
    ctx.mix.poolV2 > 0 && rng.chance(ctx.mix.poolV2)
      ? v2SellIx(ctx, pool, pos.user, pos.ata, amount, minOut)
      : ammSellIx(ctx, pool, pos.user, pos.ata, amount, minOut);
  ctx.b.submit({
    payer: pos.user.acct,
    ixs: withBudget(
      ctx,
      [
        createAtaIdempotent(p, pos.user.acct, wsol, pos.user.acct, s.nativeMint),
        maybeRouted(ctx, pos.user, sell, quote),
        closeTokenAccountIx(p, wsol, pos.user.acct, pos.user.acct),
      ],
      0.9,
    ),
    table: rng.chance(0.4) ? s.table : undefined,
  });
}

/** Trading on PumpSwap: a buy on one of the recent pools, or a holder's sell; false when no pool exists yet. */
export function swapTx(ctx: GenCtx): boolean {
  const { s, rng } = ctx;
  if (s.pools.length === 0) return false;
  const u = rng.float();
  // Newer pools trade more (skewed toward the end of the window).
  const pool = s.pools[s.pools.length - 1 - Math.floor(s.pools.length * u * u)]!;
  if (rng.chance(0.45)) {
    for (let i = 0; i < 3 && pool.coin.holders.length > 0; i++) {
      const user = rng.pick(pool.coin.holders);
      const ata = user.tokens.get(pool.coin.mint);
      if (ata?.exists && tokenAmount(ata.data) > 0n && s.spendable(user) >= 1_000_000n) {
        poolSellTx(ctx, { user, coin: pool.coin, ata });
        return true;
      }
    }
  }
  poolBuyTx(ctx, pool);
  return true;
}

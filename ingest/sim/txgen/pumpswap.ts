// PumpSwap (pump_amm, `pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA`), where completed curves go: pump's `migrate`
// (25 accounts) moves the curve's SOL and remaining tokens to the coin's pool authority and invokes PumpSwap's
// `create_pool` (18 accounts) by CPI, which writes the pool account (Pool layout) and emits CreatePoolEvent; pump
// then emits CompletePumpAmmMigrationEvent. The pool is then traded with `buy` (23 accounts) and `sell` (21),
// each emitting BuyEvent / SellEvent, some through the router. Trades wrap SOL as mainnet clients do: create the
// user's wrapped SOL account, fund it and SyncNative, trade, close it back to the user.
import type { Acct } from '../accounts.js';
import type { AccountMeta, Ix } from '../compile.js';
import { borsh } from '../borsh.js';
import { closeTokenAccountIx, createAtaIdempotent, createTokenAccount, CUSTOM, debit, moveTokens, syncNative, syncNativeIx, systemTransfer, tokenTransferData } from '../instructions.js';
import { MINT_LEN, mintData, poolData, readCurve, tokenAmount, writeCurve } from '../layouts.js';
import {
  associatedTokenAddress,
  canonicalPoolAddress,
  coinCreatorVaultAuthorityAddress,
  lpMintAddress,
  poolAuthorityAddress,
} from '../pda.js';
import { buyEvent, completePumpAmmMigrationEvent, createPoolEvent, emitEvent, sellEvent } from '../pump-events.js';
import { PUMP_AMM_ERR, PUMP_AMM_IX, PUMP_ERR, PUMP_IX, rentExempt } from '../programs.js';
import { LAMPORTS_PER_SOL, type Coin, type Pool, type SimState, type User } from '../state.js';
import type { Step } from '../trace.js';
import { lamportsBetween, pickUser, withBudget, type GenCtx } from './context.js';
import { maybeRouted, quoteLimits, registerPosition } from './pumpfun.js';

const HOT_POOLS = 64;
/** Uniswap v2's locked liquidity, which PumpSwap copies (record 15: minimum_liquidity 100). */
const MINIMUM_LIQUIDITY = 100n;
const POOL_LEN = 245;

const meta = (acct: Acct, writable = false, signer = false): AccountMeta => ({ acct, writable, signer });
const ceilBps = (v: bigint, bps: bigint): bigint => (v * bps + 9_999n) / 10_000n;

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x--;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
}

/** The pool's accounts for a coin (the canonical pool: index 0, created by the coin's pool authority). */
function poolFor(s: SimState, coin: Coin): Pool {
  const authority = s.world.at(poolAuthorityAddress(coin.mint.key));
  const { address, bump } = canonicalPoolAddress(authority.key, coin.mint.key);
  const acct = s.world.at(address);
  const creatorVaultAuthority = s.world.at(coinCreatorVaultAuthorityAddress(coin.creator.acct.key));
  return {
    coin,
    acct,
    bump,
    authority,
    lpMint: s.world.at(lpMintAddress(address)),
    baseAta: s.world.at(associatedTokenAddress(address, coin.mint.key)),
    quoteAta: s.world.at(associatedTokenAddress(address, s.nativeMint.key)),
    creatorVaultAuthority,
    creatorVaultAta: s.world.at(associatedTokenAddress(creatorVaultAuthority.key, s.nativeMint.key)),
  };
}

/** pump's migrate of a completed curve, by the migration authority, a slot or more after it completed. */
export function migrateTx(ctx: GenCtx, coin: Coin): void {
  const { s } = ctx;
  const p = s.programs;
  const f = s.pumpFixed;
  const user = s.pumpAuthority;
  const pool = poolFor(s, coin);
  const paMint = s.world.at(associatedTokenAddress(pool.authority.key, coin.mint.key));
  const paWsol = s.world.at(associatedTokenAddress(pool.authority.key, s.nativeMint.key));
  const paLp = s.world.at(associatedTokenAddress(pool.authority.key, pool.lpMint.key));
  const pumpEvents = s.pumpFixed.eventAuthority;
  // create_pool's list, as migrate passes it on (the pool authority, a PDA, signs the CPI).
  const createPool: Ix = {
    program: p.pumpAmm,
    accounts: [
      meta(pool.acct, true),
      meta(s.amm.globalConfig),
      meta(pool.authority, true, true),
      meta(coin.mint),
      meta(s.nativeMint),
      meta(pool.lpMint, true),
      meta(paMint, true),
      meta(paWsol, true),
      meta(paLp, true),
      meta(pool.baseAta, true),
      meta(pool.quoteAta, true),
      meta(p.system),
      meta(p.token2022),
      meta(p.token),
      meta(p.token),
      meta(p.ata),
      meta(s.amm.eventAuthority),
      meta(p.pumpAmm),
    ],
    data: Buffer.alloc(0), // set below, once the amounts are known
  };
  const migrate: Ix = {
    program: p.pump,
    accounts: [
      meta(s.pumpGlobal),
      meta(f.withdrawAuthority, true),
      meta(coin.mint),
      meta(coin.curve, true),
      meta(coin.curveAta, true),
      meta(user.acct, false, true),
      meta(p.system),
      meta(p.token),
      meta(p.pumpAmm),
      meta(pool.acct, true),
      meta(pool.authority, true),
      meta(paMint, true),
      meta(paWsol, true),
      meta(s.amm.globalConfig),
      meta(s.nativeMint),
      meta(pool.lpMint, true),
      meta(paLp, true),
      meta(pool.baseAta, true),
      meta(pool.quoteAta, true),
      meta(p.token2022),
      meta(p.ata),
      meta(s.amm.eventAuthority),
      meta(pumpEvents),
      meta(p.pump),
      meta(p.rent),
    ],
    data: Buffer.from(PUMP_IX.migrate),
    run: () => runMigrate(ctx, coin, pool, { paMint, paWsol, paLp }, createPool),
  };
  const tx = ctx.b.submit({ payer: user.acct, ixs: withBudget(ctx, [migrate], 0.9) });
  if (tx && tx.err === undefined) {
    coin.pool = pool;
    s.pools.push(pool);
    if (s.pools.length > HOT_POOLS) s.pools.shift();
  }
}

interface AuthorityAccounts {
  paMint: Acct;
  paWsol: Acct;
  paLp: Acct;
}

function runMigrate(ctx: GenCtx, coin: Coin, pool: Pool, a: AuthorityAccounts, createPool: Ix): Step[] {
  const { s } = ctx;
  const p = s.programs;
  const g = s.globalParams;
  const user = s.pumpAuthority.acct;
  const c = readCurve(coin.curve.data);
  if (!c.complete) throw CUSTOM(PUMP_ERR.bondingCurveNotComplete);
  const ts = ctx.b.blockTime;
  // The pool authority's token accounts, rent from the migrator.
  for (const [acct, mint] of [
    [a.paMint, coin.mint],
    [a.paWsol, s.nativeMint],
  ] as const) {
    if (!acct.exists) createTokenAccount(user, acct, mint, pool.authority);
  }
  // The curve's remaining tokens and its SOL (less the migration fee) go to the pool authority.
  const tokens = tokenAmount(coin.curveAta.data);
  const sol = c.realSolReserves - g.poolMigrationFee;
  moveTokens(coin.curveAta, a.paMint, tokens);
  coin.curve.lamports -= c.realSolReserves;
  s.pumpFixed.withdrawAuthority.lamports += g.poolMigrationFee;
  a.paWsol.lamports += sol;
  syncNative(a.paWsol);
  c.realSolReserves = 0n;
  writeCurve(coin.curve.data, c);
  createPool.data = borsh(64)
    .bytes(PUMP_AMM_IX.createPool)
    .u16(0)
    .u64(tokens)
    .u64(sol)
    .pubkey(coin.creator.acct.key)
    .bool(false)
    .optionBool(false)
    .done();
  const poolSteps = runCreatePool(ctx, coin, pool, a, tokens, sol);
  const event = (): Buffer => completePumpAmmMigrationEvent({
    user: user.key,
    mint: coin.mint.key,
    mintAmount: tokens,
    solAmount: sol,
    poolMigrationFee: g.poolMigrationFee,
    bondingCurve: coin.curve.key,
    timestamp: ts,
    pool: pool.acct.key,
  });
  return [
    { program: p.token, accounts: [coin.curveAta, a.paMint, coin.curve], data: tokenTransferData(tokens) },
    { program: p.token, accounts: [a.paWsol], data: Buffer.of(17) },
    { program: p.pumpAmm, accounts: createPool.accounts.map((m) => m.acct), data: createPool.data, steps: poolSteps },
    ...emitEvent(ctx.b.recording, p.pump, s.pumpFixed.eventAuthority, event),
  ];
}

/** PumpSwap create_pool (invoked by migrate): the pool, its token accounts, the LP mint, CreatePoolEvent. */
function runCreatePool(ctx: GenCtx, coin: Coin, pool: Pool, a: AuthorityAccounts, base: bigint, quote: bigint): Step[] {
  const { s } = ctx;
  const p = s.programs;
  const payer = s.pumpAuthority.acct;
  debit(payer, rentExempt(POOL_LEN) + rentExempt(MINT_LEN));
  pool.acct.lamports += rentExempt(POOL_LEN);
  pool.acct.owner = p.pumpAmm.key;
  for (const [acct, mint, owner] of [
    [pool.baseAta, coin.mint, pool.acct],
    [pool.quoteAta, s.nativeMint, pool.acct],
  ] as const) {
    if (!acct.exists) createTokenAccount(payer, acct, mint, owner);
  }
  moveTokens(a.paMint, pool.baseAta, base);
  moveTokens(a.paWsol, pool.quoteAta, quote);
  // LP tokens: sqrt(base x quote), less the locked minimum, to the pool authority.
  const initialLiquidity = isqrt(base * quote);
  const lpOut = initialLiquidity - MINIMUM_LIQUIDITY;
  pool.lpMint.lamports += rentExempt(MINT_LEN);
  pool.lpMint.owner = p.token.key;
  pool.lpMint.data = mintData(pool.acct.key, lpOut, 9);
  if (!a.paLp.exists) createTokenAccount(payer, a.paLp, pool.lpMint, pool.authority);
  a.paLp.data.writeBigUInt64LE(lpOut, 64);
  pool.acct.data = poolData({
    bump: pool.bump,
    index: 0,
    creator: pool.authority.key,
    baseMint: coin.mint.key,
    quoteMint: s.nativeMint.key,
    lpMint: pool.lpMint.key,
    poolBaseTokenAccount: pool.baseAta.key,
    poolQuoteTokenAccount: pool.quoteAta.key,
    lpSupply: lpOut,
    coinCreator: coin.creator.acct.key,
  });
  const mintTo = Buffer.alloc(9);
  mintTo[0] = 7;
  mintTo.writeBigUInt64LE(lpOut, 1);
  const event = (): Buffer => createPoolEvent({
    timestamp: ctx.b.blockTime,
    creator: pool.authority.key,
    baseMint: coin.mint.key,
    quoteMint: s.nativeMint.key,
    baseMintDecimals: 6,
    quoteMintDecimals: 9,
    baseAmountIn: base,
    quoteAmountIn: quote,
    minimumLiquidity: MINIMUM_LIQUIDITY,
    initialLiquidity,
    lpTokenAmountOut: lpOut,
    poolBump: pool.bump,
    pool: pool.acct.key,
    lpMint: pool.lpMint.key,
    userBaseTokenAccount: a.paMint.key,
    userQuoteTokenAccount: a.paWsol.key,
    coinCreator: coin.creator.acct.key,
  });
  return [
    { program: p.token, accounts: [a.paMint, pool.baseAta, pool.authority], data: tokenTransferData(base) },
    { program: p.token, accounts: [a.paWsol, pool.quoteAta, pool.authority], data: tokenTransferData(quote) },
    { program: p.token, accounts: [pool.lpMint, a.paLp, pool.acct], data: mintTo },
    ...emitEvent(ctx.b.recording, p.pumpAmm, s.amm.eventAuthority, event),
  ];
}

/** The accounts of PumpSwap buy (23) and sell (21: no volume accumulators). */
function swapAccounts(s: SimState, pool: Pool, user: User, userBase: Acct, buy: boolean): AccountMeta[] {
  const p = s.programs;
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

interface Reserves {
  base: bigint;
  quote: bigint;
}
const reservesOf = (pool: Pool): Reserves => ({ base: tokenAmount(pool.baseAta.data), quote: tokenAmount(pool.quoteAta.data) });

/** Quote (before fees) a buy of `baseOut` costs: ceil(baseOut*quote/(base-baseOut)). */
export function ammBuyQuote(r: Reserves, baseOut: bigint): bigint {
  return (baseOut * r.quote + (r.base - baseOut) - 1n) / (r.base - baseOut);
}

/** Quote (before fees) a sell of `baseIn` gives: floor(baseIn*quote/(base+baseIn)). */
export function ammSellQuote(r: Reserves, baseIn: bigint): bigint {
  return (baseIn * r.quote) / (r.base + baseIn);
}

/** The coin creator's wrapped SOL fee account, created by the first trade that pays into it (rent from the user). */
function creatorVaultAta(s: SimState, pool: Pool, payer: Acct): Acct {
  if (!pool.creatorVaultAta.exists) createTokenAccount(payer, pool.creatorVaultAta, s.nativeMint, pool.creatorVaultAuthority);
  return pool.creatorVaultAta;
}

function ammFees(s: SimState, quote: bigint): { lp: bigint; protocol: bigint; creator: bigint } {
  const f = s.amm.fees;
  return { lp: ceilBps(quote, f.lpFeeBasisPoints), protocol: ceilBps(quote, f.protocolFeeBasisPoints), creator: ceilBps(quote, f.coinCreatorFeeBasisPoints) };
}

function swapBase(s: SimState, pool: Pool, user: User, userBase: Acct, r: Reserves, ts: bigint) {
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
      const event = (): Buffer => buyEvent({
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
      const quote = ammSellQuote(r, baseIn);
      const fee = ammFees(s, quote);
      const out = quote - fee.lp - fee.protocol - fee.creator;
      if (out < minQuoteOut || out <= 0n) throw CUSTOM(PUMP_AMM_ERR.exceededSlippage);
      const base = swapBase(s, pool, user, userBase, r, ctx.b.blockTime);
      moveTokens(userBase, pool.baseAta, baseIn);
      moveTokens(pool.quoteAta, wsol, out);
      moveTokens(pool.quoteAta, s.amm.protocolFeeRecipientWsol, fee.protocol);
      moveTokens(pool.quoteAta, creatorVaultAta(s, pool, user.acct), fee.creator);
      const event = (): Buffer => sellEvent({
        ...base,
        baseAmountIn: baseIn,
        minQuoteAmountOut: minQuoteOut,
        quoteAmountOut: quote,
        lpFee: fee.lp,
        protocolFee: fee.protocol,
        quoteAmountOutWithoutLpFee: quote - fee.lp,
        userQuoteAmountOut: out,
        coinCreatorFee: fee.creator,
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
  const buy = ammBuyIx(ctx, pool, user, userBase, baseOut, maxQuoteIn, ctx.rng.chance(0.7));
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
  const sell = ammSellIx(ctx, pool, pos.user, pos.ata, amount, minOut);
  ctx.b.submit({
    payer: pos.user.acct,
    ixs: withBudget(
      ctx,
      [createAtaIdempotent(p, pos.user.acct, wsol, pos.user.acct, s.nativeMint), maybeRouted(ctx, pos.user, sell, quote), closeTokenAccountIx(p, wsol, pos.user.acct, pos.user.acct)],
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

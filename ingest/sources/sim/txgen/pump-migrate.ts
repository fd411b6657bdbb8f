// pump.fun's `migrate` of a completed curve to PumpSwap: pump moves the curve's SOL (less the migration fee) and
// remaining tokens to the coin's pool authority and invokes PumpSwap's `create_pool` (18 accounts) by CPI, which
// writes the pool account (the IDL's Pool layout), mints the LP tokens and emits CreatePoolEvent; pump then emits
// CompletePumpAmmMigrationEvent. Accounts: migrate's 25 of today's IDL.
import type { Acct } from '../accounts.js';
import type { AccountMeta, Ix } from '../compile.js';
import { borsh } from '../borsh.js';
import { createTokenAccount, CUSTOM, debit, moveTokens, syncNative, tokenTransferData } from '../instructions.js';
import { MINT_LEN, mintData, poolData, readCurve, tokenAmount, writeCurve } from '../layouts.js';
import {
  associatedTokenAddress,
  canonicalPoolAddress,
  coinCreatorVaultAuthorityAddress,
  lpMintAddress,
  poolAuthorityAddress,
} from '../pda.js';
import { completePumpAmmMigrationEvent, createPoolEvent, emitEvent } from '../pump-events.js';
import { PUMP_AMM_IX, PUMP_ERR, PUMP_IX, rentExempt } from '../programs.js';
import type { Coin, Pool, SimState } from '../state.js';
import type { Step } from '../trace.js';
import { withBudget, type GenCtx } from './context.js';
import { meta } from './pump-accounts.js';

/** The pools that trade: the most recent ones. */
const HOT_POOLS = 64;
/** Uniswap v2's locked liquidity, which PumpSwap copies (record 15: minimum_liquidity 100). */
const MINIMUM_LIQUIDITY = 100n;
const POOL_LEN = 245;

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
  const pool = poolFor(s, coin);
  const pa: AuthorityAccounts = {
    paMint: s.world.at(associatedTokenAddress(pool.authority.key, coin.mint.key)),
    paWsol: s.world.at(associatedTokenAddress(pool.authority.key, s.nativeMint.key)),
    paLp: s.world.at(associatedTokenAddress(pool.authority.key, pool.lpMint.key)),
  };
  // create_pool's list, as migrate passes it on (the pool authority, a PDA, signs the CPI).
  const createPool: Ix = {
    program: s.programs.pumpAmm,
    accounts: createPoolAccounts(s, coin, pool, pa),
    data: Buffer.alloc(0), // set below, once the amounts are known
  };
  const migrate: Ix = {
    program: s.programs.pump,
    accounts: migrateAccounts(s, coin, pool, pa),
    data: Buffer.from(PUMP_IX.migrate),
    run: () => runMigrate(ctx, coin, pool, pa, createPool),
  };
  const tx = ctx.b.submit({ payer: s.pumpAuthority.acct, ixs: withBudget(ctx, [migrate], 0.9) });
  if (tx && tx.err === undefined) {
    coin.pool = pool;
    s.pools.push(pool);
    if (s.pools.length > HOT_POOLS) s.pools.shift();
  }
}

/** create_pool's 18 accounts. */
function createPoolAccounts(s: SimState, coin: Coin, pool: Pool, pa: AuthorityAccounts): AccountMeta[] {
  const p = s.programs;
  return [
    meta(pool.acct, true),
    meta(s.amm.globalConfig),
    meta(pool.authority, true, true),
    meta(coin.mint),
    meta(s.nativeMint),
    meta(pool.lpMint, true),
    meta(pa.paMint, true),
    meta(pa.paWsol, true),
    meta(pa.paLp, true),
    meta(pool.baseAta, true),
    meta(pool.quoteAta, true),
    meta(p.system),
    meta(p.token2022),
    meta(p.token),
    meta(p.token),
    meta(p.ata),
    meta(s.amm.eventAuthority),
    meta(p.pumpAmm),
  ];
}

/** migrate's 25 accounts. */
function migrateAccounts(s: SimState, coin: Coin, pool: Pool, pa: AuthorityAccounts): AccountMeta[] {
  const p = s.programs;
  return [
    meta(s.pumpGlobal),
    meta(s.pumpFixed.withdrawAuthority, true),
    meta(coin.mint),
    meta(coin.curve, true),
    meta(coin.curveAta, true),
    meta(s.pumpAuthority.acct, false, true),
    meta(p.system),
    meta(p.token),
    meta(p.pumpAmm),
    meta(pool.acct, true),
    meta(pool.authority, true),
    meta(pa.paMint, true),
    meta(pa.paWsol, true),
    meta(s.amm.globalConfig),
    meta(s.nativeMint),
    meta(pool.lpMint, true),
    meta(pa.paLp, true),
    meta(pool.baseAta, true),
    meta(pool.quoteAta, true),
    meta(p.token2022),
    meta(p.ata),
    meta(s.amm.eventAuthority),
    meta(s.pumpFixed.eventAuthority),
    meta(p.pump),
    meta(p.rent),
  ];
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
    // October 2026 layout (AMM-IDL-8cda): creator_fee_bps OptionU64, can_edit_creator_fee OptionBool, is_holder_reward OptionBool.
    .u64(0n)
    .optionBool(false)
    .optionBool(false)
    .done();
  const poolSteps = runCreatePool(ctx, coin, pool, a, tokens, sol);
  const event = (): Buffer =>
    completePumpAmmMigrationEvent({
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
/** The pool's LP mint with `lpOut` minted to the pool authority's LP account (created if missing). */
function openLp(s: SimState, pool: Pool, a: AuthorityAccounts, lpOut: bigint): void {
  const payer = s.pumpAuthority.acct;
  pool.lpMint.lamports += rentExempt(MINT_LEN);
  pool.lpMint.owner = s.programs.token.key;
  pool.lpMint.data = mintData(pool.acct.key, lpOut, 9);
  if (!a.paLp.exists) createTokenAccount(payer, a.paLp, pool.lpMint, pool.authority);
  a.paLp.data.writeBigUInt64LE(lpOut, 64);
}

/** The canonical pool's account data as create_pool writes it (quoted in wrapped SOL, the pool authority its creator). */
function newPoolData(s: SimState, coin: Coin, pool: Pool, lpOut: bigint): Buffer {
  return poolData({
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
}

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
  openLp(s, pool, a, lpOut);
  pool.acct.data = newPoolData(s, coin, pool, lpOut);
  const mintTo = Buffer.alloc(9);
  mintTo[0] = 7;
  mintTo.writeBigUInt64LE(lpOut, 1);
  const event = (): Buffer =>
    createPoolEvent({
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

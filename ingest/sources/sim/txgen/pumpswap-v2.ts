// PumpSwap's October 2026 instructions (pump-2026-10.md §1.7; AMM-IDL-8cda): `buy_v2`, `buy_exact_quote_in_v2`,
// `sell_v2` (17 accounts, no remaining accounts; LP fee into the reserves as in v1, the protocol and coin-creator fees
// kept in the quote vault, counted in `Pool.protocol_fees` / `creator_fees` and subtracted from the signed
// `virtual_quote_reserves`; BuyEvent with `ix_name`, SellEvent with a zero-key protocol fee recipient) and the
// permissionless sweeps that pay them out (`sweep_protocol_fee`, `sweep_creator_fee`, 12 accounts, no data,
// SweepPoolFeeEvent; the sweep adds the amount back to `virtual_quote_reserves`, so effective reserves are
// unchanged). Instruction data and events come from the decoder's tables (pump-tables.ts). No buyback fee.
import type { Acct } from '../accounts.js';
import type { AccountMeta, Ix } from '../compile.js';
import { CUSTOM, debit, moveTokens, tokenTransferData } from '../instructions.js';
import { grownPoolData, POOL_2026_10_LEN, readPoolFees, writePoolFees, ZERO_KEY } from '../layouts.js';
import { emitEvent } from '../pump-events.js';
import { tableEventData, tableIxData } from '../pump-tables.js';
import { PUMP_AMM_ERR, rentExempt } from '../programs.js';
import type { Pool, SimState, User } from '../state.js';
import type { Step } from '../trace.js';
import { pickUser, withBudget, type GenCtx } from './context.js';
import { pickFeeHolder } from './pump-v3.js';
import { meta } from './pump-accounts.js';
import { ammBuyQuote, ammFees, ammSell, creatorVaultAta, poolTradeHead, reservesOf, swapBase } from './pumpswap.js';

/** Most pools the sweeps look at (the ones with fees waiting). */
const FEE_POOLS = 128;

/** The v2 list (AMM-IDL-8cda, 17 accounts, the same for buys and sells). */
function v2Accounts(s: SimState, pool: Pool, user: User, userBase: Acct): AccountMeta[] {
  const p = s.programs;
  const u = s.pumpAccountsOf(user);
  return [
    ...poolTradeHead(s, pool, user, userBase),
    meta(p.token),
    meta(p.token),
    meta(p.system),
    meta(u.ammVolume, true),
    meta(s.amm.feeConfig),
    // A buyback wallet's wrapped SOL account (PUMP_SWAP_TRADE_V2.md); no buyback fee is simulated.
    meta(s.pumpFixed.buybackFeeRecipientWsol, true),
    meta(s.amm.eventAuthority),
    meta(p.pumpAmm),
  ];
}

/** A pool no v2 trade touched grows to the October 2026 layout (rent top-up from the payer), as `extend_account` does. */
export function growPool(pool: Pool, payer: Acct): void {
  const d = pool.acct.data;
  if (d.length >= POOL_2026_10_LEN) return;
  const topUp = rentExempt(POOL_2026_10_LEN) - rentExempt(d.length);
  debit(payer, topUp);
  pool.acct.lamports += topUp;
  pool.acct.data = grownPoolData(d);
}

export function keepFees(s: SimState, pool: Pool, protocol: bigint, creator: bigint): { virtual: bigint; creatorFees: bigint } {
  const f = readPoolFees(pool.acct.data);
  f.protocolFees += protocol;
  f.creatorFees += creator;
  f.virtualQuoteReserves -= protocol + creator;
  writePoolFees(pool.acct.data, f);
  if (!s.feePools.includes(pool)) {
    s.feePools.push(pool);
    if (s.feePools.length > FEE_POOLS) s.feePools.shift();
  }
  return { virtual: f.virtualQuoteReserves, creatorFees: f.creatorFees };
}

/** The October 2026 tail of BuyEvent and SellEvent: no cashback, buyback or holder rewards simulated; the kept fees. */
function octoberTail(s: SimState, kept: { virtual: bigint; creatorFees: bigint }) {
  return {
    cashback_fee_basis_points: 0n,
    cashback: 0n,
    buyback_fee_basis_points: 0n,
    buyback_fee: 0n,
    virtual_quote_reserves: kept.virtual,
    can_boost: false,
    base_supply: s.globalParams.tokenTotalSupply,
    holder_rewards_bps: 0n,
    holder_rewards: 0n,
    creator_fee_unclaimed: kept.creatorFees,
  };
}

/** What BuyEvent and SellEvent share, in the table's field names (reserves before the trade, as v1 reports them). */
export function commonFields(s: SimState, pool: Pool, user: User, userBase: Acct, ts: bigint) {
  const b = swapBase(s, pool, user, userBase, reservesOf(pool), ts);
  return {
    timestamp: b.timestamp,
    user_base_token_reserves: b.userBaseTokenReserves,
    user_quote_token_reserves: b.userQuoteTokenReserves,
    pool_base_token_reserves: b.poolBaseTokenReserves,
    pool_quote_token_reserves: b.poolQuoteTokenReserves,
    lp_fee_basis_points: b.lpFeeBasisPoints,
    protocol_fee_basis_points: b.protocolFeeBasisPoints,
    pool: b.pool,
    user: b.user,
    user_base_token_account: b.userBaseTokenAccount,
    user_quote_token_account: b.userQuoteTokenAccount,
    // v2: the protocol fee stays in the pool, so no recipient (PUMP_SWAP_TRADE_V2.md).
    protocol_fee_recipient: ZERO_KEY,
    protocol_fee_recipient_token_account: ZERO_KEY,
    coin_creator: b.coinCreator,
    coin_creator_fee_basis_points: b.coinCreatorFeeBasisPoints,
  };
}

type PoolFees = { lp: bigint; protocol: bigint; creator: bigint };
type Kept = ReturnType<typeof keepFees>;

/** A v2-layout BuyEvent (v2 buys and routes' pool hops): `common` read before the trade, `kept` after it. */
export function v2BuyEventData(
  s: SimState,
  common: ReturnType<typeof commonFields>,
  kept: Kept,
  t: { baseOut: bigint; maxQuoteIn: bigint; quote: bigint; fee: PoolFees; total: bigint; minBaseOut: bigint; ixName: string },
): Buffer {
  return tableEventData('pump_amm', 'BuyEvent', {
    ...common,
    base_amount_out: t.baseOut,
    max_quote_amount_in: t.maxQuoteIn,
    quote_amount_in: t.quote,
    lp_fee: t.fee.lp,
    protocol_fee: t.fee.protocol,
    quote_amount_in_with_lp_fee: t.quote + t.fee.lp,
    user_quote_amount_in: t.total,
    coin_creator_fee: t.fee.creator,
    track_volume: false,
    total_unclaimed_tokens: 0n,
    total_claimed_tokens: 0n,
    current_sol_volume: 0n,
    last_update_timestamp: 0n,
    min_base_amount_out: t.minBaseOut,
    ix_name: t.ixName,
    ...octoberTail(s, kept),
  });
}

/** A v2-layout SellEvent (v2 sells and routes' pool hops: no ix_name; the zero-key fee recipient in `common`). */
export function v2SellEventData(
  s: SimState,
  common: ReturnType<typeof commonFields>,
  kept: Kept,
  t: { baseIn: bigint; minQuoteOut: bigint; quote: bigint; fee: PoolFees; out: bigint },
): Buffer {
  return tableEventData('pump_amm', 'SellEvent', {
    ...common,
    base_amount_in: t.baseIn,
    min_quote_amount_out: t.minQuoteOut,
    quote_amount_out: t.quote,
    lp_fee: t.fee.lp,
    protocol_fee: t.fee.protocol,
    quote_amount_out_without_lp_fee: t.quote - t.fee.lp,
    user_quote_amount_out: t.out,
    coin_creator_fee: t.fee.creator,
    ...octoberTail(s, kept),
  });
}

export type V2BuyOrder = { baseOut: bigint; maxQuoteIn: bigint } | { spend: bigint; minBaseOut: bigint };

export function v2BuyIx(ctx: GenCtx, pool: Pool, user: User, userBase: Acct, o: V2BuyOrder): Ix {
  const { s } = ctx;
  const exact = 'spend' in o;
  const name = exact ? 'buy_exact_quote_in_v2' : 'buy_v2';
  return {
    program: s.programs.pumpAmm,
    accounts: v2Accounts(s, pool, user, userBase),
    data: exact
      ? tableIxData('pump_amm', name, { spendable_quote_in: o.spend, min_base_amount_out: o.minBaseOut })
      : tableIxData('pump_amm', name, { base_amount_out: o.baseOut, max_quote_amount_in: o.maxQuoteIn }),
    run: () => runV2Buy(ctx, pool, user, userBase, o),
  };
}

/** The most base an exact-quote-in spend buys once the three fees are added on top of the price. */
function baseForSpend(s: SimState, pool: Pool, spend: bigint): bigint {
  const r = reservesOf(pool);
  const f = s.amm.fees;
  let net = (spend * 10_000n) / (10_000n + f.lpFeeBasisPoints + f.protocolFeeBasisPoints + f.coinCreatorFeeBasisPoints);
  for (;;) {
    const baseOut = (net * r.base) / (r.quote + net);
    const q = baseOut > 0n ? ammBuyQuote(r, baseOut) : 0n;
    const fee = ammFees(s, q);
    if (q + fee.lp + fee.protocol + fee.creator <= spend || net === 0n) return baseOut;
    net--;
  }
}

function runV2Buy(ctx: GenCtx, pool: Pool, user: User, userBase: Acct, o: V2BuyOrder): Step[] {
  const { s } = ctx;
  const p = s.programs;
  const wsol = s.pumpAccountsOf(user).wsol;
  const exact = 'spend' in o;
  const baseOut = exact ? baseForSpend(s, pool, o.spend) : o.baseOut;
  if (exact && (baseOut < o.minBaseOut || baseOut <= 0n)) throw CUSTOM(PUMP_AMM_ERR.exceededSlippage);
  const r = reservesOf(pool);
  if (baseOut >= r.base) throw CUSTOM(PUMP_AMM_ERR.exceededSlippage);
  const quote = ammBuyQuote(r, baseOut);
  const fee = ammFees(s, quote);
  const total = quote + fee.lp + fee.protocol + fee.creator;
  if (!exact && total > o.maxQuoteIn) throw CUSTOM(PUMP_AMM_ERR.exceededSlippage);
  const ts = ctx.b.blockTime;
  const common = commonFields(s, pool, user, userBase, ts);
  growPool(pool, user.acct);
  moveTokens(pool.baseAta, userBase, baseOut);
  moveTokens(wsol, pool.quoteAta, total);
  const kept = keepFees(s, pool, fee.protocol, fee.creator);
  const event = (): Buffer =>
    v2BuyEventData(s, common, kept, {
      baseOut,
      maxQuoteIn: exact ? o.spend : o.maxQuoteIn,
      quote,
      fee,
      total,
      minBaseOut: exact ? o.minBaseOut : 0n,
      ixName: exact ? 'buy_exact_quote_in_v2' : 'buy_v2',
    });
  return [
    { program: p.token, accounts: [pool.baseAta, userBase, pool.acct], data: tokenTransferData(baseOut) },
    { program: p.token, accounts: [wsol, pool.quoteAta, user.acct], data: tokenTransferData(total) },
    ...emitEvent(ctx.b.recording, p.pumpAmm, s.amm.eventAuthority, event),
  ];
}

export function v2SellIx(ctx: GenCtx, pool: Pool, user: User, userBase: Acct, baseIn: bigint, minQuoteOut: bigint): Ix {
  const { s } = ctx;
  const p = s.programs;
  const wsol = s.pumpAccountsOf(user).wsol;
  return {
    program: p.pumpAmm,
    accounts: v2Accounts(s, pool, user, userBase),
    data: tableIxData('pump_amm', 'sell_v2', { base_amount_in: baseIn, min_quote_amount_out: minQuoteOut }),
    run: () => {
      const r = reservesOf(pool);
      const { quote, fee, out } = ammSell(s, r, baseIn, minQuoteOut);
      const ts = ctx.b.blockTime;
      const common = commonFields(s, pool, user, userBase, ts);
      growPool(pool, user.acct);
      moveTokens(userBase, pool.baseAta, baseIn);
      // Only the seller's part leaves the vault; the protocol and creator fees stay in it until a sweep.
      moveTokens(pool.quoteAta, wsol, out);
      const kept = keepFees(s, pool, fee.protocol, fee.creator);
      const event = (): Buffer => v2SellEventData(s, common, kept, { baseIn, minQuoteOut, quote, fee, out });
      return [
        { program: p.token, accounts: [userBase, pool.baseAta, user.acct], data: tokenTransferData(baseIn) },
        { program: p.token, accounts: [pool.quoteAta, wsol, pool.acct], data: tokenTransferData(out) },
        ...emitEvent(ctx.b.recording, p.pumpAmm, s.amm.eventAuthority, event),
      ];
    },
  };
}

/** The pool sweeps' list (AMM-IDL-8cda, 12 accounts). */
function poolSweepAccounts(s: SimState, pool: Pool, payer: Acct, recipient: Acct, recipientTokens: Acct): AccountMeta[] {
  const p = s.programs;
  return [
    meta(payer, true, true),
    meta(s.amm.globalConfig),
    meta(pool.acct, true),
    meta(s.nativeMint),
    meta(p.token),
    meta(pool.quoteAta, true),
    meta(recipient),
    meta(recipientTokens, true),
    meta(p.system),
    meta(p.ata),
    meta(s.amm.eventAuthority),
    meta(p.pumpAmm),
  ];
}

/**
 * A permissionless sweep of fees v2 trades kept in a pool: `sweep_creator_fee` to the coin creator's vault
 * authority's wrapped SOL account (created if missing, rent from the payer) or `sweep_protocol_fee` to the protocol
 * fee recipient's. False when no pool has fees waiting.
 */
export function poolSweepTx(ctx: GenCtx): boolean {
  const { s } = ctx;
  const pick = pickFeeHolder(ctx, s.feePools, (pool) => {
    const w = readPoolFees(pool.acct.data);
    return { creator: w.creatorFees, protocol: w.protocolFees };
  });
  if (!pick) return false;
  const { x: pool, creator } = pick;
  const coinCreator = pool.coin.creator;
  const payer = creator && s.spendable(coinCreator) > 1_000_000n ? coinCreator : pickUser(ctx, 1_000_000n);
  if (!payer) return false;
  const recipient = creator ? pool.creatorVaultAuthority : s.amm.protocolFeeRecipient;
  const recipientTokens = creator ? pool.creatorVaultAta : s.amm.protocolFeeRecipientWsol;
  const ix: Ix = {
    program: s.programs.pumpAmm,
    accounts: poolSweepAccounts(s, pool, payer.acct, recipient, recipientTokens),
    data: tableIxData('pump_amm', creator ? 'sweep_creator_fee' : 'sweep_protocol_fee'),
    run: () => runPoolSweep(ctx, pool, payer.acct, { creator, recipient, recipientTokens }),
  };
  ctx.b.submit({ payer: payer.acct, ixs: withBudget(ctx, [ix], 0.6) });
  return true;
}

function runPoolSweep(ctx: GenCtx, pool: Pool, payer: Acct, to: { creator: boolean; recipient: Acct; recipientTokens: Acct }): Step[] {
  const { s } = ctx;
  const p = s.programs;
  const f = readPoolFees(pool.acct.data);
  const amount = to.creator ? f.creatorFees : f.protocolFees;
  if (amount === 0n) return []; // already swept in this block: a no-op
  if (to.creator) {
    creatorVaultAta(s, pool, payer);
    f.creatorFees = 0n;
  } else f.protocolFees = 0n;
  f.virtualQuoteReserves += amount;
  writePoolFees(pool.acct.data, f);
  moveTokens(pool.quoteAta, to.recipientTokens, amount);
  const ts = ctx.b.blockTime;
  return [
    { program: p.token, accounts: [pool.quoteAta, to.recipientTokens, pool.acct], data: tokenTransferData(amount) },
    ...emitEvent(ctx.b.recording, p.pumpAmm, s.amm.eventAuthority, () =>
      tableEventData('pump_amm', 'SweepPoolFeeEvent', {
        timestamp: ts,
        pool: pool.acct.key,
        base_mint: pool.coin.mint.key,
        quote_mint: s.nativeMint.key,
        recipient: to.recipient.key,
        payer: payer.key,
        amount,
        bucket: to.creator ? 1 : 0,
      }),
    ),
  ];
}

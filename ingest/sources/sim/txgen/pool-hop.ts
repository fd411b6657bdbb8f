// A PumpSwap pool hop of a multi-hop route (pump-2026-10.md §1.7 `multi_hop_swap`; MULTI_HOP_SWAP.md @2293f9a): the
// hop's 5 route accounts are the pool's base mint, quote mint, the pool and its two vaults; PumpSwap trades the pool
// itself (no CPI into pump), exact-in, and emits its own BuyEvent (ix_name `multi_hop_swap`) or SellEvent. Fees once
// per route, as on curve hops: the protocol fee on the hop trading the user's currency, the coin-creator and LP fees
// on the far-end coin's hop; the protocol and creator fees are kept in the pool's quote vault as v2 trades keep them
// (pumpswap-v2.ts), the LP fee goes into the reserves. The simulator's pools are quoted in wrapped SOL (it migrates
// SOL coins only), so a pool hop is the SOL end of a route: SOL -> Q on Q's pool, or Q -> SOL.
import type { Acct } from '../accounts.js';
import type { AccountMeta } from '../compile.js';
import { CUSTOM, moveTokens, tokenTransferData } from '../instructions.js';
import { emitEvent } from '../pump-events.js';
import { PUMP_AMM_ERR } from '../programs.js';
import type { Pool, SimState, User } from '../state.js';
import type { Step } from '../trace.js';
import type { GenCtx } from './context.js';
import { meta } from './pump-accounts.js';
import { ammBuyQuote, ammSellQuote, ceilBps, reservesOf } from './pumpswap.js';
import { commonFields, growPool, keepFees, v2BuyEventData, v2SellEventData } from './pumpswap-v2.js';

/** `hop_fees` flag bits of a route's hops (the simulator's assumption: the docs do not give the values, §6.3). */
export const PROTOCOL_BIT = 1;
export const CREATOR_BIT = 2;

/** One pool hop: buy the pool's coin with its quote, or sell it; which fees it charges; the user's two token accounts. */
export interface PoolHop {
  venue: 'pool';
  pool: Pool;
  buy: boolean;
  flags: number;
  source: Acct;
  destination: Acct;
}

interface PoolHopFees {
  lp: bigint;
  protocol: bigint;
  creator: bigint;
}

/** A pool hop's 5 route accounts (MULTI_HOP_SWAP.md: pool hop). */
export const poolHopAccounts = (s: SimState, pool: Pool): AccountMeta[] => [
  meta(pool.coin.mint),
  meta(s.nativeMint),
  meta(pool.acct, true),
  meta(pool.baseAta, true),
  meta(pool.quoteAta, true),
];

function poolHopFees(s: SimState, flags: number, quote: bigint): PoolHopFees {
  const f = s.amm.fees;
  const far = (flags & CREATOR_BIT) !== 0;
  return {
    lp: far ? ceilBps(quote, f.lpFeeBasisPoints) : 0n,
    protocol: flags & PROTOCOL_BIT ? ceilBps(quote, f.protocolFeeBasisPoints) : 0n,
    creator: far ? ceilBps(quote, f.coinCreatorFeeBasisPoints) : 0n,
  };
}

const feeSum = (f: PoolHopFees): bigint => f.lp + f.protocol + f.creator;

/** An exact-in buy of `amountIn` quote: the most base whose price plus the hop's fees fits in it. */
function buyFill(s: SimState, pool: Pool, flags: number, amountIn: bigint): { baseOut: bigint; quote: bigint; fee: PoolHopFees } {
  const r = reservesOf(pool);
  const f = s.amm.fees;
  const bps =
    (flags & PROTOCOL_BIT ? f.protocolFeeBasisPoints : 0n) + (flags & CREATOR_BIT ? f.lpFeeBasisPoints + f.coinCreatorFeeBasisPoints : 0n);
  let net = (amountIn * 10_000n) / (10_000n + bps);
  for (;;) {
    const baseOut = (net * r.base) / (r.quote + net);
    const quote = baseOut > 0n ? ammBuyQuote(r, baseOut) : 0n;
    const fee = poolHopFees(s, flags, quote);
    if (quote + feeSum(fee) <= amountIn || net === 0n) return { baseOut, quote, fee };
    net--;
  }
}

function sellFill(s: SimState, pool: Pool, flags: number, baseIn: bigint): { quote: bigint; fee: PoolHopFees; out: bigint } {
  const quote = ammSellQuote(reservesOf(pool), baseIn);
  const fee = poolHopFees(s, flags, quote);
  return { quote, fee, out: quote - feeSum(fee) };
}

/** What a pool hop pays out for `amountIn`, from the pool as it is (no state change): for quoting a route. */
export function poolHopOut(s: SimState, hop: PoolHop, amountIn: bigint): bigint {
  return hop.buy ? buyFill(s, hop.pool, hop.flags, amountIn).baseOut : sellFill(s, hop.pool, hop.flags, amountIn).out;
}

/** Runs one pool hop inside multi_hop_swap: the vaults and the user's accounts move, then the pool's event. */
export function runPoolHop(ctx: GenCtx, user: User, hop: PoolHop, amountIn: bigint): { out: bigint; steps: Step[] } {
  const common = commonFields(ctx.s, hop.pool, user, hop.buy ? hop.destination : hop.source, ctx.b.blockTime);
  growPool(hop.pool, user.acct);
  return hop.buy ? poolBuy(ctx, user, hop, amountIn, common) : poolSell(ctx, user, hop, amountIn, common);
}

type Common = ReturnType<typeof commonFields>;

function poolBuy(ctx: GenCtx, user: User, hop: PoolHop, amountIn: bigint, common: Common): { out: bigint; steps: Step[] } {
  const { s } = ctx;
  const { pool } = hop;
  const p = s.programs;
  const { baseOut, quote, fee } = buyFill(s, pool, hop.flags, amountIn);
  if (baseOut <= 0n || baseOut >= reservesOf(pool).base) throw CUSTOM(PUMP_AMM_ERR.exceededSlippage);
  const total = quote + feeSum(fee);
  moveTokens(hop.source, pool.quoteAta, total);
  moveTokens(pool.baseAta, hop.destination, baseOut);
  const kept = keepFees(s, pool, fee.protocol, fee.creator);
  const event = (): Buffer =>
    v2BuyEventData(s, common, kept, { baseOut, maxQuoteIn: amountIn, quote, fee, total, minBaseOut: 0n, ixName: 'multi_hop_swap' });
  const steps: Step[] = [
    { program: p.token, accounts: [hop.source, pool.quoteAta, user.acct], data: tokenTransferData(total) },
    { program: p.token, accounts: [pool.baseAta, hop.destination, pool.acct], data: tokenTransferData(baseOut) },
    ...emitEvent(ctx.b.recording, p.pumpAmm, s.amm.eventAuthority, event),
  ];
  return { out: baseOut, steps };
}

function poolSell(ctx: GenCtx, user: User, hop: PoolHop, amountIn: bigint, common: Common): { out: bigint; steps: Step[] } {
  const { s } = ctx;
  const { pool } = hop;
  const p = s.programs;
  const { quote, fee, out } = sellFill(s, pool, hop.flags, amountIn);
  if (out <= 0n) throw CUSTOM(PUMP_AMM_ERR.exceededSlippage);
  moveTokens(hop.source, pool.baseAta, amountIn);
  // Only the user's part leaves the vault; the kept fees wait there for a sweep.
  moveTokens(pool.quoteAta, hop.destination, out);
  const kept = keepFees(s, pool, fee.protocol, fee.creator);
  const event = (): Buffer => v2SellEventData(s, common, kept, { baseIn: amountIn, minQuoteOut: 0n, quote, fee, out });
  const steps: Step[] = [
    { program: p.token, accounts: [hop.source, pool.baseAta, user.acct], data: tokenTransferData(amountIn) },
    { program: p.token, accounts: [pool.quoteAta, hop.destination, pool.acct], data: tokenTransferData(out) },
    ...emitEvent(ctx.b.recording, p.pumpAmm, s.amm.eventAuthority, event),
  ];
  return { out, steps };
}

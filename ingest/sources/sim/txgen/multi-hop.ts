// Multi-hop routes (pump-2026-10.md §1.3, §1.7; MULTI_HOP_SWAP.md @2293f9a; AMM-IDL-8cda, IDL-2293): a trader buys a
// coin C quoted in a pump coin Q with SOL, or sells it back to SOL, in one PumpSwap `multi_hop_swap` (16 accounts,
// then 5 per hop in route order: base mint, quote mint, curve, its base and quote token accounts; exact-in,
// `amount_in` / `min_amount_out`). Each curve hop is PumpSwap's CPI into pump's `multi_hop_curve_swap` (13 accounts,
// `amount_in`, `hop_fees`), which emits a pump TradeEvent with `ix_name` `multi_hop_swap`. Fees once per route: the
// protocol fee on the hop trading the user's currency (SOL), the creator fee on the far-end coin's hop; both kept on
// their curves until a sweep, as v3 trades keep them. The middle coin nets to zero for the user (it passes through
// the user's token account for Q).
// Assumptions where the docs are silent (§6.3), the simulator's choices: `hop_fees` bit 0 = protocol fee, bit 1 =
// creator fee; `multi_hop_curve_swap`'s remaining accounts are the hop's 5 route accounts; `source` / `destination`
// are the user's token accounts of the hop's input and output (SOL: the wrapped SOL account; the curve moves native
// lamports, as v3 trades do). Once Q left its curve for its PumpSwap pool, the SOL end of the route is a pool hop
// there (pool-hop.ts). Not simulated: routes that would complete a curve (refused with NotEnoughTokensToBuy), the
// CurveRunResult return data.
import type { Acct } from '../accounts.js';
import type { AccountMeta, Ix } from '../compile.js';
import {
  closeTokenAccountIx,
  createAtaIdempotent,
  CUSTOM,
  moveTokens,
  syncNativeIx,
  systemTransfer,
  tokenTransferData,
} from '../instructions.js';
import { readCurve, tokenAmount, writeCurve } from '../layouts.js';
import { emitEvent } from '../pump-events.js';
import { tableIxData } from '../pump-tables.js';
import { PUMP_AMM_ERR, PUMP_ERR } from '../programs.js';
import { LAMPORTS_PER_SOL, type Coin, type Pool, type SimState, type User } from '../state.js';
import type { Step } from '../trace.js';
import { lamportsBetween, pickUser, withBudget, type GenCtx } from './context.js';
import { curveQuoteAccount, quoteIntoCurve, quoteMintAcct, quoteOutOfCurve } from './curve-quote.js';
import { meta } from './pump-accounts.js';
import { growCurve, keepCurveFees, v3TradeEvent } from './pump-v3.js';
import { feeOf, sellProceeds, tokensForSol } from './pumpfun.js';
import { addHolder, createQuotedTx, tradingQuotedCoin } from './quoted-coins.js';
import { CREATOR_BIT, poolHopAccounts, poolHopOut, PROTOCOL_BIT, runPoolHop, type PoolHop } from './pool-hop.js';

/** One curve hop of a route: buy `coin` with its quote, or sell it for its quote; which fees it charges. */
interface CurveHop {
  venue: 'curve';
  coin: Coin;
  buy: boolean;
  flags: number;
  /** The user's token accounts the hop takes from and pays to. */
  source: Acct;
  destination: Acct;
}
type Hop = CurveHop | PoolHop;

/** A hop's 5 route accounts (multi_hop_swap's remaining accounts, MULTI_HOP_SWAP.md). */
const curveHopAccounts = (s: SimState, coin: Coin): AccountMeta[] => [
  meta(coin.mint),
  meta(quoteMintAcct(s, coin)),
  meta(coin.curve, true),
  meta(coin.curveAta, true),
  meta(curveQuoteAccount(s, coin), true),
];

const hopAccounts = (s: SimState, hop: Hop): AccountMeta[] =>
  hop.venue === 'pool' ? poolHopAccounts(s, hop.pool) : curveHopAccounts(s, hop.coin);

/** multi_hop_swap's 16 fixed accounts (AMM-IDL-8cda). */
function routeAccounts(s: SimState, user: User, userIn: Acct, userOut: Acct): AccountMeta[] {
  const p = s.programs;
  return [
    meta(user.acct, true, true),
    meta(userIn, true),
    meta(userOut, true),
    meta(s.amm.globalConfig),
    meta(s.amm.feeConfig),
    meta(s.pumpAccountsOf(user).ammVolume, true),
    meta(s.pumpFixed.buybackFeeRecipientWsol, true),
    meta(p.token),
    meta(p.token2022),
    meta(p.system),
    meta(s.amm.eventAuthority),
    meta(p.pumpAmm),
    meta(p.pump),
    meta(s.pumpGlobal),
    meta(s.pumpFixed.feeConfig),
    meta(s.pumpFixed.eventAuthority),
  ];
}

/** multi_hop_curve_swap's 13 accounts (IDL-2293), then the hop's route accounts. */
function curveSwapAccounts(s: SimState, user: User, hop: CurveHop): Acct[] {
  const p = s.programs;
  return [
    s.pumpGlobal,
    s.pumpFixed.feeConfig,
    s.amm.globalConfig,
    user.acct,
    user.acct,
    hop.source,
    hop.destination,
    // The route's buyback fee recipient (a buyback wallet's wrapped SOL account), passed through.
    s.pumpFixed.buybackFeeRecipientWsol,
    p.token,
    p.token2022,
    p.system,
    s.pumpFixed.eventAuthority,
    p.pump,
    ...curveHopAccounts(s, hop.coin).map((m) => m.acct),
  ];
}

/** The fees a hop charges on `quote` (its flags say which). */
function hopFees(s: SimState, hop: CurveHop, quote: bigint): { fee: bigint; creatorFee: bigint } {
  const g = s.globalParams;
  return {
    fee: hop.flags & PROTOCOL_BIT ? feeOf(quote, g.feeBasisPoints) : 0n,
    creatorFee: hop.flags & CREATOR_BIT ? feeOf(quote, g.creatorFeeBasisPoints) : 0n,
  };
}

/** The most quote that goes into the curve from `amountIn` once the hop's fees are added on top. */
function netOfHopFees(s: SimState, hop: CurveHop, amountIn: bigint): bigint {
  const g = s.globalParams;
  const bps = (hop.flags & PROTOCOL_BIT ? g.feeBasisPoints : 0n) + (hop.flags & CREATOR_BIT ? g.creatorFeeBasisPoints : 0n);
  let net = (amountIn * 10_000n) / (10_000n + bps);
  for (;;) {
    const f = hopFees(s, hop, net);
    if (net + f.fee + f.creatorFee <= amountIn || net === 0n) return net;
    net--;
  }
}

/** Runs one curve hop: the state change, then what pump invokes and emits. Returns what the hop paid out. */
function runCurveHop(ctx: GenCtx, user: User, hop: CurveHop, amountIn: bigint): { out: bigint; steps: Step[] } {
  const { s } = ctx;
  const { coin } = hop;
  const c = readCurve(coin.curve.data);
  if (c.complete) throw CUSTOM(PUMP_ERR.bondingCurveComplete);
  growCurve(s, coin, user.acct);
  let quote: bigint;
  let tokens: bigint;
  let out: bigint;
  let f: { fee: bigint; creatorFee: bigint };
  const steps: Step[] = [];
  if (hop.buy) {
    quote = netOfHopFees(s, hop, amountIn);
    f = hopFees(s, hop, quote);
    tokens = out = tokensForSol(c, quote);
    if (tokens >= c.realTokenReserves) throw CUSTOM(PUMP_ERR.notEnoughTokensToBuy);
    steps.push(quoteIntoCurve(s, coin, user.acct, hop.source, quote + f.fee + f.creatorFee));
    moveTokens(coin.curveAta, hop.destination, tokens);
    steps.push({ program: s.programs.token, accounts: [coin.curveAta, hop.destination, coin.curve], data: tokenTransferData(tokens) });
    c.virtualSolReserves += quote;
    c.realSolReserves += quote;
    c.virtualTokenReserves -= tokens;
    c.realTokenReserves -= tokens;
  } else {
    tokens = amountIn;
    quote = sellProceeds(c, tokens);
    f = hopFees(s, hop, quote);
    out = quote - f.fee - f.creatorFee;
    moveTokens(hop.source, coin.curveAta, tokens);
    steps.push({ program: s.programs.token, accounts: [hop.source, coin.curveAta, user.acct], data: tokenTransferData(tokens) });
    steps.push(...quoteOutOfCurve(s, coin, user.acct, hop.destination, out));
    c.virtualSolReserves -= quote;
    c.realSolReserves -= quote;
    c.virtualTokenReserves += tokens;
    c.realTokenReserves += tokens;
  }
  writeCurve(coin.curve.data, c);
  const unclaimed = keepCurveFees(s, coin, f.fee, f.creatorFee);
  const ts = ctx.b.blockTime;
  const trade = { sol: quote, tokens, isBuy: hop.buy, ...f, volume: 0n, ixName: 'multi_hop_swap', unclaimed };
  steps.push(...emitEvent(ctx.b.recording, s.programs.pump, s.pumpFixed.eventAuthority, () => v3TradeEvent(s, coin, c, user, ts, trade)));
  return { out, steps };
}

/** The route instruction: each hop a multi_hop_curve_swap CPI fed with the previous hop's output. */
function routeIx(ctx: GenCtx, user: User, hops: Hop[], amountIn: bigint, minOut: bigint): Ix {
  const { s } = ctx;
  const p = s.programs;
  return {
    program: p.pumpAmm,
    accounts: [...routeAccounts(s, user, hops[0]!.source, hops.at(-1)!.destination), ...hops.flatMap((h) => hopAccounts(s, h))],
    data: tableIxData('pump_amm', 'multi_hop_swap', { amount_in: amountIn, min_amount_out: minOut }),
    run: () => {
      const steps: Step[] = [];
      let amount = amountIn;
      for (const hop of hops) {
        // A pool hop is PumpSwap's own trade; a curve hop its CPI into pump.
        if (hop.venue === 'pool') {
          const r = runPoolHop(ctx, user, hop, amount);
          steps.push(...r.steps);
          amount = r.out;
          continue;
        }
        const data = tableIxData('pump', 'multi_hop_curve_swap', { amount_in: amount, hop_fees: Buffer.of(hop.flags) });
        const r = runCurveHop(ctx, user, hop, amount);
        steps.push({ program: p.pump, accounts: curveSwapAccounts(s, user, hop), data, steps: r.steps });
        amount = r.out;
      }
      if (amount < minOut) throw CUSTOM(PUMP_AMM_ERR.exceededSlippage);
      return steps;
    },
  };
}

/** What a route pays out, quoted from the curves as the client last saw them (no state change). */
function quoteRoute(s: SimState, hops: Hop[], amountIn: bigint): bigint {
  let amount = amountIn;
  for (const hop of hops) {
    if (hop.venue === 'pool') {
      amount = poolHopOut(s, hop, amount);
      continue;
    }
    const c = readCurve(hop.coin.curve.data);
    if (hop.buy) amount = tokensForSol(c, netOfHopFees(s, hop, amount));
    else {
      const q = sellProceeds(c, amount);
      const f = hopFees(s, hop, q);
      amount = q - f.fee - f.creatorFee;
    }
  }
  return amount;
}

/** The route's hops: SOL -> Q -> C, or C -> Q -> SOL for a seller; the SOL end on Q's pool once Q migrated. */
function routeHops(r: { coin: Coin; quoteCoin: Coin; qPool?: Pool; sell: boolean; wsol: Acct; viaQ: Acct; out: Acct }): Hop[] {
  const solEnd = (buy: boolean, source: Acct, destination: Acct): Hop =>
    r.qPool
      ? { venue: 'pool', pool: r.qPool, buy, flags: PROTOCOL_BIT, source, destination }
      : { venue: 'curve', coin: r.quoteCoin, buy, flags: PROTOCOL_BIT, source, destination };
  return r.sell
    ? [{ venue: 'curve', coin: r.coin, buy: false, flags: CREATOR_BIT, source: r.out, destination: r.viaQ }, solEnd(false, r.viaQ, r.wsol)]
    : [solEnd(true, r.wsol, r.viaQ), { venue: 'curve', coin: r.coin, buy: true, flags: CREATOR_BIT, source: r.viaQ, destination: r.out }];
}

/**
 * A multi-hop route through a coin quoted in a pump coin: SOL -> Q -> C (a buy of 0.01 to 1 SOL) or, for a holder,
 * C -> Q -> SOL; with no such coin trading, the launch of one. False when no route or trader is at hand.
 */
export function multiHopTx(ctx: GenCtx): boolean {
  const { s, rng } = ctx;
  const coin = tradingQuotedCoin(ctx, s.coinQuotedCoins);
  // None trading yet: someone launches one, so the route share holds from the start.
  if (!coin) return createQuotedTx(ctx, 'coin');
  const quoteCoin = coin.quote!.coin!;
  // Q completed its curve: no route until its migration opens the pool the SOL end then trades on.
  const qCompleted = readCurve(quoteCoin.curve.data).complete;
  if (qCompleted && !quoteCoin.pool) return false;
  const holder = coin.holders.length > 0 && rng.chance(0.35) ? rng.pick(coin.holders) : undefined;
  const have = holder && s.ataOf(holder, coin.mint).exists ? tokenAmount(s.ataOf(holder, coin.mint).data) : 0n;
  const user = have > 0n && s.spendable(holder!) >= 1_000_000n ? holder! : pickUser(ctx, LAMPORTS_PER_SOL / 20n);
  if (!user) return false;
  const wsol = s.pumpAccountsOf(user).wsol;
  const viaQ = s.ataOf(user, quoteCoin.mint);
  const out = s.ataOf(user, coin.mint);
  const sell = user === holder && have > 0n;
  const qPool = qCompleted ? quoteCoin.pool : undefined;
  const hops = routeHops({ coin, quoteCoin, qPool, sell, wsol, viaQ, out });
  const amountIn = sell
    ? 1n + (have * BigInt(rng.range(1, 100))) / 100n
    : lamportsBetween(ctx, LAMPORTS_PER_SOL / 100n, LAMPORTS_PER_SOL < s.spendable(user) / 2n ? LAMPORTS_PER_SOL : s.spendable(user) / 2n);
  const tol = BigInt(rng.range(50, 300));
  const minOut = (quoteRoute(s, hops, amountIn) * (10_000n - tol)) / 10_000n;
  const p = s.programs;
  const ata = (a: Acct, mint: Acct): Ix => createAtaIdempotent(p, user.acct, a, user.acct, mint);
  const route = routeIx(ctx, user, hops, amountIn, minOut);
  // A pool moves wrapped SOL: the user wraps what the route spends first (buys) and closes the account after, as
  // mainnet clients do around PumpSwap trades.
  const wrap = qPool
    ? [ata(wsol, s.nativeMint), ...(sell ? [] : [systemTransfer(p, user.acct, wsol, amountIn), syncNativeIx(p, wsol)])]
    : [];
  const unwrap = qPool ? [closeTokenAccountIx(p, wsol, user.acct, user.acct)] : [];
  const tx = ctx.b.submit({
    payer: user.acct,
    ixs: withBudget(ctx, [...(sell ? [] : [ata(out, coin.mint)]), ata(viaQ, quoteCoin.mint), ...wrap, route, ...unwrap], 0.9),
    table: rng.chance(0.4) ? s.table : undefined,
  });
  if (tx && tx.err === undefined && !sell) addHolder(coin, user);
  return true;
}

// A parsed transaction's trades and fee sweeps as a trader counts them (SubscribeParsed's ParsedTrade, issue 34
// item 3; docs/decisions.md "Trades as a trader counts them"). Built from the decoded events, with the
// instructions' accounts for what an event does not carry (a PumpSwap event's coin and quote mints, a curve's
// address). Pure.
// - pump TradeEvent: a curve trade; PumpSwap BuyEvent / SellEvent: a pool trade.
// - A synthetic migration (TradeEvent, CompleteEvent, PostCompleteBuyEvent of one coin in one top-level
//   instruction) is ONE buy, "curve+pool": amounts and fees summed (pump-2026-10.md §1.6: "the buyer's total =
//   TradeEvent amounts + PostCompleteBuyEvent amounts").
// - A multi-hop route (a top-level instruction running PumpSwap's multi_hop_swap, or an event whose ix_name is
//   multi_hop_swap) is one trade per hop, in event order, each marked with `hop` and `hops`.
// - Fees kept on the curve or pool (v3 trades: TradeEvent.fee_recipient the zero key; PumpSwap v2 and multi-hop:
//   ix_name, or SellEvent's protocol_fee_recipient the zero key) are marked `feesKept`: income at their sweep
//   (SweepBondingCurveFeeEvent / SweepPoolFeeEvent → kind "fee_sweep"), never at the trade (SWEEP_FEES.md).
// - The quote side is in the quote mint's base units with the quote mint named: the zero key or wrapped SOL is SOL
//   (reported as wrapped SOL), USDC, or another mint ("TOKEN": a pump coin or a quote-control mint).
import bs58 from 'bs58';
import type { ParsedTrade } from '../../proto/gen/stream.js';
import type { ParsedTradeFact } from '../gen/events.js';
import type { PumpEventAt, PumpInstructionAt } from './extract.js';
import type { Fields } from './layout.js';

export const WSOL = Buffer.from(bs58.decode('So11111111111111111111111111111111111111112'));
export const USDC = Buffer.from(bs58.decode('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'));
const EMPTY = Buffer.alloc(0);
/** PumpSwap multi_hop_swap's fixed accounts; then 5 per hop: base mint, quote mint, curve or pool, two vaults. */
const MULTI_HOP_FIXED = 16;
const HOP_ACCOUNTS = 5;
const V2_AMM_IX = new Set(['buy_v2', 'buy_exact_quote_in_v2', 'multi_hop_swap']);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Trade = Mutable<ParsedTrade>;

const isZero = (b: Buffer | undefined): boolean => b !== undefined && b.length === 32 && b.every((x) => x === 0);
const same = (a: Buffer | undefined, b: Buffer | undefined): boolean => a !== undefined && b !== undefined && a.equals(b);
const u64 = (f: Fields, name: string): bigint => (typeof f[name] === 'bigint' ? (f[name] as bigint) : 0n);
const key = (f: Fields, name: string): Buffer | undefined => (Buffer.isBuffer(f[name]) ? (f[name] as Buffer) : undefined);

/** The quote mint as reported (SOL as wrapped SOL) and its name. */
export function quoteOf(mint: Buffer | undefined): { quoteMint: Buffer; quote: string } {
  if (mint === undefined || isZero(mint) || mint.equals(WSOL)) return { quoteMint: WSOL, quote: 'SOL' };
  if (mint.equals(USDC)) return { quoteMint: mint, quote: 'USDC' };
  return { quoteMint: mint, quote: 'TOKEN' };
}

function named(x: PumpInstructionAt, name: string): Buffer | undefined {
  const d = x.decoded;
  if (d.kind !== 'decoded') return undefined;
  const at = d.def.accounts.indexOf(name);
  return at < 0 ? undefined : x.accounts[at];
}

function nameOf(x: PumpInstructionAt): string | undefined {
  return x.decoded.kind === 'decoded' ? x.decoded.name : undefined;
}

/** A route hop's accounts (multi_hop_swap's remaining accounts) holding `k` at `offset` within the hop. */
function hopWith(xs: readonly PumpInstructionAt[], index: number, k: Buffer, offset: number): (Buffer | undefined)[] | undefined {
  for (const x of xs) {
    if (x.index !== index || x.program !== 'pump_amm' || nameOf(x) !== 'multi_hop_swap') continue;
    for (let j = MULTI_HOP_FIXED + offset; j < x.accounts.length; j += HOP_ACCOUNTS)
      if (same(x.accounts[j], k)) return x.accounts.slice(j - offset, j - offset + HOP_ACCOUNTS);
  }
  return undefined;
}

/** A PumpSwap pool's base and quote mints, from an instruction of the same top-level index that names the pool. */
function poolMints(xs: readonly PumpInstructionAt[], index: number, pool: Buffer | undefined): [Buffer | undefined, Buffer | undefined] {
  if (pool === undefined) return [undefined, undefined];
  for (const x of xs)
    if (x.index === index && x.program === 'pump_amm' && same(named(x, 'pool'), pool))
      return [named(x, 'base_mint'), named(x, 'quote_mint')];
  const hop = hopWith(xs, index, pool, 2);
  return hop ? [hop[0], hop[1]] : [undefined, undefined];
}

/** A coin's bonding curve, from a pump instruction of the same top-level index, or a route's curve hop. */
function curveOf(xs: readonly PumpInstructionAt[], index: number, mint: Buffer | undefined): Buffer | undefined {
  if (mint === undefined) return undefined;
  for (const x of xs)
    if (x.index === index && x.program === 'pump' && (same(named(x, 'mint'), mint) || same(named(x, 'base_mint'), mint)))
      return named(x, 'bonding_curve');
  return hopWith(xs, index, mint, 0)?.[2];
}

function trade(kind: string, program: string, venue: string, index: number, event: number): Trade {
  return {
    kind,
    program,
    venue,
    index,
    events: [event],
    mint: EMPTY,
    trader: EMPTY,
    baseAmount: 0n,
    quoteAmount: 0n,
    quoteMint: WSOL,
    quote: 'SOL',
    market: EMPTY,
    protocolFee: 0n,
    creatorFee: 0n,
    lpFee: 0n,
    buybackFee: 0n,
    feesKept: false,
    syntheticMigration: false,
    hop: undefined,
    hops: 0,
    feeBucket: '',
  };
}

const bucketName = (b: unknown): string => (b === 0 ? 'protocol' : b === 1 ? 'creator' : String(b));

/** The trades and sweeps of a transaction's decoded instructions and events (in event order). */
export function tradesOf(xs: readonly PumpInstructionAt[], es: readonly PumpEventAt[]): ParsedTrade[] {
  const out: Trade[] = [];
  let routes: Set<number> | undefined;
  for (const x of xs) if (x.program === 'pump_amm' && nameOf(x) === 'multi_hop_swap') (routes ??= new Set()).add(x.index);
  const hopped: Trade[] = [];
  for (let i = 0; i < es.length; i++) {
    const e = es[i]!;
    const d = e.decoded;
    if (d.kind !== 'decoded') continue;
    const f = d.fields;
    const t = tradeOfEvent(e.program, d.name, f, xs, e.index, i, out);
    if (t === undefined) continue;
    out.push(t);
    const traded = t.kind === 'buy' || t.kind === 'sell';
    if (traded && !t.syntheticMigration && (f.ix_name === 'multi_hop_swap' || routes?.has(e.index))) hopped.push(t);
  }
  numberHops(hopped);
  return out;
}

/** The new trade an event starts; undefined when it starts none (or, PostCompleteBuyEvent, completes one in `out`). */
function tradeOfEvent(
  program: string,
  name: string,
  f: Fields,
  xs: readonly PumpInstructionAt[],
  index: number,
  i: number,
  out: Trade[],
): Trade | undefined {
  if (program === 'pump') {
    if (name === 'TradeEvent') return curveTrade(f, xs, index, i);
    if (name === 'PostCompleteBuyEvent') return postCompleteBuy(f, index, i, out);
    if (name === 'SweepBondingCurveFeeEvent') return feeSweep('pump', 'curve', f, 'mint', 'bonding_curve', index, i);
  } else if (program === 'pump_amm') {
    if (name === 'BuyEvent' || name === 'SellEvent') return poolTrade(name === 'BuyEvent', f, xs, index, i);
    if (name === 'SweepPoolFeeEvent') return feeSweep('pump_amm', 'pool', f, 'base_mint', 'pool', index, i);
  }
  return undefined;
}

/** The quote side of a trade: its mint as given (absent: SOL) and the mint's name. */
function setQuote(t: Trade, quoteMint: Parameters<typeof quoteOf>[0]): void {
  const q = quoteOf(quoteMint);
  t.quoteMint = q.quoteMint;
  t.quote = q.quote;
}

/** A pump TradeEvent: one curve trade. */
function curveTrade(f: Fields, xs: readonly PumpInstructionAt[], index: number, i: number): Trade {
  const t = trade(f.is_buy === true ? 'buy' : 'sell', 'pump', 'curve', index, i);
  t.mint = key(f, 'mint') ?? EMPTY;
  t.trader = key(f, 'user') ?? EMPTY;
  t.baseAmount = u64(f, 'token_amount');
  setQuote(t, key(f, 'quote_mint'));
  // quote_amount where the layout has it (equal to sol_amount on SOL coins: real record 23; for other quotes
  // sol_amount's content is not documented, pump-2026-10.md §6); older layouts: sol_amount (lamports).
  t.quoteAmount = Object.hasOwn(f, 'quote_amount') ? u64(f, 'quote_amount') : u64(f, 'sol_amount');
  t.protocolFee = u64(f, 'fee');
  t.creatorFee = u64(f, 'creator_fee');
  t.buybackFee = u64(f, 'buyback_fee');
  t.feesKept = isZero(key(f, 'fee_recipient'));
  t.market = curveOf(xs, index, key(f, 'mint')) ?? EMPTY;
  return t;
}

/**
 * A PostCompleteBuyEvent: the pool part of a synthetic migration. It joins the curve buy of the same coin in the same
 * top-level instruction (the last one), summing its amounts and fees into that ONE trade; a new trade (returned)
 * only when there is none.
 */
function postCompleteBuy(f: Fields, index: number, i: number, out: Trade[]): Trade | undefined {
  const mint = key(f, 'mint');
  let t: Trade | undefined;
  for (let j = out.length - 1; j >= 0 && t === undefined; j--) {
    const c = out[j]!;
    if (c.index === index && c.program === 'pump' && c.kind === 'buy' && c.venue === 'curve' && same(c.mint, mint)) t = c;
  }
  const fresh = t === undefined;
  if (t === undefined) {
    t = trade('buy', 'pump', 'pool', index, i);
    t.mint = mint ?? EMPTY;
    t.trader = key(f, 'user') ?? EMPTY;
    setQuote(t, key(f, 'quote_mint'));
    t.market = key(f, 'bonding_curve') ?? EMPTY;
    t.feesKept = true;
  } else {
    t.events.push(i);
    t.venue = 'curve+pool';
    if (t.market.length === 0) t.market = key(f, 'bonding_curve') ?? EMPTY;
  }
  t.syntheticMigration = true;
  t.baseAmount += u64(f, 'base_out');
  t.quoteAmount += u64(f, 'quote_in');
  t.protocolFee += u64(f, 'fee');
  t.creatorFee += u64(f, 'creator_fee');
  t.buybackFee += u64(f, 'buyback_fee');
  return fresh ? t : undefined;
}

/** A PumpSwap BuyEvent or SellEvent: one pool trade (coin and quote mint from the instruction naming the pool). */
function poolTrade(buy: boolean, f: Fields, xs: readonly PumpInstructionAt[], index: number, i: number): Trade {
  const t = trade(buy ? 'buy' : 'sell', 'pump_amm', 'pool', index, i);
  const pool = key(f, 'pool');
  const [base, quote] = poolMints(xs, index, pool);
  t.mint = base ?? EMPTY;
  t.trader = key(f, 'user') ?? EMPTY;
  t.market = pool ?? EMPTY;
  t.baseAmount = u64(f, buy ? 'base_amount_out' : 'base_amount_in');
  t.quoteAmount = u64(f, buy ? 'quote_amount_in' : 'quote_amount_out');
  setQuote(t, quote);
  t.protocolFee = u64(f, 'protocol_fee');
  t.creatorFee = u64(f, 'coin_creator_fee');
  t.lpFee = u64(f, 'lp_fee');
  t.buybackFee = u64(f, 'buyback_fee');
  t.feesKept = V2_AMM_IX.has(f.ix_name as string) || isZero(key(f, 'protocol_fee_recipient'));
  return t;
}

/** A sweep event (SweepBondingCurveFeeEvent, SweepPoolFeeEvent): the kept fees paid out, income of its recipient. */
function feeSweep(
  program: 'pump' | 'pump_amm',
  venue: 'curve' | 'pool',
  f: Fields,
  mintField: string,
  marketField: string,
  index: number,
  i: number,
): Trade {
  const t = trade('fee_sweep', program, venue, index, i);
  t.mint = key(f, mintField) ?? EMPTY;
  t.trader = key(f, 'recipient') ?? EMPTY;
  t.quoteAmount = u64(f, 'amount');
  setQuote(t, key(f, 'quote_mint'));
  t.market = key(f, marketField) ?? EMPTY;
  t.feeBucket = bucketName(f.bucket);
  return t;
}

/** Hops: numbered per route (top-level instruction) in event order. */
function numberHops(hopped: readonly Trade[]): void {
  if (hopped.length === 0) return;
  const count = new Map<number, number>();
  for (const t of hopped) {
    t.hop = count.get(t.index) ?? 0;
    count.set(t.index, t.hop + 1);
  }
  for (const t of hopped) t.hops = count.get(t.index)!;
}

/** What the request's trade filters read of a trade (schemas/events.proto ParsedTradeFact). */
export function tradeFactOf(t: ParsedTrade): ParsedTradeFact {
  return {
    kind: t.kind,
    mint: t.mint,
    quoteMint: t.quoteMint,
    trader: t.trader,
    baseAmount: t.baseAmount,
    quoteAmount: t.quoteAmount,
    program: t.program,
  };
}

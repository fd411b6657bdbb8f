// How a bonding curve's quote moves (pump-2026-10.md §4). A SOL coin's curve holds native lamports; its wrapped SOL
// accounts are derived and named but never used (TRADE_V3.md). A coin quoted in USDC or in another pump coin holds
// the quote in its `associated_quote_bonding_curve` token account, amounts in the quote mint's base units; the
// curve's state (CurveState's `*SolReserves`, i.e. the IDL's `*_quote_reserves`) is in those units too.
import type { Acct } from '../accounts.js';
import { createTokenAccount, debit, moveTokens, systemTransferData, tokenTransferData } from '../instructions.js';
import { ZERO_KEY } from '../layouts.js';
import { associatedTokenAddress } from '../pda.js';
import type { Coin, SimState, User } from '../state.js';
import type { Step } from '../trace.js';

/** The quote mint a curve's events name: the zero key for SOL (as BondingCurve.quote_mint holds it), else the mint. */
export const quoteMintKey = (coin: Coin): Buffer => coin.quote?.mint.key ?? ZERO_KEY;

/** The quote mint an instruction names: wrapped SOL for SOL coins (TRADE_V3.md), else the mint. */
export const quoteMintAcct = (s: SimState, coin: Coin): Acct => coin.quote?.mint ?? s.nativeMint;

const derived = new WeakMap<Acct, Map<Acct, Acct>>();
/** `owner`'s associated token account for `mint`, derived once (PDA search is the simulator's top cost). */
export function ataFor(s: SimState, owner: Acct, mint: Acct): Acct {
  let byMint = derived.get(owner);
  if (byMint === undefined) derived.set(owner, (byMint = new Map()));
  let a = byMint.get(mint);
  if (a === undefined) byMint.set(mint, (a = s.world.at(associatedTokenAddress(owner.key, mint.key))));
  return a;
}

/** The curve's quote token account: its own for quoted coins, the derived (unused) wrapped SOL one for SOL coins. */
export const curveQuoteAccount = (s: SimState, coin: Coin): Acct => coin.quote?.curveAta ?? ataFor(s, coin.curve, s.nativeMint);

/** The user's quote token account: the ATA for the quote mint (SOL coins: the wrapped SOL account, unused). */
export const userQuoteAccount = (s: SimState, coin: Coin, user: User): Acct =>
  coin.quote ? s.ataOf(user, coin.quote.mint) : s.pumpAccountsOf(user).wsol;

/** The buyback fee recipient a v3 trade names: a buyback wallet (SOL) or its ATA for the quote mint (TRADE_V3.md). */
export const buybackRecipient = (s: SimState, coin: Coin): Acct =>
  coin.quote ? ataFor(s, s.pumpFixed.buybackFeeRecipient, coin.quote.mint) : s.pumpFixed.buybackFeeRecipient;

/** `amount` of quote from `payer` into the curve: lamports (SOL coins), or tokens from `from`, which `payer` owns. */
export function quoteIntoCurve(s: SimState, coin: Coin, payer: Acct, from: Acct, amount: bigint): Step {
  const p = s.programs;
  if (!coin.quote) {
    debit(payer, amount);
    coin.curve.lamports += amount;
    return { program: p.system, accounts: [payer, coin.curve], data: systemTransferData(amount) };
  }
  moveTokens(from, coin.quote.curveAta, amount);
  return { program: p.token, accounts: [from, coin.quote.curveAta, payer], data: tokenTransferData(amount) };
}

/**
 * `amount` of quote out of the curve to `to` (SOL coins: its lamports move without a CPI, the curve being pump's own
 * account) or to its token account `toTokens` (the curve PDA signs the transfer).
 */
export function quoteOutOfCurve(s: SimState, coin: Coin, to: Acct, toTokens: Acct, amount: bigint): Step[] {
  if (!coin.quote) {
    coin.curve.lamports -= amount;
    to.lamports += amount;
    return [];
  }
  moveTokens(coin.quote.curveAta, toTokens, amount);
  return [{ program: s.programs.token, accounts: [coin.quote.curveAta, toTokens, coin.curve], data: tokenTransferData(amount) }];
}

/** A recipient's token account for the quote, created (rent from `payer`) when missing, as the sweeps do (SWEEP_FEES.md). */
export function ensureTokenAccount(payer: Acct, account: Acct, mint: Acct, owner: Acct): void {
  if (!account.exists) createTokenAccount(payer, account, mint, owner);
}

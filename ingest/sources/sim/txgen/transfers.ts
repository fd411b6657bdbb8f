// System transfers (exchange withdrawals, user to user, new accounts), SPL token transfers between
// users (creating the recipient's associated token account when missing), and memo transactions.
import { createAtaIdempotent, memo, systemTransfer, tokenTransfer } from '../instructions.js';
import { tokenAmount } from '../layouts.js';
import { LAMPORTS_PER_SOL, type User } from '../state.js';
import { lamportsBetween, pickUser, withBudget, type GenCtx } from './context.js';

const MIN_SOL = LAMPORTS_PER_SOL / 1000n;

function recipient(ctx: GenCtx, exclude: User, newShare: number): User {
  if (ctx.rng.chance(newShare)) return ctx.s.newUser();
  for (;;) {
    const u = ctx.rng.pick(ctx.s.users);
    if (u !== exclude) return u;
  }
}

export function systemTransferTx(ctx: GenCtx): void {
  const { s, rng, b } = ctx;
  const p = s.programs;
  if (rng.chance(0.3)) {
    // Exchange withdrawal; it favours poorer users so balances stay spread out.
    let to = recipient(ctx, s.exchange, 0.15);
    for (let i = 0; i < 2; i++) {
      const other = rng.pick(s.users);
      if (other.acct.lamports < to.acct.lamports) to = other;
    }
    const amount = lamportsBetween(ctx, LAMPORTS_PER_SOL / 10n, 20n * LAMPORTS_PER_SOL);
    b.submit({ payer: s.exchange.acct, ixs: withBudget(ctx, [systemTransfer(p, s.exchange.acct, to.acct, amount)]) });
    return;
  }
  const from = pickUser(ctx, 2n * MIN_SOL);
  if (!from) return exchangeFallback(ctx);
  const to = recipient(ctx, from, 0.08);
  const spendable = s.spendable(from);
  // Now and then a user sends more than they have: the system program fails it with Custom(1).
  const amount = rng.chance(0.02)
    ? from.acct.lamports + LAMPORTS_PER_SOL
    : lamportsBetween(ctx, MIN_SOL, spendable / 3n > MIN_SOL ? spendable / 3n : MIN_SOL);
  b.submit({ payer: from.acct, ixs: withBudget(ctx, [systemTransfer(p, from.acct, to.acct, amount)], 0.5) });
}

/** When no user with funds was found, the exchange tops one up. */
function exchangeFallback(ctx: GenCtx): void {
  const { s } = ctx;
  const to = ctx.rng.pick(s.users);
  const ix = systemTransfer(s.programs, s.exchange.acct, to.acct, 5n * LAMPORTS_PER_SOL);
  ctx.b.submit({ payer: s.exchange.acct, ixs: [ix] });
}

export function tokenTransferTx(ctx: GenCtx): void {
  const { s, rng, b } = ctx;
  const m = rng.pick(s.stableMints);
  for (let i = 0; i < 8; i++) {
    const from = rng.pick(s.users);
    const src = from.tokens.get(m.mint);
    if (!src?.exists || s.spendable(from) < 3_000_000n) continue;
    const have = tokenAmount(src.data);
    if (have === 0n) continue;
    // Mostly to someone who already holds the token; sometimes a first-time holder.
    let to = recipient(ctx, from, 0.05);
    for (let j = 0; j < 3 && !to.tokens.has(m.mint) && rng.chance(0.8); j++) to = recipient(ctx, from, 0);
    const dst = s.ataOf(to, m.mint);
    const amount = rng.chance(0.03) ? have + 1n : 1n + (have * BigInt(rng.range(1, 50))) / 100n;
    const checked = rng.chance(0.6) ? { mint: m.mint, decimals: m.decimals } : undefined;
    const ixs = [];
    if (!dst.exists || rng.chance(0.1)) ixs.push(createAtaIdempotent(s.programs, from.acct, dst, to.acct, m.mint));
    ixs.push(tokenTransfer(s.programs, src, dst, from.acct, amount, checked));
    b.submit({ payer: from.acct, ixs: withBudget(ctx, ixs), table: rng.chance(0.3) ? s.table : undefined });
    return;
  }
  systemTransferTx(ctx);
}

const MEMO_TEXTS = ['gm', 'thanks for lunch', 'invoice #', 'deposit ', 'order ', 'refund ', 'rent share', '🚀 to the moon'];

export function memoTx(ctx: GenCtx): void {
  const { s, rng, b } = ctx;
  const from = pickUser(ctx, 2n * MIN_SOL);
  if (!from) return exchangeFallback(ctx);
  const text = `${rng.pick(MEMO_TEXTS)}${rng.chance(0.5) ? String(rng.u32()) : ''}`;
  const ixs = [];
  if (rng.chance(0.4)) {
    // A deposit to the exchange, tagged with a memo the exchange uses to credit the account.
    ixs.push(systemTransfer(s.programs, from.acct, s.exchange.acct, MIN_SOL));
  }
  ixs.push(memo(s.programs, text, from.acct));
  b.submit({ payer: from.acct, ixs: withBudget(ctx, ixs, 0.4) });
}

// What a transaction generator sees: the bank and actors, the block being built, the chain PRNG.
import type { BlockBuilder } from '../block.js';
import type { Ix } from '../compile.js';
import { setComputeUnitLimit, setComputeUnitPrice } from '../instructions.js';
import type { PumpMix } from '../pump-mix.js';
import type { Rng } from '../rng.js';
import type { SimState, User } from '../state.js';

export interface GenCtx {
  s: SimState;
  b: BlockBuilder;
  rng: Rng;
  slot: number;
  /** The block this one builds on (votes vote for it). */
  parent: { slot: bigint; blockhash: Buffer };
  /** Shares of the October 2026 pump shapes (options.pumpMix or today's default). */
  mix: PumpMix;
}

const UNIT_PRICES = [1_000n, 10_000n, 50_000n, 200_000n, 1_000_000n, 5_000_000n];

/** Most non-vote traffic sets a compute unit limit and price (priority fee); some does not. */
export function withBudget(ctx: GenCtx, ixs: Ix[], share = 0.75): Ix[] {
  if (!ctx.rng.chance(share)) return ixs;
  const p = ctx.s.programs;
  const limit = ctx.rng.range(20, 400) * 1000;
  return [setComputeUnitLimit(p, limit), setComputeUnitPrice(p, ctx.rng.pick(UNIT_PRICES)), ...ixs];
}

/** A random user able to spend at least `min` lamports (a few tries), or undefined. */
export function pickUser(ctx: GenCtx, min: bigint, exclude?: User): User | undefined {
  for (let i = 0; i < 6; i++) {
    const u = ctx.rng.pick(ctx.s.users);
    if (u !== exclude && ctx.s.spendable(u) >= min) return u;
  }
  return undefined;
}

/** Random lamports in [lo, hi]. */
export function lamportsBetween(ctx: GenCtx, lo: bigint, hi: bigint): bigint {
  if (hi <= lo) return lo;
  const span = hi - lo;
  // 32 bits of randomness spread over the span is plenty for amounts.
  return lo + (span * BigInt(ctx.rng.u32())) / 0xffff_ffffn;
}

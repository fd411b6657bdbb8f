// Where the October 2026 pump shapes take a slot of the chain's traffic (the shares of pump-mix.ts). Each is drawn
// only when its share is set, so a mix without them is the chain it was; a shape with nothing at hand (no fees
// waiting, no quoted coin yet) gives the slot back to the trade or create it replaced.
import type { GenCtx } from './context.js';
import { multiHopTx } from './multi-hop.js';
import { curveSweepTx } from './pump-v3.js';
import { poolSweepTx } from './pumpswap-v2.js';
import { createQuotedTx, usdcTradeTx } from './quoted-coins.js';

/** In place of a pump trade (`buy`, `sell`, `swap` slots): a fee sweep or a multi-hop route. True: sent. */
export function octoberTradeTx(ctx: GenCtx): boolean {
  const { mix, rng } = ctx;
  if (mix.sweep > 0 && rng.chance(mix.sweep)) {
    if (rng.chance(0.5) ? curveSweepTx(ctx) || poolSweepTx(ctx) : poolSweepTx(ctx) || curveSweepTx(ctx)) return true;
  }
  return mix.multiHop > 0 && rng.chance(mix.multiHop) && multiHopTx(ctx);
}

/** In place of a curve trade (pumpfun.ts buyTx / sellTx): a v3 trade of a USDC-quoted coin. True: sent. */
export function usdcInsteadTx(ctx: GenCtx): boolean {
  return ctx.mix.usdcQuote > 0 && ctx.rng.chance(ctx.mix.usdcQuote) && usdcTradeTx(ctx);
}

/** In place of a coin creation: one quoted in USDC or in another pump coin. True: sent. */
export function octoberCreateTx(ctx: GenCtx): boolean {
  const { mix } = ctx;
  if (mix.usdcQuote + mix.coinQuote === 0) return false;
  const r = ctx.rng.float();
  if (r < mix.usdcQuote) return createQuotedTx(ctx, 'usdc');
  return r < mix.usdcQuote + mix.coinQuote && createQuotedTx(ctx, 'coin');
}

// What a method answering from the head cache (api/head/head-cache.ts) sees: the cache, and the views-state shape
// built from it, so a method checks commitments, minContextSlot and heights with the same functions as on its
// views path (method.ts `contextSlot`). A method returns HEAD_MISS when the cache does not hold what its answer
// needs; the dispatch then asks the views as before. Pure.
import bs58 from 'bs58';
import type { HeadCache } from '../head/head-cache.js';
import type { Commitment } from '../solana-json/params.js';
import { COMMITMENTS, type ViewsState } from '../views/state.js';

/** "The cache cannot tell": the views answer. */
export const HEAD_MISS: unique symbol = Symbol('head cache miss');
export type HeadMiss = typeof HEAD_MISS;

export interface HeadContext {
  cache: HeadCache;
  /** The cache's heads and the heights at them, in the views' shape (oldestBlock unknown: left undefined). */
  state: ViewsState;
  apiVersion: string;
}

/** Pure: the views-state shape of the cache's heads; undefined while it has no processed head. */
export function headState(cache: HeadCache): ViewsState | undefined {
  const head = { processed: cache.head('processed'), confirmed: cache.head('confirmed'), finalized: cache.head('finalized') };
  if (head.processed === undefined) return undefined;
  const height: Record<Commitment, bigint | undefined> = { processed: undefined, confirmed: undefined, finalized: undefined };
  for (const c of COMMITMENTS) {
    const slot = head[c];
    if (slot !== undefined) height[c] = cache.blockAtOrBelow(slot)?.meta.blockHeight;
  }
  return { head, height, oldestBlock: undefined };
}

/**
 * Pure: whether the cache may answer at all: it must not trail what the views already show (the live read
 * slower than the projector, say while its process catches up): at every commitment its head is at least theirs.
 */
export function headIsCurrent(cache: ViewsState, views: ViewsState | undefined): boolean {
  if (views === undefined) return true;
  for (const c of COMMITMENTS) {
    const v = views.head[c];
    if (v !== undefined && (cache.head[c] === undefined || cache.head[c]! < v)) return false;
  }
  return true;
}

/** A base-58 value (already checked by the parser) as the cache keys it: its bytes as latin1. */
export const rawKeyOf = (base58: string): string => Buffer.from(bs58.decode(base58)).toString('latin1');

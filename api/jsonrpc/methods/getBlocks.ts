// getBlocks: produced slots in [start, end], both inclusive, ascending, up to the newest slot at the
// commitment (confirmed or finalized). End omitted: up to that newest slot. Agave's order of checks:
// the given end must exceed start (interface.md), then end is clamped to the head, then the range limit.
import { invalidParam, invalidParams, unavailable } from '../../solana-json/errors.js';
import { contextSlot, defineMethod } from '../method.js';
import { HEAD_MISS, type HeadContext } from '../head.js';
import { parseConfig, parseContextConfig, parseU64, positional, type ContextConfig } from '../../solana-json/params.js';
import { u64Json } from '../../solana-json/json.js';
import { queryRows, u64, type QueryClient } from '../../views/query.js';
import type { ViewsState } from '../../views/state.js';

export const MAX_SLOT_RANGE = 500_000n;

export interface GetBlocksParams extends ContextConfig {
  start: bigint;
  end: bigint | undefined;
}

export function parseGetBlocks(params: unknown): GetBlocksParams {
  const p = positional(params, 1, 3);
  const start = parseU64(p[0], 'startSlot');
  let end: bigint | undefined;
  let config: unknown = p[2];
  // Like Agave, the second position is either the end slot or the config object.
  if (p[1] !== null && typeof p[1] === 'object' && !Array.isArray(p[1])) {
    if (p.length > 2) throw invalidParams('endSlot: expected a slot number, got an object (the config goes last)');
    config = p[1];
  } else if (p[1] !== undefined && p[1] !== null) {
    end = parseU64(p[1], 'endSlot');
  }
  const cfg = parseContextConfig(parseConfig(config, 'config'), true);
  if (end !== undefined) {
    if (start >= end) throw invalidParam('Invalid param: startSlot must be less than endSlot');
  }
  return { start, end, ...cfg };
}

const UNAVAILABLE = 'Block information unavailable';

// Skipped slots have no block row. A block whose slot was later marked skipped (status 3, a lost fork) is
// flagged here; the slot_status scan is bounded by the candidates, so a far-back start stays cheap.
// No DISTINCT / LIMIT BY: either stops ClickHouse reading in key order (10x slower on 2M blocks); a slot
// re-delivered before a merge shows up twice and is dropped by blocksInRange instead.
export const BLOCKS_IN_RANGE_SQL = `
WITH candidates AS (
  SELECT slot FROM {db:Identifier}.blocks
  WHERE slot >= {start:UInt64} AND slot <= {end:UInt64}
  ORDER BY slot
  LIMIT {limit:UInt64}
)
SELECT slot, slot IN (
    SELECT slot FROM {db:Identifier}.slot_status
    WHERE slot >= {start:UInt64} AND slot <= (SELECT max(slot) FROM candidates) AND status = 3
  ) AS skipped
FROM candidates
ORDER BY slot`;

/** Produced slots in [start, end], ascending, at most `limit`. */
export async function blocksInRange(ctx: { ch: QueryClient; db: string }, start: bigint, end: bigint, limit: bigint): Promise<bigint[]> {
  const out: bigint[] = [];
  let from = start;
  while (from <= end && BigInt(out.length) < limit) {
    const want = limit - BigInt(out.length);
    const rows = await queryRows<{ slot: string; skipped: number | boolean }>(ctx.ch, BLOCKS_IN_RANGE_SQL, {
      db: ctx.db,
      start: from,
      end,
      limit: want,
    });
    for (const r of rows) {
      const slot = u64(r.slot);
      if (!r.skipped && out[out.length - 1] !== slot) out.push(slot);
    }
    // Fewer candidates than asked: the range is exhausted. Otherwise skipped or repeated ones left a shortfall.
    if (BigInt(rows.length) < want) break;
    from = u64(rows[rows.length - 1]!.slot) + 1n;
  }
  return out;
}

/** getBlocks and getBlocksWithLimit: the newest slot at the commitment, once the views reach back to `start`
 * (a start before the oldest block they hold is unavailable). */
export function blocksHead(state: ViewsState, p: ContextConfig & { start: bigint }): bigint {
  const head = contextSlot({ unavailableMessage: UNAVAILABLE }, state, p.commitment, p.minContextSlot);
  const oldest = state.oldestBlock;
  if (oldest === undefined || p.start < oldest) throw unavailable(UNAVAILABLE);
  return head;
}

/**
 * getBlocks and getBlocksWithLimit on the head cache: the slots of produced, not dead blocks in [start, end] (end
 * already clamped to the cache's head at the commitment), at most `limit`; HEAD_MISS unless the cache holds every
 * block meta from `start` on and `start` is not older than its oldest block (below it only the views know whether
 * the range is cleaned up, -32004, or empty). So a range from a slot the cache holds reaches as far as getSlot, and
 * one past the head (end < start: a poll at the tip) is `[]`, as on the views, with no -32007 while they lag.
 */
export function blocksFromHead(h: HeadContext, start: bigint, end: bigint, limit: bigint): bigint[] | typeof HEAD_MISS {
  const blocks = headHoldsFrom(h, start) ? h.cache.blocksBetween(start - 1n, end) : undefined;
  if (blocks === undefined) return HEAD_MISS;
  return blocks.slice(0, Number(limit < BigInt(blocks.length) ? limit : blocks.length)).map((b) => b.slot);
}

/** Whether the cache may answer a block list from `start`: not before its oldest block (blocksFromHead). */
const headHoldsFrom = (h: HeadContext, start: bigint): boolean => {
  const oldest = h.cache.oldestBlock();
  return oldest !== undefined && start >= oldest.slot;
};

export const getBlocks = defineMethod<GetBlocksParams>({
  name: 'getBlocks',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetBlocks,
  run: async (ctx, p) => {
    const head = blocksHead(ctx.state, p);
    const end = p.end === undefined || p.end > head ? head : p.end;
    if (end < p.start) return [];
    if (end - p.start > MAX_SLOT_RANGE) throw invalidParam('Invalid param: slot range too large');
    return (await blocksInRange(ctx, p.start, end, end - p.start + 1n)).map(u64Json);
  },
  // The same steps on the cache's heads (its -32016 and -32004 are the views' for those heads).
  fromHead: (h, p) => {
    const head = contextSlot({ unavailableMessage: UNAVAILABLE }, h.state, p.commitment, p.minContextSlot);
    const end = p.end === undefined || p.end > head ? head : p.end;
    if (!headHoldsFrom(h, p.start)) return HEAD_MISS;
    if (end - p.start > MAX_SLOT_RANGE) throw invalidParam('Invalid param: slot range too large');
    const slots = blocksFromHead(h, p.start, end, end - p.start + 1n);
    return slots === HEAD_MISS ? HEAD_MISS : slots.map(u64Json);
  },
});

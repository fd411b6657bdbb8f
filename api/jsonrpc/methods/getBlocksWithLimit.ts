// getBlocksWithLimit: at most `limit` produced slots >= start, ascending, up to the newest slot at the
// commitment (confirmed or finalized).
import { invalidParam, invalidParams } from '../../solana-json/errors.js';
import { contextSlot, defineMethod } from '../method.js';
import { HEAD_MISS } from '../head.js';
import { parseConfig, parseContextConfig, parseU64, positional, type ContextConfig } from '../../solana-json/params.js';
import { u64Json } from '../../solana-json/json.js';
import { blocksFromHead, blocksHead, blocksInRange } from './getBlocks.js';

export const MAX_BLOCKS_LIMIT = 500_000n;

export interface GetBlocksWithLimitParams extends ContextConfig {
  start: bigint;
  limit: bigint;
}

export function parseGetBlocksWithLimit(params: unknown): GetBlocksWithLimitParams {
  const p = positional(params, 2, 3);
  const start = parseU64(p[0], 'startSlot');
  const raw = p[1];
  // A number that is not above 0 gets interface.md's own message; anything else is not a limit at all.
  if (typeof raw === 'number' && Number.isFinite(raw) && raw <= 0) throw invalidParam('Invalid param: limit must be positive');
  if (typeof raw !== 'number') throw invalidParams(`limit: expected a positive whole number, got ${raw === null ? 'null' : typeof raw}`);
  const limit = parseU64(raw, 'limit');
  if (limit > MAX_BLOCKS_LIMIT) throw invalidParam('Invalid param: limit too large');
  return { start, limit, ...parseContextConfig(parseConfig(p[2], 'config'), true) };
}

const UNAVAILABLE = 'Block information unavailable';

export const getBlocksWithLimit = defineMethod<GetBlocksWithLimitParams>({
  name: 'getBlocksWithLimit',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetBlocksWithLimit,
  run: async (ctx, p) => {
    const head = blocksHead(ctx.state, p);
    if (p.start > head) return [];
    return (await blocksInRange(ctx, p.start, head, p.limit)).map(u64Json);
  },
  fromHead: (h, p) => {
    const head = contextSlot({ unavailableMessage: UNAVAILABLE }, h.state, p.commitment, p.minContextSlot);
    const slots = blocksFromHead(h, p.start, head, p.limit);
    return slots === HEAD_MISS ? HEAD_MISS : slots.map(u64Json);
  },
});

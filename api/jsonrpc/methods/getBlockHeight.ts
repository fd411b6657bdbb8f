// getBlockHeight: produced blocks since genesis at the commitment (the block_height of the newest block
// at or below the commitment's head). Answered from the cached views state: no query per request.
import { unavailable } from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import { contextSlot, defineMethod } from '../method.js';
import { HEAD_MISS } from '../head.js';
import { parseConfig, parseContextConfig, positional, type ContextConfig } from '../../solana-json/params.js';

export type GetBlockHeightParams = ContextConfig;

export function parseGetBlockHeight(params: unknown): GetBlockHeightParams {
  const [config] = positional(params, 0, 1);
  return parseContextConfig(parseConfig(config, 'config'));
}

const UNAVAILABLE = 'Block height not available';

export const getBlockHeight = defineMethod<GetBlockHeightParams>({
  name: 'getBlockHeight',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetBlockHeight,
  run: async (ctx, p) => {
    contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const height = ctx.state.height[p.commitment];
    if (height === undefined) throw unavailable(UNAVAILABLE);
    return u64Json(height);
  },
  fromHead: (h, p) => {
    const height = h.state.height[p.commitment];
    if (h.state.head[p.commitment] === undefined || height === undefined) return HEAD_MISS;
    contextSlot({ unavailableMessage: UNAVAILABLE }, h.state, p.commitment, p.minContextSlot);
    return u64Json(height);
  },
});

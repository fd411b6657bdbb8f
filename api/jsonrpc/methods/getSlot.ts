// getSlot: the newest slot the views hold at the commitment (Agave's bank slot). From the cached state.
import { u64Json } from '../../solana-json/json.js';
import { contextSlot, defineMethod } from '../method.js';
import { HEAD_MISS } from '../head.js';
import { parseConfig, parseContextConfig, positional, type ContextConfig } from '../../solana-json/params.js';

export type GetSlotParams = ContextConfig;

export function parseGetSlot(params: unknown): GetSlotParams {
  const [config] = positional(params, 0, 1);
  return parseContextConfig(parseConfig(config, 'config'));
}

const UNAVAILABLE = 'Slot information unavailable';

export const getSlot = defineMethod<GetSlotParams>({
  name: 'getSlot',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetSlot,
  run: async (ctx, p) => u64Json(contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot)),
  fromHead: (h, p) =>
    h.state.head[p.commitment] === undefined
      ? HEAD_MISS
      : u64Json(contextSlot({ unavailableMessage: UNAVAILABLE }, h.state, p.commitment, p.minContextSlot)),
});

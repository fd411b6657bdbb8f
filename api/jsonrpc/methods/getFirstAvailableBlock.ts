// getFirstAvailableBlock: the oldest block the views hold (Agave answers 0 when it has none).
import { u64Json } from '../../solana-json/json.js';
import { defineMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';

export const getFirstAvailableBlock = defineMethod<null>({
  name: 'getFirstAvailableBlock',
  unavailableMessage: 'Block information unavailable',
  parse: parseNoParams('getFirstAvailableBlock'),
  run: async (ctx) => u64Json(ctx.state.oldestBlock ?? 0n),
});

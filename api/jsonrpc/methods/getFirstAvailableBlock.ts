// getFirstAvailableBlock: the oldest block the views hold whole (Agave answers 0 when it has none); with a transactions
// retention window, the oldest block stored inside it (api/views/state.ts), so it moves with the window.
import { u64Json } from '../../solana-json/json.js';
import { defineMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';

export const getFirstAvailableBlock = defineMethod<null>({
  name: 'getFirstAvailableBlock',
  unavailableMessage: 'Block information unavailable',
  parse: parseNoParams('getFirstAvailableBlock'),
  run: async (ctx) => u64Json(ctx.state.oldestBlock ?? 0n),
});

// minimumLedgerSlot: the lowest slot the views hold data for. They keep whole blocks only, so that is the
// oldest block, as getFirstAvailableBlock; with none, Agave's -32600 `Invalid request`.
import { invalidRequest } from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import { defineMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';

export const minimumLedgerSlot = defineMethod<null>({
  name: 'minimumLedgerSlot',
  unavailableMessage: 'Block information unavailable',
  parse: parseNoParams('minimumLedgerSlot'),
  run: async (ctx) => {
    if (ctx.state.oldestBlock === undefined) throw invalidRequest();
    return u64Json(ctx.state.oldestBlock);
  },
});

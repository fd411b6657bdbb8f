// getFirstAvailableBlock and minimumLedgerSlot: the oldest block the views hold. The views keep whole
// blocks only, so the lowest slot with data is that block too. Agave answers 0 for the first when it has
// nothing, and -32600 `Invalid request` for the second.
import { invalidRequest } from '../errors.js';
import { u64Json } from '../json.js';
import { defineMethod } from '../method.js';
import { parseNoParams } from '../params.js';

const UNAVAILABLE = 'Block information unavailable';

export const getFirstAvailableBlock = defineMethod<null>({
  name: 'getFirstAvailableBlock',
  unavailableMessage: UNAVAILABLE,
  parse: parseNoParams('getFirstAvailableBlock'),
  run: async (ctx) => u64Json(ctx.state.oldestBlock ?? 0n),
});

export const minimumLedgerSlot = defineMethod<null>({
  name: 'minimumLedgerSlot',
  unavailableMessage: UNAVAILABLE,
  parse: parseNoParams('minimumLedgerSlot'),
  run: async (ctx) => {
    if (ctx.state.oldestBlock === undefined) throw invalidRequest();
    return u64Json(ctx.state.oldestBlock);
  },
});

// getMaxShredInsertSlot and getMaxRetransmitSlot: Agave's highest slot it has received shreds for (and
// retransmitted) through turbine. slotstream receives no shreds; its counterpart is the newest slot its
// source has published, as the api's live Kafka reader sees it (the chain tip of -32007), or the processed
// head of the views before that reader has seen any. Both methods answer the same number.
import { u64Json } from '../../solana-json/json.js';
import { defineMethod, type AnyMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';
import { unavailable } from '../../solana-json/errors.js';

const tipMethod = (name: string): AnyMethod =>
  defineMethod<null>({
    name,
    unavailableMessage: 'Slot information unavailable',
    parse: parseNoParams(name),
    run: async (ctx) => {
      const slot = ctx.chainTip() ?? ctx.state.head.processed;
      if (slot === undefined) throw unavailable('Slot information unavailable');
      return u64Json(slot);
    },
  });

export const getMaxShredInsertSlot = tipMethod('getMaxShredInsertSlot');
export const getMaxRetransmitSlot = tipMethod('getMaxRetransmitSlot');

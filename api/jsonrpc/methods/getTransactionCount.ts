// getTransactionCount: the transactions of the chain up to the commitment's head, as getEpochInfo's
// transactionCount counts them: every block the views hold up to the slot, once per block, lost forks left
// out. Agave's bank counts from genesis; views whose history starts later count from their first block.
import { u64Json } from '../../solana-json/json.js';
import { contextSlot, defineMethod } from '../method.js';
import { parseConfig, parseContextConfig, positional, type ContextConfig } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';
import { TRANSACTION_COUNT_SQL } from './getEpochInfo.js';

export type GetTransactionCountParams = ContextConfig;

export function parseGetTransactionCount(params: unknown): GetTransactionCountParams {
  const [config] = positional(params, 0, 1);
  return parseContextConfig(parseConfig(config, 'config'));
}

const UNAVAILABLE = 'Transaction information unavailable';

export const getTransactionCount = defineMethod<GetTransactionCountParams>({
  name: 'getTransactionCount',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetTransactionCount,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const [row] = await queryRows<{ n: string | number | null }>(ctx.ch, TRANSACTION_COUNT_SQL, { db: ctx.db, slot });
    return u64Json(row?.n === undefined || row.n === null ? 0n : u64(row.n));
  },
});

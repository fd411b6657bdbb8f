// getLatestBlockhash: the blockhash of the newest block at the commitment and the last block height at
// which a transaction using it can land (its height + 150, Agave's MAX_PROCESSING_AGE), in a context.
import { unavailable } from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import bs58 from 'bs58';
import { contextSlot, defineMethod, withContext } from '../method.js';
import { HEAD_MISS } from '../head.js';
import { parseConfig, parseContextConfig, positional, type ContextConfig } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';

/** Blocks a blockhash stays usable for (Agave's MAX_PROCESSING_AGE). */
export const MAX_PROCESSING_AGE = 150n;

export type GetLatestBlockhashParams = ContextConfig;

export function parseGetLatestBlockhash(params: unknown): GetLatestBlockhashParams {
  const [config] = positional(params, 0, 1);
  return parseContextConfig(parseConfig(config, 'config'));
}

const LATEST_SQL = `
SELECT blockhash, block_height FROM {db:Identifier}.blocks
WHERE slot <= {slot:UInt64}
ORDER BY slot DESC
LIMIT 1`;

const UNAVAILABLE = 'Block information unavailable';

export const getLatestBlockhash = defineMethod<GetLatestBlockhashParams>({
  name: 'getLatestBlockhash',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetLatestBlockhash,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const rows = await queryRows<{ blockhash: string; block_height: string }>(ctx.ch, LATEST_SQL, { db: ctx.db, slot });
    if (rows.length === 0) throw unavailable(UNAVAILABLE);
    const value = { blockhash: rows[0]!.blockhash, lastValidBlockHeight: u64Json(u64(rows[0]!.block_height) + MAX_PROCESSING_AGE) };
    return withContext(slot, ctx.apiVersion, value);
  },
  fromHead: (h, p) => {
    if (h.state.head[p.commitment] === undefined) return HEAD_MISS;
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, h.state, p.commitment, p.minContextSlot);
    const b = h.cache.blockAtOrBelow(slot);
    if (b === undefined) return HEAD_MISS;
    const value = { blockhash: bs58.encode(b.meta.blockhash), lastValidBlockHeight: u64Json(b.meta.blockHeight + MAX_PROCESSING_AGE) };
    return withContext(slot, h.apiVersion, value);
  },
});

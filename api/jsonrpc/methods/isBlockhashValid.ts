// isBlockhashValid: whether a transaction using this blockhash could still land at the commitment: the
// hash is of a block on the chain up to the head (not a lost fork) at most 150 blocks below the head's
// height (Agave's is_hash_valid_for_age with MAX_PROCESSING_AGE). Found through the blockhashes index.
import { decodeBase58Exact } from '../../../schemas/decode-input.js';
import { invalidParams } from '../../solana-json/errors.js';
import { contextSlot, defineMethod, withContext } from '../method.js';
import { HEAD_MISS, rawKeyOf } from '../head.js';
import { parseConfig, parseContextConfig, positional, type ContextConfig } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';
import { MAX_PROCESSING_AGE } from './getLatestBlockhash.js';

export interface IsBlockhashValidParams extends ContextConfig {
  blockhash: string;
}

export function parseIsBlockhashValid(params: unknown): IsBlockhashValidParams {
  const p = positional(params, 1, 2);
  if (typeof p[0] !== 'string') throw invalidParams('blockhash: expected a base-58 hash string');
  const d = decodeBase58Exact(p[0], 32);
  if (!d.ok) throw invalidParams(`blockhash: invalid hash: ${d.reason}`);
  return { blockhash: p[0], ...parseContextConfig(parseConfig(p[1], 'config')) };
}

/** The newest block up to `slot` with this blockhash, leaving out slots the views hold as skipped (status 3);
 * getFeeForMessage asks it too. */
export const BLOCKHASH_SQL = `
SELECT slot, block_height FROM {db:Identifier}.blockhashes
WHERE blockhash = {blockhash:String} AND slot <= {slot:UInt64}
  AND slot NOT IN (
    SELECT slot FROM {db:Identifier}.slot_status
    WHERE status = 3 AND slot IN (SELECT slot FROM {db:Identifier}.blockhashes WHERE blockhash = {blockhash:String}))
ORDER BY slot DESC
LIMIT 1`;

const UNAVAILABLE = 'Block information unavailable';
/** Blocks of height a fork below the cache's oldest block may run ahead of it (Agave's lockout depth). */
const FORK_MARGIN = 32n;

export const isBlockhashValid = defineMethod<IsBlockhashValidParams>({
  name: 'isBlockhashValid',
  unavailableMessage: UNAVAILABLE,
  parse: parseIsBlockhashValid,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const height = ctx.state.height[p.commitment];
    const rows = await queryRows<{ slot: string; block_height: string }>(ctx.ch, BLOCKHASH_SQL, {
      db: ctx.db,
      blockhash: p.blockhash,
      slot,
    });
    const valid = height !== undefined && rows.length > 0 && height - u64(rows[0]!.block_height) <= MAX_PROCESSING_AGE;
    return withContext(slot, ctx.apiVersion, valid);
  },
  fromHead: (h, p) => {
    const height = h.state.height[p.commitment];
    if (h.state.head[p.commitment] === undefined || height === undefined) return HEAD_MISS;
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, h.state, p.commitment, p.minContextSlot);
    const at = h.cache.blockhashSlot(rawKeyOf(p.blockhash));
    const b = at === undefined ? undefined : h.cache.block(at);
    if (b !== undefined)
      return withContext(slot, h.apiVersion, b.slot <= slot && !b.dead && height - b.meta.blockHeight <= MAX_PROCESSING_AGE);
    // Not held: invalid when every block young enough to be valid is held (the read from the topics' start, or
    // the oldest held block already too old, by a margin for forks whose heights run ahead of their slots).
    const oldest = h.cache.oldestBlock();
    const allHeld =
      h.cache.metaFloor === 0n || (oldest !== undefined && oldest.meta.blockHeight + MAX_PROCESSING_AGE + FORK_MARGIN < height);
    return allHeld ? withContext(slot, h.apiVersion, false) : HEAD_MISS;
  },
});

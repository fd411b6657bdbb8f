// getBlockTime: a block's Unix time (null when the block has none). Agave's rules: at or below the
// finalized head a produced block answers, an older slot than the views hold is -32001 (cleaned up), a
// slot without a block -32007 (skipped); above it, a block up to the processed head answers and anything
// else is -32004 (not available).
import { blockCleanedUp, blockNotAvailable, slotSkipped } from '../../solana-json/errors.js';
import { defineMethod } from '../method.js';
import { HEAD_MISS } from '../head.js';
import { parseU64, positional } from '../../solana-json/params.js';
import { queryRows } from '../../views/query.js';

export interface GetBlockTimeParams {
  slot: bigint;
}

export function parseGetBlockTime(params: unknown): GetBlockTimeParams {
  const [slot] = positional(params, 1, 1);
  return { slot: parseU64(slot, 'slot') };
}

// The block row of the slot unless the slot was later marked skipped (its fork lost).
const BLOCK_TIME_SQL = `
SELECT block_time FROM {db:Identifier}.blocks
WHERE slot = {slot:UInt64}
  AND slot NOT IN (SELECT slot FROM {db:Identifier}.slot_status WHERE slot = {slot:UInt64} AND status = 3)
LIMIT 1`;

const UNAVAILABLE = 'Block information unavailable';

export const getBlockTime = defineMethod<GetBlockTimeParams>({
  name: 'getBlockTime',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetBlockTime,
  run: async (ctx, p) => {
    const { finalized, processed } = ctx.state.head;
    const rows = await queryRows<{ block_time: string | null }>(ctx.ch, BLOCK_TIME_SQL, { db: ctx.db, slot: p.slot });
    const time = rows.length === 0 ? undefined : rows[0]!.block_time === null ? null : Number(rows[0]!.block_time);
    if (finalized !== undefined && p.slot <= finalized) {
      if (time !== undefined) return time;
      const oldest = ctx.state.oldestBlock;
      if (oldest !== undefined && p.slot < oldest) throw blockCleanedUp(p.slot, oldest);
      throw slotSkipped(p.slot);
    }
    if (time !== undefined && processed !== undefined && p.slot <= processed) return time;
    throw blockNotAvailable(p.slot);
  },
  // The same rules on the held block metas; a slot below them (or a block not held as finalized: the views may
  // have dropped it) is the views'.
  fromHead: (h, p) => {
    const { finalized, processed } = h.state.head;
    if (h.cache.metaFloor === undefined || p.slot < h.cache.metaFloor) return HEAD_MISS;
    const b = h.cache.block(p.slot);
    const time = b === undefined || b.dead ? undefined : b.meta.blockTime === undefined ? null : Number(b.meta.blockTime);
    if (finalized !== undefined && p.slot <= finalized) {
      if (time !== undefined) return time;
      // Skipped, unless older than every block there is (cleaned up, -32001): only the views know their oldest.
      if (!(p.slot > (h.cache.oldestBlock()?.slot ?? p.slot))) return HEAD_MISS;
      throw slotSkipped(p.slot);
    }
    if (time !== undefined && processed !== undefined && p.slot <= processed) return time;
    throw blockNotAvailable(p.slot);
  },
});

// getEpochInfo in Agave's shape: at the commitment's head slot, its epoch (from the epochs view), the
// slot's index in it, the block height (views state) and the transactions of every block the views hold
// up to the slot (Agave counts from genesis; views whose history starts later count from their first block).
import { unavailable } from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import { contextSlot, defineMethod } from '../method.js';
import { parseConfig, parseContextConfig, positional, type ContextConfig } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';
import { epochRowAt, type EpochRow } from './getLeaderSchedule.js';

export type GetEpochInfoParams = ContextConfig;

export function parseGetEpochInfo(params: unknown): GetEpochInfoParams {
  const [config] = positional(params, 0, 1);
  return parseContextConfig(parseConfig(config, 'config'));
}

export interface EpochInfo {
  absoluteSlot: bigint;
  blockHeight: bigint;
  epoch: bigint;
  slotIndex: bigint;
  slotsInEpoch: bigint;
  transactionCount: bigint | null;
}

/** Pure: the answer for `slot` in epoch `e`. */
export function epochInfoOf(
  slot: bigint,
  blockHeight: bigint,
  e: Pick<EpochRow, 'epoch' | 'firstSlot' | 'slotsPerEpoch'>,
  transactionCount: bigint | null,
): EpochInfo {
  return {
    absoluteSlot: slot,
    blockHeight,
    epoch: e.epoch,
    slotIndex: slot - e.firstSlot,
    slotsInEpoch: e.slotsPerEpoch,
    transactionCount,
  };
}

export const epochInfoJson = (i: EpochInfo): Record<string, unknown> => ({
  absoluteSlot: u64Json(i.absoluteSlot),
  blockHeight: u64Json(i.blockHeight),
  epoch: u64Json(i.epoch),
  slotIndex: u64Json(i.slotIndex),
  slotsInEpoch: u64Json(i.slotsInEpoch),
  transactionCount: i.transactionCount === null ? null : u64Json(i.transactionCount),
});

// Block rows are ReplacingMergeTree: one row per slot before summing, whether merged yet or not. Blocks
// of lost forks (status 3) were never on the chain the count describes.
export const TRANSACTION_COUNT_SQL = `
SELECT sum(transaction_count) AS n FROM (
  SELECT transaction_count FROM {db:Identifier}.blocks
  WHERE slot <= {slot:UInt64}
    AND slot NOT IN (SELECT slot FROM {db:Identifier}.slot_status WHERE status = 3 AND slot <= {slot:UInt64})
  LIMIT 1 BY slot
)`;

const UNAVAILABLE = 'Epoch information not available';

export const getEpochInfo = defineMethod<GetEpochInfoParams>({
  name: 'getEpochInfo',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetEpochInfo,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const height = ctx.state.height[p.commitment];
    const epoch = await epochRowAt(ctx.ch, ctx.db, slot);
    if (epoch === undefined || height === undefined) throw unavailable(UNAVAILABLE);
    const [row] = await queryRows<{ n: string | number }>(ctx.ch, TRANSACTION_COUNT_SQL, { db: ctx.db, slot });
    return epochInfoJson(epochInfoOf(slot, height, epoch, row === undefined ? null : u64(row.n)));
  },
});

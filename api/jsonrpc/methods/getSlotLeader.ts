// getSlotLeader: the leader of the slot at the commitment's head (Agave: the bank's collector id). The block
// record names its leader; a head block without one (a source that did not record it) falls back to the
// epochs view's schedule.
import { unavailable } from '../../solana-json/errors.js';
import { contextSlot, defineMethod } from '../method.js';
import { parseConfig, parseContextConfig, positional, type ContextConfig } from '../../solana-json/params.js';
import { queryRows } from '../../views/query.js';
import { slotLeaders } from './slot-leaders.js';

export type GetSlotLeaderParams = ContextConfig;

export function parseGetSlotLeader(params: unknown): GetSlotLeaderParams {
  const [config] = positional(params, 0, 1);
  return parseContextConfig(parseConfig(config, 'config'));
}

const LEADER_SQL = `SELECT leader FROM {db:Identifier}.blocks WHERE slot = {slot:UInt64} AND leader != '' LIMIT 1`;

const UNAVAILABLE = 'Slot information unavailable';

export const getSlotLeader = defineMethod<GetSlotLeaderParams>({
  name: 'getSlotLeader',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetSlotLeader,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const [row] = await queryRows<{ leader: string }>(ctx.ch, LEADER_SQL, { db: ctx.db, slot });
    if (row !== undefined) return row.leader;
    const [scheduled] = await slotLeaders(ctx, slot, 1, slot).catch(() => [undefined]);
    if (scheduled === undefined || scheduled === '') throw unavailable(UNAVAILABLE);
    return scheduled;
  },
});

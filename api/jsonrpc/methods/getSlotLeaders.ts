// getSlotLeaders [startSlot, limit]: the leaders of `limit` slots from startSlot, from the epochs view's
// schedules. Agave: both params required, limit at most 5,000 (`Invalid limit; max 5000`), and a slot whose
// epoch has no known schedule answers `Invalid slot range: leader schedule for epoch N is unavailable`.
import { invalidParam } from '../../solana-json/errors.js';
import { defineMethod } from '../method.js';
import { parseU64, positional } from '../../solana-json/params.js';
import { slotLeaders } from './slot-leaders.js';

/** Agave's MAX_GET_SLOT_LEADERS. */
export const MAX_GET_SLOT_LEADERS = 5000;

export interface GetSlotLeadersParams {
  start: bigint;
  limit: number;
}

export function parseGetSlotLeaders(params: unknown): GetSlotLeadersParams {
  const p = positional(params, 2, 2);
  const start = parseU64(p[0], 'startSlot');
  const limit = parseU64(p[1], 'limit');
  if (limit > BigInt(MAX_GET_SLOT_LEADERS)) throw invalidParam(`Invalid limit; max ${MAX_GET_SLOT_LEADERS}`);
  return { start, limit: Number(limit) };
}

const UNAVAILABLE = 'Schedule information unavailable';

export const getSlotLeaders = defineMethod<GetSlotLeadersParams>({
  name: 'getSlotLeaders',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetSlotLeaders,
  run: async (ctx, p) => {
    const reference = ctx.state.head.finalized;
    if (reference === undefined) throw invalidParam('Invalid slot range: no leader schedule is known yet');
    return slotLeaders(ctx, p.start, p.limit, reference);
  },
});

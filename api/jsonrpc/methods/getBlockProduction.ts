// getBlockProduction [config?]: leader slots and produced blocks per identity over a slot range, at the
// commitment's head. Agave: the range defaults to the head's epoch from its first slot to the head; lastSlot
// defaults to the head; lastSlot < firstSlot, firstSlot older than the slot history, lastSlot past the head
// are -32602 with its messages. The leaders are the epochs view's schedules; a slot counts as produced when
// the views hold its block and it was not marked skipped (a lost fork's block does not count). The slot
// history here is what the views hold: from their oldest block to the head.
import { describeValue } from '../../../platform/describe-value.js';
import { invalidParam, invalidParams, unavailable } from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import { contextSlot, defineMethod, withContext } from '../method.js';
import {
  optionalObject,
  optionalString,
  optionalU64,
  parseCommitment,
  parseConfig,
  parsePubkey,
  parseU64,
  positional,
  type Commitment,
} from '../../solana-json/params.js';
import { queryRows } from '../../views/query.js';
import { epochRowAt } from './getLeaderSchedule.js';
import { epochHolding, leaderSlotCounts } from './slot-leaders.js';

export interface GetBlockProductionParams {
  commitment: Commitment;
  identity: string | undefined;
  range: { firstSlot: bigint; lastSlot: bigint | undefined } | undefined;
}

export function parseGetBlockProduction(params: unknown): GetBlockProductionParams {
  const [config] = positional(params, 0, 1);
  const cfg = parseConfig(config, 'config');
  const identity = optionalString(cfg, 'identity');
  const range = optionalObject(cfg, 'range');
  if (range !== undefined && (range.firstSlot === undefined || range.firstSlot === null)) {
    throw invalidParams(`range.firstSlot: required when range is given, got ${describeValue(range)}`);
  }
  return {
    commitment: parseCommitment(cfg),
    identity: identity === undefined ? undefined : parsePubkey(identity, 'identity'),
    range: range && { firstSlot: parseU64(range.firstSlot, 'range.firstSlot'), lastSlot: optionalU64(range, 'lastSlot') },
  };
}

/** Pure: identity -> [leader slots, blocks produced], optionally for one identity. */
export function tallyProduction(
  leaderSlots: ReadonlyMap<string, number>,
  produced: ReadonlyMap<string, number>,
  identity: string | undefined,
): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const [leader, n] of leaderSlots) {
    if (identity !== undefined && leader !== identity) continue;
    out[leader] = [n, produced.get(leader) ?? 0];
  }
  return out;
}

// Produced blocks of one epoch's part of the range, counted per scheduled leader in SQL (a whole epoch is
// ~400,000 slots: they are not shipped to the api one by one). The schedule comes in as scalar subqueries, so
// ClickHouse indexes one constant array instead of joining a copy of it to every block row.
export const PRODUCED_SQL = `
WITH (SELECT any(schedule) FROM {db:Identifier}.epochs WHERE epoch = {epoch:UInt64}) AS sched,
     (SELECT any(identities) FROM {db:Identifier}.epochs WHERE epoch = {epoch:UInt64}) AS ids
SELECT ids[sched[intDiv(slot - {firstSlot:UInt64}, {perLeader:UInt32}) + 1] + 1] AS leader, count() AS n
FROM (SELECT slot FROM {db:Identifier}.blocks
      WHERE slot >= {first:UInt64} AND slot <= {last:UInt64}
        AND slot NOT IN (SELECT slot FROM {db:Identifier}.slot_status WHERE status = 3 AND slot >= {first:UInt64} AND slot <= {last:UInt64})
      LIMIT 1 BY slot)
GROUP BY leader`;

const UNAVAILABLE = 'Block information unavailable';

export const getBlockProduction = defineMethod<GetBlockProductionParams>({
  name: 'getBlockProduction',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetBlockProduction,
  run: async (ctx, p) => {
    const head = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment);
    const oldest = ctx.state.oldestBlock;
    if (oldest === undefined) throw unavailable(UNAVAILABLE);
    let first: bigint;
    let last: bigint;
    if (p.range === undefined) {
      const epoch = await epochRowAt(ctx.ch, ctx.db, head);
      if (epoch === undefined) throw unavailable(UNAVAILABLE);
      first = epoch.firstSlot;
      last = head;
    } else {
      first = p.range.firstSlot;
      last = p.range.lastSlot ?? head;
      if (last < first) throw invalidParam(`lastSlot, ${last}, cannot be less than firstSlot, ${first}`);
    }
    if (first < oldest) throw invalidParam(`firstSlot, ${first}, is too small; min ${oldest}`);
    if (last > head) throw invalidParam(`lastSlot, ${last}, is too large; max ${head}`);
    const leaderSlots = new Map<string, number>();
    const produced = new Map<string, number>();
    for (let a = first; a <= last;) {
      const e = await epochHolding(ctx, a, head);
      const end = e.firstSlot + e.slotsPerEpoch - 1n;
      const b = end < last ? end : last;
      leaderSlotCounts(e, a, b, leaderSlots);
      const rows = await queryRows<{ leader: string; n: string | number }>(ctx.ch, PRODUCED_SQL, {
        db: ctx.db,
        first: a,
        last: b,
        epoch: e.epoch,
        firstSlot: e.firstSlot,
        perLeader: Math.max(1, e.slotsPerLeader),
      });
      for (const r of rows) produced.set(r.leader, (produced.get(r.leader) ?? 0) + Number(r.n));
      a = b + 1n;
    }
    return withContext(head, ctx.apiVersion, {
      byIdentity: tallyProduction(leaderSlots, produced, p.identity),
      range: { firstSlot: u64Json(first), lastSlot: u64Json(last) },
    });
  },
});

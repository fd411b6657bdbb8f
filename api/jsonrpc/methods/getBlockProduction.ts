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
import { queryRows, u64 } from '../../views/query.js';
import { epochRowAt } from './getLeaderSchedule.js';
import { slotLeaders } from './slot-leaders.js';

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

/** Pure: identity -> [leader slots, blocks produced], in the order leaders first appear. */
export function tallyProduction(
  first: bigint,
  leaders: readonly string[],
  produced: ReadonlySet<bigint>,
  identity: string | undefined,
): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  leaders.forEach((leader, i) => {
    if (leader === '' || (identity !== undefined && leader !== identity)) return;
    const entry = (out[leader] ??= [0, 0]);
    entry[0]++;
    if (produced.has(first + BigInt(i))) entry[1]++;
  });
  return out;
}

export const PRODUCED_SQL = `
SELECT slot FROM {db:Identifier}.blocks
WHERE slot >= {first:UInt64} AND slot <= {last:UInt64}
  AND slot NOT IN (SELECT slot FROM {db:Identifier}.slot_status WHERE status = 3 AND slot >= {first:UInt64} AND slot <= {last:UInt64})
LIMIT 1 BY slot`;

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
    const [leaders, rows] = await Promise.all([
      slotLeaders(ctx, first, Number(last - first) + 1, head),
      queryRows<{ slot: string }>(ctx.ch, PRODUCED_SQL, { db: ctx.db, first, last }),
    ]);
    const produced = new Set(rows.map((r) => u64(r.slot)));
    return withContext(head, ctx.apiVersion, {
      byIdentity: tallyProduction(first, leaders, produced, p.identity),
      range: { firstSlot: u64Json(first), lastSlot: u64Json(last) },
    });
  },
});

// getLeaderSchedule: identity -> slot indices relative to the first slot of the epoch that contains the
// given slot (without one: the epoch of the newest slot at the commitment). The epochs table stores the
// schedule compactly (run i of slots_per_leader slots is led by identities[schedule[i]]); an epoch's
// schedule never changes, so the expanded form is cached.
import { invalidParams } from '../../solana-json/errors.js';
import { contextSlot, defineMethod, withContext } from '../method.js';
import {
  optionalBool,
  optionalString,
  parseConfig,
  parseContextConfig,
  parsePubkey,
  parseU64,
  positional,
  type ContextConfig,
} from '../../solana-json/params.js';
import { queryRows, u64, type QueryClient } from '../../views/query.js';

export interface GetLeaderScheduleParams extends ContextConfig {
  slot: bigint | undefined;
  identity: string | undefined;
  withContext: boolean;
}

export function parseGetLeaderSchedule(params: unknown): GetLeaderScheduleParams {
  const p = positional(params, 0, 2);
  let slot: bigint | undefined;
  let config: unknown = p[1];
  // Like Agave, the first position is a slot, null, or the config object itself.
  if (p[0] !== null && typeof p[0] === 'object' && !Array.isArray(p[0])) {
    if (p[1] !== undefined && p[1] !== null)
      throw invalidParams('slot: expected a slot number or null when a config follows, got an object');
    config = p[0];
  } else if (p[0] !== undefined && p[0] !== null) {
    slot = parseU64(p[0], 'slot');
  }
  const cfg = parseConfig(config, 'config');
  const identity = optionalString(cfg, 'identity');
  return {
    slot,
    identity: identity === undefined ? undefined : parsePubkey(identity, 'identity'),
    withContext: optionalBool(cfg, 'withContext') ?? false,
    ...parseContextConfig(cfg),
  };
}

export interface EpochRow {
  epoch: bigint;
  firstSlot: bigint;
  slotsPerEpoch: bigint;
  slotsPerLeader: number;
  identities: string[];
  schedule: number[];
}

/** Pure: the compact schedule expanded to identity -> ascending relative slot indices. */
export function expandSchedule(e: EpochRow): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const total = Number(e.slotsPerEpoch);
  const run = Math.max(1, e.slotsPerLeader);
  for (let i = 0; i < e.schedule.length; i++) {
    const identity = e.identities[e.schedule[i]!];
    if (identity === undefined) continue;
    let slots = out.get(identity);
    if (slots === undefined) out.set(identity, (slots = []));
    for (let s = i * run; s < Math.min((i + 1) * run, total); s++) slots.push(s);
  }
  return out;
}

export const EPOCH_SQL = `
SELECT epoch, first_slot, slots_per_epoch, slots_per_leader, identities, schedule
FROM {db:Identifier}.epochs
WHERE first_slot <= {slot:UInt64} AND {slot:UInt64} < first_slot + slots_per_epoch
ORDER BY epoch DESC
LIMIT 1`;

interface CachedEpoch {
  row: EpochRow;
  schedule: Map<string, number[]>;
}
// Keyed by database: one process may serve several (tests).
const cache = new Map<string, CachedEpoch[]>();
const CACHE_EPOCHS = 8;

async function epochOf(ch: QueryClient, db: string, slot: bigint): Promise<CachedEpoch | undefined> {
  const known = cache.get(db) ?? [];
  const hit = known.find((c) => c.row.firstSlot <= slot && slot < c.row.firstSlot + c.row.slotsPerEpoch);
  if (hit) return hit;
  const rows = await queryRows<{
    epoch: string;
    first_slot: string;
    slots_per_epoch: string;
    slots_per_leader: number;
    identities: string[];
    schedule: number[];
  }>(ch, EPOCH_SQL, { db, slot });
  if (rows.length === 0) return undefined;
  const r = rows[0]!;
  const row: EpochRow = {
    epoch: u64(r.epoch),
    firstSlot: u64(r.first_slot),
    slotsPerEpoch: u64(r.slots_per_epoch),
    slotsPerLeader: Number(r.slots_per_leader),
    identities: r.identities,
    schedule: r.schedule.map(Number),
  };
  const entry = { row, schedule: expandSchedule(row) };
  cache.set(db, [entry, ...known].slice(0, CACHE_EPOCHS));
  return entry;
}

/** The epoch (as the epochs view holds it) that contains `slot`; shared with getEpochInfo/getEpochSchedule. */
export async function epochRowAt(ch: QueryClient, db: string, slot: bigint): Promise<EpochRow | undefined> {
  return (await epochOf(ch, db, slot))?.row;
}

/** Forgets cached schedules of a database (a rebuilt view). */
export const clearLeaderScheduleCache = (db: string): void => void cache.delete(db);

/** Pure: the answer object, restricted to one identity when asked (`{}` when it leads no slot). */
export function scheduleResult(schedule: Map<string, number[]>, identity: string | undefined): Record<string, number[]> {
  if (identity !== undefined) {
    const slots = schedule.get(identity);
    return slots === undefined ? {} : { [identity]: slots };
  }
  return Object.fromEntries(schedule);
}

const UNAVAILABLE = 'Schedule information unavailable';

export const getLeaderSchedule = defineMethod<GetLeaderScheduleParams>({
  name: 'getLeaderSchedule',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetLeaderSchedule,
  run: async (ctx, p) => {
    const head = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const epoch = await epochOf(ctx.ch, ctx.db, p.slot ?? head);
    const value = epoch === undefined ? null : scheduleResult(epoch.schedule, p.identity);
    return p.withContext ? withContext(head, ctx.apiVersion, value) : value;
  },
});

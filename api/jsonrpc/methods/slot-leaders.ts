// Slot leaders from the epochs view (the leader schedule the source published per epoch), shared by
// getSlotLeader, getSlotLeaders and getBlockProduction. Agave's get_slot_leaders walks the schedules of
// consecutive epochs and fails with its -32602 when one is unknown; so does this.
import { invalidParam } from '../../solana-json/errors.js';
import type { MethodContext } from '../method.js';
import { epochRowAt, type EpochRow } from './getLeaderSchedule.js';

/** Pure: the leader of `slot`, which lies in epoch `e`. */
export function leaderIn(e: EpochRow, slot: bigint): string | undefined {
  const run = BigInt(Math.max(1, e.slotsPerLeader));
  const i = e.schedule[Number((slot - e.firstSlot) / run)];
  return i === undefined ? undefined : e.identities[i];
}

/** Pure: the epoch number `slot` would have in the fixed-length epochs after (or before) `known`. */
export function epochNumberOf(known: EpochRow, slot: bigint): bigint {
  const len = known.slotsPerEpoch;
  const d = slot - known.firstSlot;
  return known.epoch + (d >= 0n ? d / len : -((-d + len - 1n) / len));
}

/**
 * The epoch holding `slot`, or Agave's `Invalid slot range: leader schedule for epoch N is unavailable` (N reckoned
 * from `reference`'s epoch).
 */
export async function epochHolding(ctx: MethodContext, slot: bigint, reference: bigint): Promise<EpochRow> {
  const e = await epochRowAt(ctx.ch, ctx.db, slot);
  if (e !== undefined) return e;
  const known = await epochRowAt(ctx.ch, ctx.db, reference);
  const n = known === undefined ? 'of slot ' + slot : epochNumberOf(known, slot).toString();
  throw invalidParam(`Invalid slot range: leader schedule for epoch ${n} is unavailable`);
}

/** `limit` leaders from `start`, epoch after epoch (epochHolding's error for an epoch without a schedule). */
export async function slotLeaders(ctx: MethodContext, start: bigint, limit: number, reference: bigint): Promise<string[]> {
  const out: string[] = [];
  let slot = start;
  while (out.length < limit) {
    const e = await epochHolding(ctx, slot, reference);
    const end = e.firstSlot + e.slotsPerEpoch;
    for (; slot < end && out.length < limit; slot++) out.push(leaderIn(e, slot) ?? '');
  }
  return out;
}

/** Pure: leader slots per identity within [a, b] (both in epoch `e`), counted per run of slots, not per slot. */
export function leaderSlotCounts(e: EpochRow, a: bigint, b: bigint, into: Map<string, number> = new Map()): Map<string, number> {
  const run = BigInt(Math.max(1, e.slotsPerLeader));
  for (let i = Number((a - e.firstSlot) / run); i <= Number((b - e.firstSlot) / run); i++) {
    const id = e.identities[e.schedule[i] ?? -1];
    if (id === undefined) continue;
    const from = e.firstSlot + BigInt(i) * run;
    const lo = from > a ? from : a;
    const hi = from + run - 1n < b ? from + run - 1n : b;
    if (hi >= lo) into.set(id, (into.get(id) ?? 0) + Number(hi - lo + 1n));
  }
  return into;
}

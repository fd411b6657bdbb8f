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
 * `limit` leaders from `start`, epoch after epoch; a slot of an epoch the view does not hold answers Agave's
 * `Invalid slot range: leader schedule for epoch N is unavailable` (N reckoned from `reference`'s epoch).
 */
export async function slotLeaders(ctx: MethodContext, start: bigint, limit: number, reference: bigint): Promise<string[]> {
  const out: string[] = [];
  let slot = start;
  while (out.length < limit) {
    const e = await epochRowAt(ctx.ch, ctx.db, slot);
    if (e === undefined) {
      const known = await epochRowAt(ctx.ch, ctx.db, reference);
      const n = known === undefined ? 'of slot ' + slot : epochNumberOf(known, slot).toString();
      throw invalidParam(`Invalid slot range: leader schedule for epoch ${n} is unavailable`);
    }
    const end = e.firstSlot + e.slotsPerEpoch;
    for (; slot < end && out.length < limit; slot++) out.push(leaderIn(e, slot) ?? '');
  }
  return out;
}

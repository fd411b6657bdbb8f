// How the api ranks slot statuses (behaviour.md, "Slot statuses"). Only the commitment levels
// processed < confirmed < finalized are ordered. Skipped and dead are terminal: once either is known the
// slot never reaches a level, whatever arrives before or after. Yellowstone's progress statuses and gap
// records take part in nothing: to the gate they are as if they had not arrived. Status numbers are
// never compared directly anywhere else in api/, because the event model numbers DEAD and the progress
// statuses above FINALIZED.
import { SlotStatus } from '../../schemas/codec.js';
import { slotStatusOf, type Commitment } from '../../schemas/commitment.js';

/** A commitment level (processed, confirmed, finalized): the only statuses with an order. */
export function isLevel(status: number | undefined): status is number {
  return (
    status === SlotStatus.SLOT_STATUS_PROCESSED ||
    status === SlotStatus.SLOT_STATUS_CONFIRMED ||
    status === SlotStatus.SLOT_STATUS_FINALIZED
  );
}

/** Skipped or dead: the slot's updates never reach any level. */
export function isTerminal(status: number | undefined): boolean {
  return status === SlotStatus.SLOT_STATUS_SKIPPED || status === SlotStatus.SLOT_STATUS_DEAD;
}

/** A status the commitment state keeps (a level or terminal); progress statuses and gaps are not. */
export function takesPart(status: number | undefined): status is number {
  return isLevel(status) || isTerminal(status);
}

/** True when the slot's known status is at least `level`. */
export function reached(status: number | undefined, level: Commitment): boolean {
  return isLevel(status) && status >= slotStatusOf(level);
}

/**
 * What is known of a slot after seeing both statuses: a terminal status wins over every level (the first
 * terminal one is kept), otherwise the higher level; statuses that take part in nothing are ignored, so
 * the result is undefined when neither takes part.
 */
export function combineStatus(a: number | undefined, b: number | undefined): number | undefined {
  const x = takesPart(a) ? a : undefined;
  const y = takesPart(b) ? b : undefined;
  if (x === undefined) return y;
  if (y === undefined) return x;
  if (isTerminal(x)) return x;
  if (isTerminal(y)) return y;
  return x > y ? x : y;
}

/**
 * The statuses a slot stream sends when `status` arrives for a slot whose status so far is `known` (what
 * combineStatus made of the statuses before it). Yellowstone's block machine sends each commitment level of
 * a slot once and in order, filling in a level the source skipped (its test
 * `block_machine_storage_fills_missing_commitment_levels`; grpc.rs "Missing commitment level gap-filling"):
 * - a level above the known level: the levels between them first, then itself (processed, then finalized:
 *   confirmed, finalized);
 * - a level at or below the known level: nothing (it went out already, or a higher one that implies it did);
 * - nothing known, or a terminal slot: the status alone. A slot first seen at a higher level was processed
 *   before this reader started (or by a source that never says processed): its lower levels are not invented;
 * - terminal, progress and gap statuses: themselves.
 */
export function announcedStatuses(known: number | undefined, status: number): number[] {
  if (!isLevel(status) || !isLevel(known)) return [status];
  const out: number[] = [];
  for (let level = known + 1; level <= status; level++) out.push(level);
  return out;
}

// The one commitment vocabulary of the codebase: a level is a name, as Agave's JSON-RPC spells it. Numbers
// exist only at the proto edges, where the wire has them: stream.proto's and Yellowstone's CommitmentLevel
// enums (PROCESSED = 0, CONFIRMED = 1, FINALIZED = 2 in both) and the event model's SlotStatus (whose first
// three values are the same levels). The edges convert with the functions below and nothing else compares
// a level as a number.
import { SlotStatus } from './gen/events.js';

export type Commitment = 'processed' | 'confirmed' | 'finalized';

/** The levels by name, for call sites that read better as `Commitment.confirmed`; the values are the strings. */
export const Commitment = { processed: 'processed', confirmed: 'confirmed', finalized: 'finalized' } as const satisfies {
  readonly [K in Commitment]: K;
};

/** In order: a slot at a level has reached every level before it. */
export const COMMITMENTS: readonly Commitment[] = ['processed', 'confirmed', 'finalized'];

const SLOT_STATUS = {
  processed: SlotStatus.SLOT_STATUS_PROCESSED,
  confirmed: SlotStatus.SLOT_STATUS_CONFIRMED,
  finalized: SlotStatus.SLOT_STATUS_FINALIZED,
} as const satisfies Record<Commitment, SlotStatus>;

/** The event model's slot status of a level. */
export function slotStatusOf(level: Commitment): SlotStatus {
  return SLOT_STATUS[level];
}

/** The level a slot status is; undefined for statuses that are not levels (skipped, dead, progress, gaps). */
export function commitmentOfSlotStatus(status: number | undefined): Commitment | undefined {
  switch (status) {
    case SlotStatus.SLOT_STATUS_PROCESSED:
      return 'processed';
    case SlotStatus.SLOT_STATUS_CONFIRMED:
      return 'confirmed';
    case SlotStatus.SLOT_STATUS_FINALIZED:
      return 'finalized';
    default:
      return undefined;
  }
}

/**
 * The level of a proto CommitmentLevel number (stream.proto's and Yellowstone's enums number the levels
 * alike); undefined for a number neither enum defines, which each edge rejects with its own message.
 */
export function commitmentOfLevelNumber(level: number): Commitment | undefined {
  return level === 0 ? 'processed' : level === 1 ? 'confirmed' : level === 2 ? 'finalized' : undefined;
}

/** True when `a` is at least as final as `b` (finalized >= confirmed >= processed). */
export function atLeast(a: Commitment, b: Commitment): boolean {
  return COMMITMENTS.indexOf(a) >= COMMITMENTS.indexOf(b);
}

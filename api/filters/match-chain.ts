// Matching the chain's other updates (slot statuses, block meta, entries) against compiled filters.
// These filters carry no keys, so there is nothing to index: the live hub asks only the sessions that
// have such filters. Status numbers are the event model's (schemas/events.proto SlotStatus).
import { SlotStatus } from '../../schemas/gen/events.js';
import type { CompiledSubscription } from './types.js';

/** Statuses between commitment levels (Yellowstone's `interslot_updates`). */
function isProgress(status: number): boolean {
  return (
    status === SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED ||
    status === SlotStatus.SLOT_STATUS_CREATED_BANK ||
    status === SlotStatus.SLOT_STATUS_COMPLETED
  );
}

/**
 * Names of the slot filters a status update passes, sorted. `filter_by_commitment`: only the status equal
 * to the subscription's commitment level. Otherwise every level and dead, plus the progress statuses with
 * `interslot_updates`. Gap records are no slot status: never sent as one.
 */
export function matchSlotStatus(sub: CompiledSubscription, status: number): string[] {
  if (sub.slots.length === 0 || status === SlotStatus.SLOT_STATUS_GAP) return [];
  const names: string[] = [];
  for (const f of sub.slots) {
    if (f.filterByCommitment) {
      if (status === sub.commitment) names.push(f.name);
    } else if (!isProgress(status) || f.interslotUpdates) names.push(f.name);
  }
  return names;
}

/** Names of every blocks_meta filter (they have no options). */
export function matchBlockMeta(sub: CompiledSubscription): string[] {
  return sub.blocksMeta.map((f) => f.name);
}

/** Names of every entry filter (they have no options). */
export function matchEntry(sub: CompiledSubscription): string[] {
  return sub.entry.map((f) => f.name);
}

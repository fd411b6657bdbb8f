// Matching the chain's other updates (slot statuses, block meta, entries) against compiled filters.
// These filters carry no keys, so there is nothing to index: the live hub asks only the sessions that
// have such filters. Status numbers are the event model's (schemas/events.proto SlotStatus).
import { slotStatusOf } from '../../schemas/commitment.js';
import { SlotStatus } from '../../schemas/gen/events.js';
import type { CompiledSubscription } from './types.js';

/** The commitment levels: the only statuses a slot filter sends without `interslot_updates`. */
function isLevel(status: number): boolean {
  return (
    status === SlotStatus.SLOT_STATUS_PROCESSED ||
    status === SlotStatus.SLOT_STATUS_CONFIRMED ||
    status === SlotStatus.SLOT_STATUS_FINALIZED
  );
}

/**
 * Names of the slot filters a status update passes, sorted. Yellowstone's rule (filter.rs FilterSlots):
 * `filter_by_commitment` passes only the status equal to the subscription's commitment level; without
 * `interslot_updates` only the levels pass, with it also dead and the progress statuses (first shred
 * received, created bank, completed). Skipped and gap records are no Yellowstone status: never sent.
 */
export function matchSlotStatus(sub: CompiledSubscription, status: number): string[] {
  if (sub.slots.length === 0 || status === SlotStatus.SLOT_STATUS_GAP || status === SlotStatus.SLOT_STATUS_SKIPPED) return [];
  const level = isLevel(status);
  const names: string[] = [];
  for (const f of sub.slots) {
    if (f.filterByCommitment && status !== slotStatusOf(sub.commitment)) continue;
    if (level || f.interslotUpdates) names.push(f.name);
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

/** Names of every parsed filter: each gets every parsed update (SubscribeParsed filters them itself). */
export function matchParsedUpdates(sub: CompiledSubscription): string[] {
  return sub.parsed.map((f) => f.name);
}

/** Names of every blocks filter: each gets the block (what it holds differs per filter, the transport builds it). */
export function matchBlocks(sub: CompiledSubscription): string[] {
  return sub.blocks.map((f) => f.name);
}

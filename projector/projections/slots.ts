// Slot records: the status of every slot (the highest status wins in slot_status), and the block
// row from the record that carries block meta (the PROCESSED record of a produced block).
//
// slot_status holds what the views need: a commitment level, or 3 for "no block on the rooted chain".
// A dead fork is stored as 3 too (the views' lost-fork marker, which outranks processed), so it drops
// out of the processed head and is never confirmed or finalized; Yellowstone's progress statuses and
// gap records take part in no view (behaviour.md, "Slot statuses") and add no rows.
import { SlotStatus, type SlotEvent } from '../../schemas/codec.js';
import { base58Of, optionalI64, rejected, u64, type Projection } from './result.js';
import type { BlockRow } from './rows.js';

/** The slot_status value each status is stored as; absent: the status adds no row. */
const STORED_STATUS = new Map<number, number>([
  [SlotStatus.SLOT_STATUS_PROCESSED, 0],
  [SlotStatus.SLOT_STATUS_CONFIRMED, 1],
  [SlotStatus.SLOT_STATUS_FINALIZED, 2],
  [SlotStatus.SLOT_STATUS_SKIPPED, 3],
  [SlotStatus.SLOT_STATUS_DEAD, 3],
]);

const NO_ROW_STATUS = new Set<number>([
  SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED,
  SlotStatus.SLOT_STATUS_CREATED_BANK,
  SlotStatus.SLOT_STATUS_COMPLETED,
  SlotStatus.SLOT_STATUS_GAP,
]);

export function projectSlot(e: SlotEvent): Projection {
  const stored = STORED_STATUS.get(e.status);
  if (stored === undefined && !NO_ROW_STATUS.has(e.status)) return rejected(`slot ${e.slot}: unknown status ${e.status}`);
  const slot = u64(e.slot);
  const blocks: BlockRow[] = [];
  const b = e.block;
  if (b !== undefined) {
    if (
      e.status !== SlotStatus.SLOT_STATUS_PROCESSED &&
      e.status !== SlotStatus.SLOT_STATUS_CONFIRMED &&
      e.status !== SlotStatus.SLOT_STATUS_FINALIZED
    ) {
      return rejected(`slot ${e.slot}: a slot with status ${e.status} cannot carry block meta`);
    }
    const blockhash = base58Of(b.blockhash, 32);
    if (blockhash === undefined) return rejected(`slot ${e.slot}: blockhash must be 32 bytes, got ${b.blockhash.length}`);
    // No leader (0 bytes): a yellowstone source without --rpc-url, or whose node failed to name it, publishes
    // blocks so (ingest/sources/yellowstone/leaders.ts); the block is stored with an empty leader, not lost.
    const leader = b.leader.length === 0 ? '' : base58Of(b.leader, 32);
    if (leader === undefined) return rejected(`slot ${e.slot}: leader must be 32 bytes or empty, got ${b.leader.length}`);
    if (b.voteTransactionCount > b.transactionCount) {
      return rejected(`slot ${e.slot}: ${b.voteTransactionCount} vote transactions exceed ${b.transactionCount} transactions`);
    }
    blocks.push({
      slot,
      parent_slot: u64(b.parentSlot),
      blockhash,
      block_height: u64(b.blockHeight),
      block_time: optionalI64(b.blockTime),
      leader,
      transaction_count: b.transactionCount,
      vote_transaction_count: b.voteTransactionCount,
    });
  }
  return { ok: true, rows: { slot_status: stored === undefined ? [] : [{ slot, status: stored }], blocks } };
}

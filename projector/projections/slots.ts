// Slot records: the status of every slot (the highest status wins in slot_status), and the block
// row from the record that carries block meta (the PROCESSED record of a produced block).
import { SlotStatus, type SlotEvent } from '../../schemas/codec.js';
import { base58Of, optionalI64, rejected, u64, type Projection } from './result.js';
import type { BlockRow } from './rows.js';

const KNOWN_STATUS = new Set<number>([
  SlotStatus.SLOT_STATUS_PROCESSED,
  SlotStatus.SLOT_STATUS_CONFIRMED,
  SlotStatus.SLOT_STATUS_FINALIZED,
  SlotStatus.SLOT_STATUS_SKIPPED,
]);

export function projectSlot(e: SlotEvent): Projection {
  if (!KNOWN_STATUS.has(e.status)) return rejected(`slot ${e.slot}: unknown status ${e.status}`);
  const slot = u64(e.slot);
  const blocks: BlockRow[] = [];
  const b = e.block;
  if (b !== undefined) {
    if (e.status === SlotStatus.SLOT_STATUS_SKIPPED) return rejected(`slot ${e.slot}: a skipped slot cannot carry block meta`);
    const blockhash = base58Of(b.blockhash, 32);
    if (blockhash === undefined) return rejected(`slot ${e.slot}: blockhash must be 32 bytes, got ${b.blockhash.length}`);
    const leader = base58Of(b.leader, 32);
    if (leader === undefined) return rejected(`slot ${e.slot}: leader must be 32 bytes, got ${b.leader.length}`);
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
  return { ok: true, rows: { slot_status: [{ slot, status: e.status }], blocks } };
}

// Slot status updates and block meta: Yellowstone's SubscribeUpdateSlot / SubscribeUpdateBlockMeta <->
// the event model's SlotEvent / BlockMeta. Yellowstone has no "skipped" and no gap record; the event
// model numbers its statuses differently (commitment levels first), so statuses map by name.
import { SlotStatus, type BlockMeta, type SlotEvent } from '../gen/events.js';
import { fromB58, toB58, u64, u64Str } from './bytes.js';
import { rewardFromYellowstone, rewardToYellowstone } from './rewards.js';
import { YellowstoneSlotStatus, type SubscribeUpdateBlockMeta, type SubscribeUpdateSlot } from './storage.js';
import { YellowstoneConversionError } from './transaction.js';

const TO_YS = new Map<SlotStatus, YellowstoneSlotStatus>([
  [SlotStatus.SLOT_STATUS_PROCESSED, YellowstoneSlotStatus.SLOT_PROCESSED],
  [SlotStatus.SLOT_STATUS_CONFIRMED, YellowstoneSlotStatus.SLOT_CONFIRMED],
  [SlotStatus.SLOT_STATUS_FINALIZED, YellowstoneSlotStatus.SLOT_FINALIZED],
  [SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED, YellowstoneSlotStatus.SLOT_FIRST_SHRED_RECEIVED],
  [SlotStatus.SLOT_STATUS_COMPLETED, YellowstoneSlotStatus.SLOT_COMPLETED],
  [SlotStatus.SLOT_STATUS_CREATED_BANK, YellowstoneSlotStatus.SLOT_CREATED_BANK],
  [SlotStatus.SLOT_STATUS_DEAD, YellowstoneSlotStatus.SLOT_DEAD],
]);
const FROM_YS = new Map<YellowstoneSlotStatus, SlotStatus>([...TO_YS].map(([a, b]) => [b, a]));

/** The Yellowstone status of an event-model status; undefined for skipped and gap (Yellowstone has none). */
export function slotStatusToYellowstone(s: SlotStatus): YellowstoneSlotStatus | undefined {
  return TO_YS.get(s);
}

export function slotStatusFromYellowstone(s: YellowstoneSlotStatus): SlotStatus {
  const v = FROM_YS.get(s);
  if (v === undefined) throw new YellowstoneConversionError(`unknown Yellowstone slot status ${s}`);
  return v;
}

/** A status update. Block meta arrives separately on Yellowstone; the source joins it to the processed record. */
export function slotFromYellowstone(u: SubscribeUpdateSlot): SlotEvent {
  return {
    slot: BigInt(u.slot),
    status: slotStatusFromYellowstone(u.status),
    block: undefined,
    deadError: u.deadError,
    gap: undefined,
    parent: u.parent === undefined ? undefined : BigInt(u.parent),
  };
}

/** undefined for records Yellowstone cannot express (skipped, gap). */
export function slotToYellowstone(e: SlotEvent): SubscribeUpdateSlot | undefined {
  const status = slotStatusToYellowstone(e.status);
  if (status === undefined) return undefined;
  return { slot: u64Str(e.slot), parent: e.parent === undefined ? undefined : u64Str(e.parent), status, deadError: e.deadError };
}

/** Block meta. Yellowstone does not name the leader or count votes: `leader` is empty and the vote
 * count 0 until the source fills them (from the leader schedule and the block's transactions). */
export function blockMetaFromYellowstone(m: SubscribeUpdateBlockMeta): { slot: bigint; block: BlockMeta } {
  const executed = u64(m.executedTransactionCount);
  return {
    slot: BigInt(m.slot),
    block: {
      parentSlot: u64(m.parentSlot),
      blockhash: fromB58(m.blockhash),
      blockHeight: u64(m.blockHeight?.blockHeight),
      blockTime: m.blockTime === undefined ? undefined : BigInt(m.blockTime.timestamp),
      leader: Buffer.alloc(0),
      transactionCount: Number(executed),
      voteTransactionCount: 0,
      previousBlockhash: fromB58(m.parentBlockhash),
      rewards: (m.rewards?.rewards ?? []).map(rewardFromYellowstone),
      executedTransactionCount: executed,
      entryCount: u64(m.entriesCount),
      numPartitions: m.rewards?.numPartitions === undefined ? undefined : u64(m.rewards.numPartitions.numPartitions),
    },
  };
}

export function blockMetaToYellowstone(slot: bigint, b: BlockMeta): SubscribeUpdateBlockMeta {
  return {
    slot: u64Str(slot),
    blockhash: toB58(b.blockhash),
    rewards: {
      rewards: b.rewards.map(rewardToYellowstone),
      numPartitions: b.numPartitions === undefined ? undefined : { numPartitions: u64Str(b.numPartitions) },
    },
    blockTime: b.blockTime === undefined ? undefined : { timestamp: b.blockTime.toString() },
    // Yellowstone always sends a height; the event model's 0 is genesis or "not recorded" alike.
    blockHeight: { blockHeight: u64Str(b.blockHeight) },
    parentSlot: u64Str(b.parentSlot),
    parentBlockhash: toB58(b.previousBlockhash),
    executedTransactionCount: u64Str(b.executedTransactionCount ?? BigInt(b.transactionCount)),
    entriesCount: u64Str(b.entryCount ?? 0n),
  };
}

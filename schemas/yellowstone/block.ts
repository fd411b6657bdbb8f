// Whole blocks: solana.storage.ConfirmedBlock (Agave's archive format, what getBlock is built from)
// <-> the event model's processed slot record (block meta) plus the block's transactions.
// The slot is not inside a ConfirmedBlock; the caller names it.
import bs58 from 'bs58';
import { RewardType, SlotStatus, type SlotEvent, type TransactionEvent } from '../gen/events.js';
import { fromB58, toB58, u64, u64Str } from './bytes.js';
import { rewardFromYellowstone, rewardToYellowstone } from './rewards.js';
import type { ConfirmedBlock } from './storage.js';
import { transactionFromParts, transactionToParts } from './transaction.js';

export interface BlockEvents {
  slot: SlotEvent;
  transactions: TransactionEvent[];
}

export function blockFromConfirmedBlock(slot: bigint, b: ConfirmedBlock, leader?: Uint8Array): BlockEvents {
  const blockTime = b.blockTime === undefined ? undefined : BigInt(b.blockTime.timestamp);
  const transactions = b.transactions.map((t, index) => transactionFromParts(t.transaction, t.meta, { slot, index, blockTime }));
  const rewards = b.rewards.map(rewardFromYellowstone);
  // The block's fee reward goes to its leader: the best a block alone says about who produced it.
  const feeReward = rewards.find((r) => r.rewardType === RewardType.REWARD_TYPE_FEE);
  return {
    slot: {
      slot,
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: {
        parentSlot: u64(b.parentSlot),
        blockhash: fromB58(b.blockhash),
        blockHeight: u64(b.blockHeight?.blockHeight),
        blockTime,
        leader: Buffer.from(leader ?? feeReward?.pubkey ?? Buffer.alloc(0)),
        transactionCount: transactions.length,
        voteTransactionCount: transactions.filter((t) => t.isVote).length,
        previousBlockhash: fromB58(b.previousBlockhash),
        rewards,
        executedTransactionCount: BigInt(transactions.length),
        entryCount: undefined,
        numPartitions: b.numPartitions === undefined ? undefined : u64(b.numPartitions.numPartitions),
      },
      deadError: undefined,
      gap: undefined,
      parent: undefined,
    },
    transactions,
  };
}

/** Block height 0 is written as absent: old archived blocks have none, and only genesis has height 0. */
export function blockToConfirmedBlock(e: BlockEvents): ConfirmedBlock {
  const b = e.slot.block;
  if (b === undefined) throw new Error(`slot ${e.slot.slot}: no block meta`);
  return {
    previousBlockhash: toB58(b.previousBlockhash),
    blockhash: bs58.encode(b.blockhash),
    parentSlot: u64Str(b.parentSlot),
    transactions: e.transactions.map(transactionToParts),
    rewards: b.rewards.map(rewardToYellowstone),
    blockTime: b.blockTime === undefined ? undefined : { timestamp: b.blockTime.toString() },
    blockHeight: b.blockHeight === 0n ? undefined : { blockHeight: u64Str(b.blockHeight) },
    numPartitions: b.numPartitions === undefined ? undefined : { numPartitions: u64Str(b.numPartitions) },
  };
}

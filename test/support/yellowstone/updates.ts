// Yellowstone updates for the slot assembler's tests: a slot's statuses, block meta, entries and transactions,
// each with the few fields the assembler reads filled in (made-up hashes and keys).
import bs58 from 'bs58';
import { TransactionEvent } from '../../../schemas/codec.js';
import { SubscribeUpdate, transactionToYellowstone, YellowstoneSlotStatus as YS } from '../../../schemas/yellowstone/index.js';

const HASH = bs58.encode(Buffer.alloc(32, 1));

export const status = (slot: number, s: YS, parent?: number): SubscribeUpdate =>
  SubscribeUpdate.fromPartial({ slot: { slot: String(slot), status: s, parent: parent === undefined ? undefined : String(parent) } });
export const meta = (slot: number, txs: number, entries: number): SubscribeUpdate =>
  SubscribeUpdate.fromPartial({
    blockMeta: {
      slot: String(slot),
      blockhash: HASH,
      parentBlockhash: HASH,
      parentSlot: String(slot - 1),
      blockTime: { timestamp: String(1_700_000_000 + slot) },
      blockHeight: { blockHeight: String(slot) },
      executedTransactionCount: String(txs),
      entriesCount: String(entries),
    },
  });
export const entry = (slot: number, index: number): SubscribeUpdate =>
  SubscribeUpdate.fromPartial({
    entry: {
      slot: String(slot),
      index: String(index),
      numHashes: '1',
      hash: Buffer.alloc(32, index),
      executedTransactionCount: '0',
      startingTransactionIndex: '0',
    },
  });
export const tx = (slot: number, index: number, vote = false): SubscribeUpdate => {
  const e = TransactionEvent.fromPartial({
    slot: BigInt(slot),
    index,
    signatures: [Buffer.alloc(64, index + 1)],
    numRequiredSignatures: 1,
    accountKeys: [Buffer.alloc(32, 3)],
    recentBlockhash: Buffer.alloc(32),
    isVote: vote,
    fee: 5000n,
    preBalances: [10_000n],
    postBalances: [5_000n],
  });
  return SubscribeUpdate.fromPartial({ transaction: transactionToYellowstone(e) });
};
export const block = (slot: number, txs: number, entries: number): SubscribeUpdate[] => [
  status(slot, YS.SLOT_CREATED_BANK, slot - 1),
  ...Array.from({ length: entries }, (_, i) => entry(slot, i)),
  ...Array.from({ length: txs }, (_, i) => tx(slot, i)),
  meta(slot, txs, entries),
  status(slot, YS.SLOT_PROCESSED, slot - 1),
];

/** An account write of `slot` (pubkey byte `key`, write version `version`). */
export const account = (slot: number, key: number, version: number): SubscribeUpdate =>
  SubscribeUpdate.fromPartial({
    account: {
      slot: String(slot),
      account: {
        pubkey: Buffer.alloc(32, key),
        owner: Buffer.alloc(32, 9),
        lamports: '1',
        data: Buffer.alloc(0),
        writeVersion: String(version),
        rentEpoch: '0',
      },
    },
  });

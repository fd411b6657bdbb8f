// Whole transactions and block details (003_transaction_bodies.sql, 004_transaction_records.sql) for
// getTransaction and getBlock: the transaction event itself (protobuf bytes, as read from Kafka), keyed by
// (slot, position), with its signature index row; and the parts of a block's meta the blocks view does not
// hold. Pure.
import { BlockMeta, TransactionEvent, type SlotEvent } from '../../schemas/codec.js';
import { base58Key } from '../../schemas/base58.js';
import { encodeMessage } from '../../schemas/proto-writer.js';
import type { BlockDetailRow, TransactionIndexRow, TransactionRecordRow } from './rows.js';

/**
 * The record and index rows of a transaction whose signature (base58) the caller already checked. `raw` is
 * the Kafka record value the event was decoded from: stored as it is (re-encoding cost the projector ~4x its
 * per-transaction time, and the record also keeps fields a newer writer added); without it, the event encoded.
 */
export function transactionBodyRows(
  e: TransactionEvent,
  signature: string,
  raw?: Buffer,
): { body: TransactionRecordRow; index: TransactionIndexRow } {
  const slot = e.slot.toString();
  const record = raw ?? encodeMessage(TransactionEvent, e);
  return {
    body: { slot, position: e.index, signature, record },
    index: { signature, slot, position: e.index },
  };
}

/** The details row of a slot record that carries block meta; none otherwise. */
export function blockDetailRows(e: SlotEvent): BlockDetailRow[] {
  const b = e.block;
  if (b === undefined) return [];
  const rewards = encodeMessage(BlockMeta, BlockMeta.fromPartial({ rewards: b.rewards }));
  return [
    {
      slot: e.slot.toString(),
      previous_blockhash: b.previousBlockhash.length === 32 ? base58Key(b.previousBlockhash) : '',
      rewards: rewards.toString('base64'),
      num_partitions: b.numPartitions === undefined ? null : b.numPartitions.toString(),
    },
  ];
}

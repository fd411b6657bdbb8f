// Whole transactions and block details (003_transaction_bodies.sql) for getTransaction and getBlock:
// the transaction event itself, re-encoded (protobuf, base64), keyed by (slot, position), with its
// signature index row; and the parts of a block's meta the blocks view does not hold. Pure.
import { BlockMeta, TransactionEvent, type SlotEvent } from '../../schemas/codec.js';
import { base58Key } from '../../schemas/base58.js';
import type { BlockDetailRow, TransactionBodyRow, TransactionIndexRow } from './rows.js';

const base64Of = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/**
 * The body and index rows of a transaction whose signature (base58) the caller already checked. `raw` is the
 * Kafka record value the event was decoded from: stored as it is (re-encoding cost the projector ~4x its
 * per-transaction time, and the record also keeps fields a newer writer added); without it, the event encoded.
 */
export function transactionBodyRows(e: TransactionEvent, signature: string, raw?: Buffer): { body: TransactionBodyRow; index: TransactionIndexRow } {
  const slot = e.slot.toString();
  return {
    body: { slot, position: e.index, signature, body: raw !== undefined ? raw.toString('base64') : base64Of(TransactionEvent.encode(e).finish()) },
    index: { signature, slot, position: e.index },
  };
}

/** The details row of a slot record that carries block meta; none otherwise. */
export function blockDetailRows(e: SlotEvent): BlockDetailRow[] {
  const b = e.block;
  if (b === undefined) return [];
  const rewards = BlockMeta.encode(BlockMeta.fromPartial({ rewards: b.rewards })).finish();
  return [{
    slot: e.slot.toString(),
    previous_blockhash: b.previousBlockhash.length === 32 ? base58Key(b.previousBlockhash) : '',
    rewards: base64Of(rewards),
    num_partitions: b.numPartitions === undefined ? null : b.numPartitions.toString(),
  }];
}

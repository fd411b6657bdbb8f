// stream.Stream's wire encoding of outgoing updates, done once per event and shared by every stream it
// matches. A SubscribeUpdate is encoded WITHOUT `filters` once (the "body"); each stream sends
// `prefix + body`, where the prefix (the host's api/grpc/filters-prefix.ts) holds only its own `filters`
// field (field 1, repeated string): a concatenation of encoded fields decodes like a message encoded in
// one go.
import { SubscribeUpdate, type SubscribeUpdateAccount, type SubscribeUpdateTransaction } from '../../../proto/gen/stream.js';
import type { Timestamp } from '../../../proto/gen/google/protobuf/timestamp.js';
import type { AccountEvent, TransactionEvent } from '../../../schemas/gen/events.js';
import { encodeMessage } from '../../../schemas/proto-writer.js';
import { applyDataSlices, type DataSlice } from '../../filters/index.js';
import { accountUpdateOf } from '../../../schemas/account-update.js';

const EMPTY = Buffer.alloc(0);

export function timestampNow(): Timestamp {
  const ms = Date.now();
  return { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 };
}

export function toTransactionUpdate(tx: TransactionEvent): SubscribeUpdateTransaction {
  return {
    slot: tx.slot,
    transaction: {
      signature: tx.signatures[0] ?? EMPTY,
      slot: tx.slot,
      numRequiredSignatures: tx.numRequiredSignatures,
      numReadonlySignedAccounts: tx.numReadonlySignedAccounts,
      numReadonlyUnsignedAccounts: tx.numReadonlyUnsignedAccounts,
      recentBlockhash: tx.recentBlockhash,
      signatures: tx.signatures,
      accountKeys: tx.accountKeys,
      instructions: tx.instructions,
      addressTableLookups: tx.addressTableLookups,
    },
  };
}

export function toAccountUpdate(acc: AccountEvent, slices: readonly DataSlice[]): SubscribeUpdateAccount {
  return accountUpdateOf(acc, applyDataSlices(acc.data, slices));
}

/** SubscribeUpdate body (no filters) of a transaction. */
export function encodeTransactionBody(tx: TransactionEvent, createdAt: Timestamp): Buffer {
  return encodeMessage(SubscribeUpdate, {
    filters: [],
    createdAt,
    updateOneof: { $case: 'transaction', value: toTransactionUpdate(tx) },
  });
}

/** SubscribeUpdate body (no filters) of an account write, data trimmed by `slices`. */
export function encodeAccountBody(acc: AccountEvent, createdAt: Timestamp, slices: readonly DataSlice[]): Buffer {
  return encodeMessage(SubscribeUpdate, {
    filters: [],
    createdAt,
    updateOneof: { $case: 'account', value: toAccountUpdate(acc, slices) },
  });
}

/** A complete server ping update (empty filters). */
export function encodePing(createdAt: Timestamp = timestampNow()): Buffer {
  return encodeMessage(SubscribeUpdate, { filters: [], createdAt, updateOneof: { $case: 'ping', value: {} } });
}

/** A complete pong update answering a client ping (empty filters). */
export function encodePong(id: number, createdAt: Timestamp = timestampNow()): Buffer {
  return encodeMessage(SubscribeUpdate, { filters: [], createdAt, updateOneof: { $case: 'pong', value: { id } } });
}

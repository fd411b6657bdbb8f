// Field numbers of the protobuf messages whose bytes are written or re-framed without a message object (the
// snapshot's account records, stream.Stream's re-framed updates, the `filters` prefix every gRPC service puts before
// a shared body), by their names in the .proto files: schemas/events.proto (the event model) and proto/stream.proto
// (the public stream.Stream contract). proto-fields.unit.test.ts parses both files and fails on any number here that
// differs from theirs, so the writers in schemas/ name fields, and no module outside schemas/ knows a field number.

/** Protobuf wire types. */
export const WIRE = { varint: 0, i64: 1, len: 2, i32: 5 } as const;

/** A field's tag: number and wire type (one byte for fields below 16). */
export const tag = (field: number, wire: number): number => (field << 3) | wire;

/** schemas/events.proto AccountEvent. */
export const ACCOUNT_EVENT = {
  pubkey: 1,
  lamports: 2,
  owner: 3,
  executable: 4,
  rent_epoch: 5,
  data: 6,
  write_version: 7,
  slot: 8,
  txn_signature: 9,
  is_startup: 10,
} as const;

/** schemas/events.proto TransactionEvent (the fields re-framed and scanned). */
export const TRANSACTION_EVENT = {
  slot: 1,
  signatures: 3,
  num_required_signatures: 5,
  num_readonly_signed_accounts: 6,
  num_readonly_unsigned_accounts: 7,
  account_keys: 8,
  recent_blockhash: 9,
  instructions: 10,
  address_table_lookups: 11,
} as const;

/** schemas/events.proto ParsedTransactionEvent (the parsed topic's records, read by the live tail). */
export const PARSED_TRANSACTION_EVENT = {
  slot: 1,
  index: 2,
  signature: 3,
  update: 4,
  failed: 5,
  has_instruction: 6,
  facts: 7,
} as const;

/** proto/stream.proto SubscribeUpdate. */
export const SUBSCRIBE_UPDATE = { filters: 1, created_at: 2, transaction: 3, account: 4 } as const;
/** proto/stream.proto SubscribeUpdateTransaction and SubscribeUpdateAccount. */
export const SUBSCRIBE_UPDATE_TRANSACTION = { transaction: 1, slot: 2 } as const;
export const SUBSCRIBE_UPDATE_ACCOUNT = { account: 1, slot: 2, is_startup: 3 } as const;
/** proto/stream.proto SubscribeUpdateTransactionInfo. */
export const SUBSCRIBE_UPDATE_TRANSACTION_INFO = {
  signature: 1,
  slot: 2,
  num_required_signatures: 3,
  num_readonly_signed_accounts: 4,
  num_readonly_unsigned_accounts: 5,
  recent_blockhash: 6,
  signatures: 7,
  account_keys: 8,
  instructions: 9,
  address_table_lookups: 10,
} as const;
/** proto/stream.proto SubscribeUpdateAccountInfo. */
export const SUBSCRIBE_UPDATE_ACCOUNT_INFO = {
  pubkey: 1,
  lamports: 2,
  owner: 3,
  executable: 4,
  rent_epoch: 5,
  data: 6,
  write_version: 7,
  txn_signature: 8,
} as const;
/** google/protobuf/timestamp.proto Timestamp. */
export const TIMESTAMP = { seconds: 1, nanos: 2 } as const;

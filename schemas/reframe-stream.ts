// stream.Stream update bodies re-framed from the records' own bytes: the event model's transaction and
// account messages hold the same sub-messages (CompiledInstruction, address table lookups) and scalars as
// stream.proto's update messages, under other field numbers. Given the record's field table
// (scan.ts), a body is written by emitting each target field's tag and copying the source value
// bytes: no decode, no object, no re-encode. Fields come out in stream.proto's field order, the same bytes
// ts-proto writes for the decoded event (api/grpc/stream/reframe.unit.test.ts checks it against the encoder).
//
// This runs once per live update (the hot path to every stream): a repeated field's elements, written
// next to each other in the record, are copied in one go with their tag bytes and the tags then set to
// the target's (a copy per element cost ~40 ns each, and a transaction has dozens: keys, instructions), and
// created_at is written in place rather than built apart.
import {
  ACCOUNT_EVENT as A,
  SUBSCRIBE_UPDATE,
  SUBSCRIBE_UPDATE_ACCOUNT,
  SUBSCRIBE_UPDATE_ACCOUNT_INFO as AI,
  SUBSCRIBE_UPDATE_TRANSACTION,
  SUBSCRIBE_UPDATE_TRANSACTION_INFO as TI,
  tag,
  TIMESTAMP,
  TRANSACTION_EVENT as T,
  WIRE,
} from './proto-fields.js';
import type { AccountScan, FieldTable, TransactionScan } from './scan.js';
import { varintSize, writeVarint } from './varint.js';

/** Target tag bytes and source field numbers in target order (every field < 16: one-byte tags on both
 * sides), and which source fields are mapped at all. */
interface Mapping {
  readonly tags: readonly number[];
  readonly sources: readonly number[];
  readonly mapped: Uint8Array;
}

/** `[target field, source field, wire type]` in target order. */
function mapping(pairs: readonly (readonly [target: number, source: number, wire: number])[]): Mapping {
  const mapped = new Uint8Array(16);
  for (const [, source] of pairs) mapped[source] = 1;
  return { tags: pairs.map(([target, , wire]) => tag(target, wire)), sources: pairs.map(([, source]) => source), mapped };
}

const { varint: VARINT, len: LEN } = WIRE;

// SubscribeUpdateTransactionInfo <- TransactionEvent. `signature` (1) is handled apart (first signature only).
const TX_INFO = mapping([
  [TI.slot, T.slot, VARINT],
  [TI.num_required_signatures, T.num_required_signatures, VARINT],
  [TI.num_readonly_signed_accounts, T.num_readonly_signed_accounts, VARINT],
  [TI.num_readonly_unsigned_accounts, T.num_readonly_unsigned_accounts, VARINT],
  [TI.recent_blockhash, T.recent_blockhash, LEN],
  [TI.signatures, T.signatures, LEN],
  [TI.account_keys, T.account_keys, LEN],
  [TI.instructions, T.instructions, LEN],
  [TI.address_table_lookups, T.address_table_lookups, LEN],
]);

// SubscribeUpdateAccountInfo <- AccountEvent: fields 1-7 keep their numbers, txn_signature 9 -> 8.
const ACCOUNT_INFO = mapping([
  [AI.pubkey, A.pubkey, LEN],
  [AI.lamports, A.lamports, VARINT],
  [AI.owner, A.owner, LEN],
  [AI.executable, A.executable, VARINT],
  [AI.rent_epoch, A.rent_epoch, VARINT],
  [AI.data, A.data, LEN],
  [AI.write_version, A.write_version, VARINT],
  [AI.txn_signature, A.txn_signature, LEN],
]);

/** The tags `frame` writes. */
const CREATED_AT = tag(SUBSCRIBE_UPDATE.created_at, LEN);
const SECONDS = tag(TIMESTAMP.seconds, VARINT);
const NANOS = tag(TIMESTAMP.nanos, VARINT);
/** The info sub-message of either oneof member (SubscribeUpdateTransaction.transaction, SubscribeUpdateAccount.account). */
const INFO = tag(SUBSCRIBE_UPDATE_TRANSACTION.transaction, LEN);
const SIGNATURE = tag(TI.signature, LEN);
const UPDATE_SLOT = tag(SUBSCRIBE_UPDATE_TRANSACTION.slot, VARINT);
const TRANSACTION_UPDATE = tag(SUBSCRIBE_UPDATE.transaction, LEN);
const ACCOUNT_UPDATE = tag(SUBSCRIBE_UPDATE.account, LEN);
if (tag(SUBSCRIBE_UPDATE_ACCOUNT.account, LEN) !== INFO || tag(SUBSCRIBE_UPDATE_ACCOUNT.slot, VARINT) !== UPDATE_SLOT) {
  throw new Error('stream.proto: SubscribeUpdateAccount and SubscribeUpdateTransaction no longer share their info and slot fields');
}

function mappedSize(fields: FieldTable, map: Mapping): number {
  let size = 0;
  for (let i = 0; i < fields.length; i += 3) if (map.mapped[fields[i]!] === 1) size += 1 + fields[i + 2]! - fields[i + 1]!;
  return size;
}

/** Writes `tag + value bytes` for every mapped field, in target order. */
function writeMapped(out: Buffer, pos: number, src: Buffer, fields: FieldTable, map: Mapping): number {
  const n = fields.length;
  for (let k = 0; k < map.sources.length; k++) {
    const from = map.sources[k]!;
    const tag = map.tags[k]!;
    for (let i = 0; i < n; i += 3) {
      if (fields[i] !== from) continue;
      // A run: this field and those right after it with the same number, one tag byte apart. Copied from
      // the byte before the first value (its tag's last byte) to the end of the last, then every element's
      // tag byte set: `tag + value` for each, whatever the source tags were.
      let j = i;
      while (j + 3 < n && fields[j + 3] === from && fields[j + 4]! - 1 === fields[j + 2]!) j += 3;
      const start = fields[i + 1]! - 1;
      const end = fields[j + 2]!;
      src.copy(out, pos, start, end);
      for (let q = i; q <= j; q += 3) out[pos + fields[q + 1]! - 1 - start] = tag;
      pos += end - start;
      i = j;
    }
  }
  return pos;
}

/** Value range of the first occurrence of a field, or undefined. */
function first(fields: FieldTable, field: number): [number, number] | undefined {
  for (let i = 0; i < fields.length; i += 3) if (fields[i] === field) return [fields[i + 1]!, fields[i + 2]!];
  return undefined;
}

/**
 * SubscribeUpdate { created_at = 2; <oneof field> = { <info field 1> = info; slot = 2 } }, the info being
 * the first signature as the info's `signature` (transactions) and the mapped fields; `tail` is written after the
 * slot (is_startup).
 */
function frame(
  createdAtMs: number,
  oneofTag: number,
  src: Buffer,
  fields: FieldTable,
  sig: [number, number] | undefined,
  map: Mapping,
  slotRange: [number, number] | undefined,
  tail: Buffer | undefined,
): Buffer {
  const seconds = Math.floor(createdAtMs / 1000);
  const nanos = (createdAtMs % 1000) * 1_000_000;
  const tsSize = (seconds ? 1 + varintSize(seconds) : 0) + (nanos ? 1 + varintSize(nanos) : 0);
  const infoSize = (sig ? 1 + sig[1] - sig[0] : 0) + mappedSize(fields, map);
  const slotSize = slotRange ? 1 + slotRange[1] - slotRange[0] : 0;
  const innerSize = 1 + varintSize(infoSize) + infoSize + slotSize + (tail?.length ?? 0);
  const total = 1 + varintSize(tsSize) + tsSize + 1 + varintSize(innerSize) + innerSize;
  const out = Buffer.allocUnsafe(total);
  let pos = 0;
  out[pos++] = CREATED_AT;
  pos = writeVarint(out, pos, tsSize);
  if (seconds) {
    out[pos++] = SECONDS;
    pos = writeVarint(out, pos, seconds);
  }
  if (nanos) {
    out[pos++] = NANOS;
    pos = writeVarint(out, pos, nanos);
  }
  out[pos++] = oneofTag;
  pos = writeVarint(out, pos, innerSize);
  out[pos++] = INFO;
  pos = writeVarint(out, pos, infoSize);
  if (sig) {
    out[pos++] = SIGNATURE;
    pos += src.copy(out, pos, sig[0], sig[1]);
  }
  pos = writeMapped(out, pos, src, fields, map);
  if (slotRange) {
    out[pos++] = UPDATE_SLOT;
    pos += src.copy(out, pos, slotRange[0], slotRange[1]);
  }
  if (tail) pos += tail.copy(out, pos);
  if (pos !== total) throw new Error(`reframe: wrote ${pos} of ${total} bytes`);
  return out;
}

/** The SubscribeUpdate body (no `filters`) of a scanned transaction record. */
export function reframeTransaction(s: TransactionScan, createdAtMs: number): Buffer {
  return frame(
    createdAtMs,
    TRANSACTION_UPDATE,
    s.bytes,
    s.fields,
    first(s.fields, T.signatures),
    TX_INFO,
    first(s.fields, T.slot),
    undefined,
  );
}

const STARTUP = Buffer.from([tag(SUBSCRIBE_UPDATE_ACCOUNT.is_startup, VARINT), 1]); // is_startup = true

/** The SubscribeUpdate body (no `filters`) of a scanned account record with its full data. */
export function reframeAccount(s: AccountScan, createdAtMs: number): Buffer {
  const startup = first(s.fields, A.is_startup);
  const tail = startup && s.bytes[startup[0]] !== 0 ? STARTUP : undefined;
  return frame(createdAtMs, ACCOUNT_UPDATE, s.bytes, s.fields, undefined, ACCOUNT_INFO, first(s.fields, A.slot), tail);
}

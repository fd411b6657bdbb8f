// stream.Stream update bodies re-framed from the records' own bytes: the event model's transaction and
// account messages hold the same sub-messages (CompiledInstruction, address table lookups) and scalars as
// stream.proto's update messages, under other field numbers. Given the record's field table
// (schemas/scan.ts), a body is written by emitting each target field's tag and copying the source value
// bytes: no decode, no object, no re-encode. Fields come out in stream.proto's field order, the same bytes
// ts-proto writes for the decoded event (unit-tested against encode.ts).
import type { AccountScan, FieldTable, TransactionScan } from '../../schemas/scan.js';

function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

function writeVarint(out: Buffer, pos: number, n: number): number {
  while (n >= 0x80) {
    out[pos++] = (n % 128) | 0x80;
    n = Math.floor(n / 128);
  }
  out[pos++] = n;
  return pos;
}

/** (target tag byte, source field number) in target order; every target tag fits one byte (field < 16). */
type Mapping = readonly (readonly [tag: number, source: number])[];

// SubscribeUpdateTransactionInfo <- TransactionEvent. `signature` (1) is handled apart (first signature only).
const TX_INFO: Mapping = [
  [0x10, 1], // slot (varint)
  [0x18, 5], // num_required_signatures
  [0x20, 6], // num_readonly_signed_accounts
  [0x28, 7], // num_readonly_unsigned_accounts
  [0x32, 9], // recent_blockhash
  [0x3a, 3], // signatures
  [0x42, 8], // account_keys
  [0x4a, 10], // instructions
  [0x52, 11], // address_table_lookups
];

// SubscribeUpdateAccountInfo <- AccountEvent: fields 1-7 keep their numbers, txn_signature 9 -> 8.
const ACCOUNT_INFO: Mapping = [
  [0x0a, 1],
  [0x10, 2],
  [0x1a, 3],
  [0x20, 4],
  [0x28, 5],
  [0x32, 6],
  [0x38, 7],
  [0x42, 9],
];

function mappedSize(fields: FieldTable, map: Mapping): number {
  let size = 0;
  for (const [, src] of map) for (let i = 0; i < fields.length; i += 3) if (fields[i] === src) size += 1 + fields[i + 2]! - fields[i + 1]!;
  return size;
}

function writeMapped(out: Buffer, pos: number, src: Buffer, fields: FieldTable, map: Mapping): number {
  for (const [tag, from] of map) {
    for (let i = 0; i < fields.length; i += 3) {
      if (fields[i] !== from) continue;
      out[pos++] = tag;
      pos += src.copy(out, pos, fields[i + 1]!, fields[i + 2]!);
    }
  }
  return pos;
}

/** Value range of the first occurrence of a field, or undefined. */
function first(fields: FieldTable, field: number): [number, number] | undefined {
  for (let i = 0; i < fields.length; i += 3) if (fields[i] === field) return [fields[i + 1]!, fields[i + 2]!];
  return undefined;
}

interface Framing {
  /** created_at Timestamp bytes. */
  readonly ts: Buffer;
}

function timestampBytes(ms: number): Buffer {
  const seconds = Math.floor(ms / 1000);
  const nanos = (ms % 1000) * 1_000_000;
  const size = (seconds ? 1 + varintSize(seconds) : 0) + (nanos ? 1 + varintSize(nanos) : 0);
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  if (seconds) {
    out[pos++] = 0x08;
    pos = writeVarint(out, pos, seconds);
  }
  if (nanos) {
    out[pos++] = 0x10;
    writeVarint(out, pos, nanos);
  }
  return out;
}

/**
 * SubscribeUpdate { created_at = 2; <oneof field> = { <info field 1> = info; slot = 2 } } around an info
 * message of `infoSize` bytes written by `writeInfo`; `tail` is written after the slot (is_startup).
 */
function frame(f: Framing, oneofTag: number, infoSize: number, slotRange: [number, number] | undefined, src: Buffer, tail: Buffer | undefined, writeInfo: (out: Buffer, pos: number) => number): Buffer {
  const slotSize = slotRange ? 1 + slotRange[1] - slotRange[0] : 0;
  const innerSize = 1 + varintSize(infoSize) + infoSize + slotSize + (tail?.length ?? 0);
  const total = 1 + varintSize(f.ts.length) + f.ts.length + 1 + varintSize(innerSize) + innerSize;
  const out = Buffer.allocUnsafe(total);
  let pos = 0;
  out[pos++] = 0x12; // created_at
  pos = writeVarint(out, pos, f.ts.length);
  pos += f.ts.copy(out, pos);
  out[pos++] = oneofTag;
  pos = writeVarint(out, pos, innerSize);
  out[pos++] = 0x0a; // transaction / account info
  pos = writeVarint(out, pos, infoSize);
  pos = writeInfo(out, pos);
  if (slotRange) {
    out[pos++] = 0x10;
    pos += src.copy(out, pos, slotRange[0], slotRange[1]);
  }
  if (tail) pos += tail.copy(out, pos);
  if (pos !== total) throw new Error(`reframe: wrote ${pos} of ${total} bytes`);
  return out;
}

/** The SubscribeUpdate body (no `filters`) of a scanned transaction record. */
export function reframeTransaction(s: TransactionScan, createdAtMs: number): Buffer {
  const sig = first(s.fields, 3);
  const infoSize = (sig ? 1 + sig[1] - sig[0] : 0) + mappedSize(s.fields, TX_INFO);
  return frame({ ts: timestampBytes(createdAtMs) }, 0x1a, infoSize, first(s.fields, 1), s.bytes, undefined, (out, pos) => {
    if (sig) {
      out[pos++] = 0x0a;
      pos += s.bytes.copy(out, pos, sig[0], sig[1]);
    }
    return writeMapped(out, pos, s.bytes, s.fields, TX_INFO);
  });
}

const STARTUP = Buffer.from([0x18, 0x01]); // is_startup = true

/** The SubscribeUpdate body (no `filters`) of a scanned account record with its full data. */
export function reframeAccount(s: AccountScan, createdAtMs: number): Buffer {
  const startup = first(s.fields, 10);
  const tail = startup && s.bytes[startup[0]] !== 0 ? STARTUP : undefined;
  return frame({ ts: timestampBytes(createdAtMs) }, 0x22, mappedSize(s.fields, ACCOUNT_INFO), first(s.fields, 8), s.bytes, tail, (out, pos) =>
    writeMapped(out, pos, s.bytes, s.fields, ACCOUNT_INFO),
  );
}

// A one-pass wire scan of transaction and account records: where each top-level field sits, and the few
// values a live matcher needs (slot, keys, vote flag, error presence), without decoding the rest. The api's
// live layer reads every record; a full decode of a transaction with its meta (logs, balances, inner
// instructions) costs several times what matching it and re-framing its bytes for a client cost, so the hot
// path scans and decodes fully only when an adapter asks for the event object. Throws on malformed input
// (the caller counts it as undecodable, like a failed decode).

import type { ParsedTransactionEvent } from './gen/events.js';
import { PARSED_TRANSACTION_EVENT } from './proto-fields.js';

/** Top-level fields as (field number, value start, value end) triples; for length-delimited fields the value
 * range includes the length prefix, so a field can be re-tagged by writing a new tag and copying the range. */
export type FieldTable = readonly number[];

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

function readVarint32(b: Buffer, pos: number): [value: number, next: number] {
  let v = 0;
  let shift = 0;
  for (;;) {
    if (pos >= b.length) throw new Error('truncated varint');
    const byte = b[pos++]!;
    if (shift < 28) v |= (byte & 0x7f) << shift;
    else if (shift < 32) v += (byte & 0x7f) * 2 ** shift; // lengths past 2^28 are not expected; stay exact
    if ((byte & 0x80) === 0) return [v >>> 0, pos];
    shift += 7;
    if (shift > 63) throw new Error('varint too long');
  }
}

/** Reads a uint64 varint as bigint. */
export function readVarint64(b: Buffer, pos: number, end: number): bigint {
  let lo = 0;
  let hi = 0;
  let shift = 0;
  while (pos < end) {
    const byte = b[pos++]!;
    if (shift < 28) lo |= (byte & 0x7f) << shift;
    else if (shift === 28) {
      lo |= (byte & 0x0f) << 28;
      hi |= (byte & 0x7f) >> 4;
    } else hi |= (byte & 0x7f) << (shift - 32);
    if ((byte & 0x80) === 0) return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
    shift += 7;
  }
  throw new Error('truncated varint');
}

/** Scans the top-level fields of one message. */
export function scanFields(b: Buffer): FieldTable {
  // A plain array of small integers: it lives on V8's heap; a typed array this size would be allocated
  // off-heap per record, which cost the live tail a measurable share of its time in garbage collection.
  const out: number[] = [];
  let pos = 0;
  while (pos < b.length) {
    let tag = b[pos]!;
    let p1 = pos + 1;
    if (tag >= 0x80) [tag, p1] = readVarint32(b, pos);
    const field = tag >>> 3;
    if (field === 0) throw new Error('field number 0');
    let end: number;
    switch (tag & 7) {
      case WIRE_VARINT: {
        end = p1;
        while (end < b.length && (b[end]! & 0x80) !== 0) end++;
        end++;
        break;
      }
      case WIRE_I64:
        end = p1 + 8;
        break;
      case WIRE_LEN: {
        let len = b[p1]!;
        let p2 = p1 + 1;
        if (len >= 0x80) [len, p2] = readVarint32(b, p1);
        end = p2 + len;
        break;
      }
      case WIRE_I32:
        end = p1 + 4;
        break;
      default:
        throw new Error(`unsupported wire type ${tag & 7}`);
    }
    if (end > b.length || p1 > b.length) throw new Error('truncated field');
    out.push(field, p1, end);
    pos = end;
  }
  return out;
}

/** The payload of a length-delimited field whose value range is [start, end). */
export function payload(b: Buffer, start: number, end: number): Buffer {
  const [, p] = readVarint32(b, start);
  return b.subarray(p, end);
}

/** What matching a transaction needs, scanned from its record (schemas/events.proto TransactionEvent).
 * Key lists are cut out of `bytes` on first use (matching often needs none of them). */
export interface TransactionScan {
  readonly bytes: Buffer;
  readonly fields: FieldTable;
  readonly slot: bigint;
  /** Subarrays of `bytes`. */
  readonly signatures: readonly Buffer[];
  readonly accountKeys: readonly Buffer[];
  readonly loadedWritable: readonly Buffer[];
  readonly loadedReadonly: readonly Buffer[];
  readonly isVote: boolean;
  /** `err` present. */
  readonly failed: boolean;
}

/** Every payload of one repeated length-delimited field. */
function payloads(bytes: Buffer, fields: FieldTable, field: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < fields.length; i += 3) if (fields[i] === field) out.push(payload(bytes, fields[i + 1]!, fields[i + 2]!));
  return out;
}

class ScannedTransaction implements TransactionScan {
  private sigs: Buffer[] | undefined;
  private keys: Buffer[] | undefined;
  private writable: Buffer[] | undefined;
  private readonly_: Buffer[] | undefined;

  constructor(
    readonly bytes: Buffer,
    readonly fields: FieldTable,
    readonly slot: bigint,
    readonly isVote: boolean,
    readonly failed: boolean,
  ) {}

  get signatures(): readonly Buffer[] {
    return (this.sigs ??= payloads(this.bytes, this.fields, 3));
  }
  get accountKeys(): readonly Buffer[] {
    return (this.keys ??= payloads(this.bytes, this.fields, 8));
  }
  get loadedWritable(): readonly Buffer[] {
    return (this.writable ??= payloads(this.bytes, this.fields, 12));
  }
  get loadedReadonly(): readonly Buffer[] {
    return (this.readonly_ ??= payloads(this.bytes, this.fields, 13));
  }
}

export function scanTransaction(bytes: Buffer): TransactionScan {
  const fields = scanFields(bytes);
  let slot = 0n;
  let isVote = false;
  let failed = false;
  for (let i = 0; i < fields.length; i += 3) {
    const f = fields[i]!;
    if (f === 1) slot = readVarint64(bytes, fields[i + 1]!, fields[i + 2]!);
    else if (f === 14) isVote = bytes[fields[i + 1]!] !== 0;
    else if (f === 15) failed = true;
  }
  return new ScannedTransaction(bytes, fields, slot, isVote, failed);
}

/** What matching an account write needs, scanned from its record (schemas/events.proto AccountEvent). */
export interface AccountScan {
  readonly bytes: Buffer;
  readonly fields: FieldTable;
  readonly slot: bigint;
  readonly pubkey: Buffer;
  readonly owner: Buffer;
  readonly lamports: bigint;
  readonly data: Buffer;
  readonly writeVersion: bigint;
  readonly txnSignature: Buffer | undefined;
}

const EMPTY: Buffer = Buffer.alloc(0);

export function scanAccount(bytes: Buffer): AccountScan {
  const fields = scanFields(bytes);
  let slot = 0n;
  let lamports = 0n;
  let pubkey = EMPTY;
  let owner = EMPTY;
  let data = EMPTY;
  let writeVersion = 0n;
  let txnSignature: Buffer | undefined;
  for (let i = 0; i < fields.length; i += 3) {
    const f = fields[i]!;
    const s = fields[i + 1]!;
    const e = fields[i + 2]!;
    switch (f) {
      case 1:
        pubkey = payload(bytes, s, e);
        break;
      case 2:
        lamports = readVarint64(bytes, s, e);
        break;
      case 3:
        owner = payload(bytes, s, e);
        break;
      case 6:
        data = payload(bytes, s, e);
        break;
      case 7:
        writeVersion = readVarint64(bytes, s, e);
        break;
      case 8:
        slot = readVarint64(bytes, s, e);
        break;
      case 9:
        txnSignature = payload(bytes, s, e);
        break;
    }
  }
  return { bytes, fields, slot, pubkey, owner, lamports, data, writeVersion, txnSignature };
}

/** One instruction as instruction filters need it: which account is its program, and its data. */
export interface ScannedInstruction {
  /** Index into static keys, then loaded writable, then loaded readonly addresses. */
  readonly programIdIndex: number;
  /** A subarray of the record. */
  readonly data: Buffer;
}

/**
 * program_id_index (1) and data (3) of the CompiledInstruction or InnerInstruction in b[start, end) (its length
 * prefix already skipped); other fields skipped. Reads in place: the only allocation is the data's subarray.
 */
function instructionAt(b: Buffer, start: number, end: number): ScannedInstruction {
  let programIdIndex = 0;
  let dataStart = start;
  let dataEnd = start;
  let pos = start;
  while (pos < end) {
    // Tags, indexes and short lengths are one byte: read those without the general varint reader's tuple.
    let tag = b[pos]!;
    if (tag < 0x80) pos++;
    else [tag, pos] = readVarint32(b, pos);
    const wire = tag & 7;
    if (wire === WIRE_VARINT) {
      let v = b[pos]!;
      if (v < 0x80) pos++;
      else [v, pos] = readVarint32(b, pos);
      if (tag >>> 3 === 1) programIdIndex = v;
    } else if (wire === WIRE_LEN) {
      let len = b[pos]!;
      if (len < 0x80) pos++;
      else [len, pos] = readVarint32(b, pos);
      if (tag >>> 3 === 3) {
        dataStart = pos;
        dataEnd = pos + len;
      }
      pos += len;
    } else if (wire === WIRE_I64) pos += 8;
    else if (wire === WIRE_I32) pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
  if (pos > end) throw new Error('truncated instruction');
  return { programIdIndex, data: b.subarray(dataStart, dataEnd) };
}

/** Calls `each(start, end)` with the payload range (length prefix skipped) of every `field` in b[start, end). */
function eachPayload(b: Buffer, start: number, end: number, field: number, each: (start: number, end: number) => void): void {
  let pos = start;
  while (pos < end) {
    let tag: number;
    [tag, pos] = readVarint32(b, pos);
    const wire = tag & 7;
    if (wire === WIRE_LEN) {
      let len: number;
      [len, pos] = readVarint32(b, pos);
      if (pos + len > end) throw new Error('truncated field');
      if (tag >>> 3 === field) each(pos, pos + len);
      pos += len;
    } else if (wire === WIRE_VARINT) pos = readVarint32(b, pos)[1];
    else if (wire === WIRE_I64) pos += 8;
    else if (wire === WIRE_I32) pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

/** The encoded TokenBalance records of a scanned transaction's meta: pre (field 21) and post (field 22). Read on
 * demand: only `token_accounts` filters ask. */
export function scanTokenBalances(s: TransactionScan): { pre: Buffer[]; post: Buffer[] } {
  return { pre: payloads(s.bytes, s.fields, 21), post: payloads(s.bytes, s.fields, 22) };
}

/**
 * The top-level instructions (field 10) of a scanned transaction, read from its bytes on demand: only instruction
 * filters ask, so the live tail pays nothing for them unless some subscription has one. Throws on a malformed
 * nested message, like the scan itself.
 */
export function scanInstructions(s: TransactionScan): ScannedInstruction[] {
  const out: ScannedInstruction[] = [];
  const { bytes, fields } = s;
  for (let i = 0; i < fields.length; i += 3) {
    if (fields[i] !== 10) continue;
    const [, p] = readVarint32(bytes, fields[i + 1]!);
    out.push(instructionAt(bytes, p, fields[i + 2]!));
  }
  return out;
}

/** Every inner (CPI) instruction of the meta (field 23, InnerInstructions.instructions), in record order. */
export function scanInnerInstructions(s: TransactionScan): ScannedInstruction[] {
  const out: ScannedInstruction[] = [];
  const { bytes, fields } = s;
  for (let i = 0; i < fields.length; i += 3) {
    if (fields[i] !== 23) continue;
    const [, p] = readVarint32(bytes, fields[i + 1]!);
    eachPayload(bytes, p, fields[i + 2]!, 2, (start, end) => out.push(instructionAt(bytes, start, end)));
  }
  return out;
}

const P = PARSED_TRANSACTION_EVENT;
const WIRE_END_GROUP = 4;

/**
 * A parsed record (schemas/events.proto ParsedTransactionEvent) read in one pass: the values the generated decoder
 * gives (absent fields their defaults, the last occurrence winning, unknown fields and known ones of the wrong wire
 * type skipped: hence its own loop, not scanFields, which drops the wire type), but its bytes fields are subarrays of
 * the record, not copies (groups, never written, are refused). The live tail reads one record per pump transaction
 * and only hands the update and facts on: 1.5-1.7 -> 0.34-0.37 µs a record in isolation. Throws on malformed input,
 * as the decoder does.
 */
export function scanParsedRecord(b: Buffer): ParsedTransactionEvent {
  const m: ParsedTransactionEvent = {
    slot: 0n,
    index: 0,
    signature: EMPTY,
    update: EMPTY,
    failed: false,
    hasInstruction: false,
    facts: EMPTY,
  };
  let pos = 0;
  while (pos < b.length) {
    let tag = b[pos]!;
    if (tag < 0x80) pos++;
    else [tag, pos] = readVarint32(b, pos);
    const wire = tag & 7;
    // Where the generated decoder stops reading (a zero tag, an end-group tag), so does this.
    if (tag === 0 || wire === WIRE_END_GROUP) break;
    const field = tag >>> 3;
    if (wire === WIRE_LEN) {
      let len: number;
      [len, pos] = readVarint32(b, pos);
      const end = pos + len;
      if (end > b.length) throw new Error('truncated field');
      if (field === P.signature) m.signature = b.subarray(pos, end);
      else if (field === P.update) m.update = b.subarray(pos, end);
      else if (field === P.facts) m.facts = b.subarray(pos, end);
      pos = end;
    } else if (wire === WIRE_VARINT) {
      const start = pos;
      while (pos < b.length && (b[pos]! & 0x80) !== 0) pos++;
      if (++pos > b.length) throw new Error('truncated varint');
      if (field === P.slot) m.slot = readVarint64(b, start, pos);
      else if (field === P.index) m.index = Number(readVarint64(b, start, pos) & 0xffffffffn);
      else if (field === P.failed) m.failed = readVarint64(b, start, pos) !== 0n;
      else if (field === P.has_instruction) m.hasInstruction = readVarint64(b, start, pos) !== 0n;
    } else if (wire === WIRE_I64 || wire === WIRE_I32) {
      pos += wire === WIRE_I64 ? 8 : 4;
      if (pos > b.length) throw new Error('truncated field');
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return m;
}

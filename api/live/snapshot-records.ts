// Snapshot rows as account records (issue 23, item 1): the accounts view's snapshot statement
// (api/views/account-snapshot.ts) answers in RowBinary, and each row is written straight into the bytes of the
// event model's account write (schemas/events.proto AccountEvent, slot S, is_startup) with its field table, the
// same scan a record read from Kafka has. From there the snapshot takes the live updates' path: matching works on
// the scan, stream.Stream re-frames the record's bytes (api/grpc/stream/reframe.ts), and the other transports
// decode it when they first ask for `event`. No JSON, no hex or base64 text, no object per field: a snapshot of
// millions of accounts spent most of its api CPU parsing JSON rows and encoding objects.
//
// RowBinary (ClickHouse's native row format): String = LEB128 length + bytes; UInt64 = 8 bytes little-endian;
// Bool = 1 byte. A chunk may end inside a row (a server's HTTP body is cut anywhere): what is left waits for the
// next chunk.
import { AccountEvent } from '../../schemas/gen/events.js';
import type { AccountScan } from '../../schemas/scan.js';
import { varintSize, writeVarint } from '../../schemas/varint.js';

/** The columns each row holds, in order (the statement's SELECT list). */
export const SNAPSHOT_ROW_COLUMNS = ['pubkey', 'owner', 'lamports', 'executable', 'rent_epoch', 'data', 'write_version'] as const;

/** An account write read from the snapshot: its scan now, its decoded event on first use. */
export class SnapshotRecord {
  readonly kind = 'account';
  readonly snapshot = true;
  private decoded: AccountEvent | undefined;
  constructor(readonly scan: AccountScan) {}
  get slot(): bigint {
    return this.scan.slot;
  }
  get event(): AccountEvent {
    return (this.decoded ??= AccountEvent.decode(this.scan.bytes));
  }
}

const TWO_32 = 4294967296;
const EMPTY = Buffer.alloc(0);

/** LEB128 size of the u64 hi·2³² + lo. */
function varint64Size(lo: number, hi: number): number {
  let size = 1;
  while (hi !== 0 || lo > 0x7f) {
    lo = ((lo >>> 7) | (hi << 25)) >>> 0;
    hi >>>= 7;
    size++;
  }
  return size;
}

function writeVarint64(out: Buffer, pos: number, lo: number, hi: number): number {
  while (hi !== 0 || lo > 0x7f) {
    out[pos++] = (lo & 0x7f) | 0x80;
    lo = ((lo >>> 7) | (hi << 25)) >>> 0;
    hi >>>= 7;
  }
  out[pos++] = lo;
  return pos;
}

function u64(lo: number, hi: number): bigint {
  // One BigInt when the value fits a double exactly (every real lamports and write version), else two parts.
  return hi < 0x200000 ? BigInt(hi * TWO_32 + lo) : (BigInt(hi) << 32n) | BigInt(lo);
}

/** A RowBinary String's length at `pos` and where its bytes start; undefined when the chunk ends first. */
function readLength(b: Buffer, pos: number): [len: number, start: number] | undefined {
  let len = 0;
  let mul = 1;
  for (let p = pos; p < b.length && p < pos + 5; p++) {
    const byte = b[p]!;
    len += (byte & 0x7f) * mul;
    if (byte < 0x80) return [len, p + 1];
    mul *= 128;
  }
  if (b.length - pos >= 5) throw new Error(`snapshot row: a String length at byte ${pos} is longer than 5 bytes`);
  return undefined;
}

/**
 * Decodes a snapshot's RowBinary stream, chunk by chunk, into account records at one slot, one record at a time:
 * `push` a chunk, then `next` until it answers undefined. One at a time because a record is garbage once delivered:
 * a chunk's 8,192 records decoded up front all outlived the young generation's collections (promoted, then
 * collected by full ones: a third of the main thread's time). Not reentrant: one per snapshot.
 */
export class SnapshotRowDecoder {
  private buf: Buffer = EMPTY;
  private pos = 0;
  /** The slot field (tag 0x40 and varint), the same for every record of the snapshot. */
  private readonly slotField: Buffer;

  constructor(readonly slot: bigint) {
    const lo = Number(slot & 0xffffffffn);
    const hi = Number(slot >> 32n);
    this.slotField = Buffer.alloc(slot === 0n ? 0 : 1 + varint64Size(lo, hi));
    if (slot !== 0n) {
      this.slotField[0] = 0x40;
      writeVarint64(this.slotField, 1, lo, hi);
    }
  }

  /** The next chunk, after what the one before left unfinished (its rows must have been taken with `next`). */
  push(chunk: Buffer): void {
    // What is left is a copy: the chunk's memory is not held for a few bytes.
    this.buf = this.pos < this.buf.length ? Buffer.concat([this.buf.subarray(this.pos), chunk]) : chunk;
    this.pos = 0;
  }

  /** The next complete row of what was pushed, or undefined when none is left whole (the rest waits for a chunk). */
  next(): SnapshotRecord | undefined {
    if (this.pos >= this.buf.length) return undefined;
    const r = this.row(this.buf, this.pos);
    if (r === undefined) return undefined;
    this.pos = r[1];
    return r[0];
  }

  /** The stream ended: throws when it ended inside a row. */
  end(): void {
    const left = this.buf.length - this.pos;
    if (left > 0) throw new Error(`snapshot rows: the result ended inside a row (${left} bytes left over)`);
  }

  /** The row at `pos` and where the next starts, or undefined when it is not all there. */
  private row(b: Buffer, pos: number): [SnapshotRecord, number] | undefined {
    const pk = readLength(b, pos);
    if (pk === undefined) return undefined;
    const pkStart = pk[1];
    const pkEnd = pkStart + pk[0];
    const own = readLength(b, pkEnd);
    if (own === undefined) return undefined;
    const ownStart = own[1];
    const ownEnd = ownStart + own[0];
    // lamports u64, executable u8, rent_epoch u64, then data.
    const dl = readLength(b, ownEnd + 17);
    if (dl === undefined) return undefined;
    const dataStart = dl[1];
    const dataEnd = dataStart + dl[0];
    const rowEnd = dataEnd + 8; // write_version u64
    if (rowEnd > b.length) return undefined;

    const lamLo = b.readUInt32LE(ownEnd);
    const lamHi = b.readUInt32LE(ownEnd + 4);
    const executable = b[ownEnd + 8] !== 0;
    const rentLo = b.readUInt32LE(ownEnd + 9);
    const rentHi = b.readUInt32LE(ownEnd + 13);
    const wvLo = b.readUInt32LE(dataEnd);
    const wvHi = b.readUInt32LE(dataEnd + 4);
    const pkLen = pk[0];
    const ownLen = own[0];
    const dataLen = dl[0];

    // Fields as ts-proto writes them: in number order, defaults (0, false, empty) left out.
    const lam = lamLo !== 0 || lamHi !== 0;
    const rent = rentLo !== 0 || rentHi !== 0;
    const wv = wvLo !== 0 || wvHi !== 0;
    const size =
      (pkLen > 0 ? 1 + varintSize(pkLen) + pkLen : 0) +
      (lam ? 1 + varint64Size(lamLo, lamHi) : 0) +
      (ownLen > 0 ? 1 + varintSize(ownLen) + ownLen : 0) +
      (executable ? 2 : 0) +
      (rent ? 1 + varint64Size(rentLo, rentHi) : 0) +
      (dataLen > 0 ? 1 + varintSize(dataLen) + dataLen : 0) +
      (wv ? 1 + varint64Size(wvLo, wvHi) : 0) +
      this.slotField.length +
      2; // is_startup
    const r = Buffer.allocUnsafe(size);
    // The field table as schemas/scan.ts's scanFields gives it: number, value start (after the tag), value end.
    const fields: number[] = [];
    let p = 0;
    let pubkeyAt = 0;
    let ownerAt = 0;
    let dataAt = 0;
    if (pkLen > 0) {
      r[p++] = 0x0a;
      const s = p;
      p = writeVarint(r, p, pkLen);
      pubkeyAt = p;
      p += b.copy(r, p, pkStart, pkEnd);
      fields.push(1, s, p);
    }
    if (lam) {
      r[p++] = 0x10;
      const s = p;
      p = writeVarint64(r, p, lamLo, lamHi);
      fields.push(2, s, p);
    }
    if (ownLen > 0) {
      r[p++] = 0x1a;
      const s = p;
      p = writeVarint(r, p, ownLen);
      ownerAt = p;
      p += b.copy(r, p, ownStart, ownEnd);
      fields.push(3, s, p);
    }
    if (executable) {
      r[p++] = 0x20;
      r[p++] = 1;
      fields.push(4, p - 1, p);
    }
    if (rent) {
      r[p++] = 0x28;
      const s = p;
      p = writeVarint64(r, p, rentLo, rentHi);
      fields.push(5, s, p);
    }
    if (dataLen > 0) {
      r[p++] = 0x32;
      const s = p;
      p = writeVarint(r, p, dataLen);
      dataAt = p;
      p += b.copy(r, p, dataStart, dataEnd);
      fields.push(6, s, p);
    }
    if (wv) {
      r[p++] = 0x38;
      const s = p;
      p = writeVarint64(r, p, wvLo, wvHi);
      fields.push(7, s, p);
    }
    if (this.slotField.length > 0) {
      p += this.slotField.copy(r, p);
      fields.push(8, p - this.slotField.length + 1, p);
    }
    r[p++] = 0x50;
    r[p++] = 1;
    fields.push(10, p - 1, p);
    return [
      new SnapshotRecord({
        bytes: r,
        fields,
        slot: this.slot,
        pubkey: r.subarray(pubkeyAt, pubkeyAt + pkLen),
        owner: r.subarray(ownerAt, ownerAt + ownLen),
        lamports: u64(lamLo, lamHi),
        data: r.subarray(dataAt, dataAt + dataLen),
        writeVersion: u64(wvLo, wvHi),
        txnSignature: undefined,
      }),
      rowEnd,
    ];
  }
}

// An account write's event-model record (schemas/events.proto AccountEvent) written straight from its column values,
// with its field table (scan.ts's AccountScan), the same scan a record read from Kafka has: the snapshot's rows become
// records this way (api/live/snapshot-records.ts), with no object per field and no encode. Fields as ts-proto writes
// them: in number order, defaults (0, false, empty) left out; is_startup always set.
import { ACCOUNT_EVENT as F, tag, WIRE } from './proto-fields.js';
import type { AccountScan } from './scan.js';
import { varintSize, writeVarint } from './varint.js';

/** One row's columns: byte ranges of `src` for pubkey, owner and data, u64s as 32-bit halves. Reused row after row. */
export class AccountColumns {
  src: Buffer = Buffer.alloc(0);
  pubkeyStart = 0;
  pubkeyEnd = 0;
  ownerStart = 0;
  ownerEnd = 0;
  lamportsLo = 0;
  lamportsHi = 0;
  executable = false;
  rentEpochLo = 0;
  rentEpochHi = 0;
  dataStart = 0;
  dataEnd = 0;
  writeVersionLo = 0;
  writeVersionHi = 0;
}

const TWO_32 = 4294967296;
const LEN = WIRE.len;
const VARINT = WIRE.varint;

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

const bytesSize = (len: number): number => (len > 0 ? 1 + varintSize(len) + len : 0);
const u64Size = (lo: number, hi: number): number => (lo !== 0 || hi !== 0 ? 1 + varint64Size(lo, hi) : 0);

/** Writes account records at one slot (the slot field made once). Not reentrant: its field table is built per call. */
export class AccountRecordWriter {
  /** The slot field (tag and varint), the same for every record. */
  private readonly slotField: Buffer;
  private out: Buffer = Buffer.alloc(0);
  private pos = 0;
  private fields: number[] = [];

  constructor(readonly slot: bigint) {
    const lo = Number(slot & 0xffffffffn);
    const hi = Number(slot >> 32n);
    this.slotField = Buffer.alloc(slot === 0n ? 0 : 1 + varint64Size(lo, hi));
    if (slot !== 0n) writeVarint64(this.slotField, 1, lo, hi);
    if (slot !== 0n) this.slotField[0] = tag(F.slot, VARINT);
  }

  /** The record of `c` (is_startup set) with its scan. */
  write(c: AccountColumns): AccountScan {
    const pkLen = c.pubkeyEnd - c.pubkeyStart;
    const ownLen = c.ownerEnd - c.ownerStart;
    const dataLen = c.dataEnd - c.dataStart;
    const size =
      bytesSize(pkLen) +
      u64Size(c.lamportsLo, c.lamportsHi) +
      bytesSize(ownLen) +
      (c.executable ? 2 : 0) +
      u64Size(c.rentEpochLo, c.rentEpochHi) +
      bytesSize(dataLen) +
      u64Size(c.writeVersionLo, c.writeVersionHi) +
      this.slotField.length +
      2; // is_startup
    this.out = Buffer.allocUnsafe(size);
    this.pos = 0;
    this.fields = [];
    const pubkeyAt = this.bytes(F.pubkey, c.src, c.pubkeyStart, c.pubkeyEnd);
    this.u64(F.lamports, c.lamportsLo, c.lamportsHi);
    const ownerAt = this.bytes(F.owner, c.src, c.ownerStart, c.ownerEnd);
    if (c.executable) this.true(F.executable);
    this.u64(F.rent_epoch, c.rentEpochLo, c.rentEpochHi);
    const dataAt = this.bytes(F.data, c.src, c.dataStart, c.dataEnd);
    this.u64(F.write_version, c.writeVersionLo, c.writeVersionHi);
    if (this.slotField.length > 0) {
      this.pos += this.slotField.copy(this.out, this.pos);
      this.fields.push(F.slot, this.pos - this.slotField.length + 1, this.pos);
    }
    this.true(F.is_startup);
    const r = this.out;
    return {
      bytes: r,
      fields: this.fields,
      slot: this.slot,
      pubkey: r.subarray(pubkeyAt, pubkeyAt + pkLen),
      owner: r.subarray(ownerAt, ownerAt + ownLen),
      lamports: u64(c.lamportsLo, c.lamportsHi),
      data: r.subarray(dataAt, dataAt + dataLen),
      writeVersion: u64(c.writeVersionLo, c.writeVersionHi),
      txnSignature: undefined,
    };
  }

  /** A bytes field from `src` (left out when empty); returns where its value starts (after the length). */
  private bytes(field: number, src: Buffer, start: number, end: number): number {
    if (end === start) return 0;
    const r = this.out;
    r[this.pos++] = tag(field, LEN);
    const s = this.pos;
    const at = writeVarint(r, this.pos, end - start);
    this.pos = at + src.copy(r, at, start, end);
    this.fields.push(field, s, this.pos);
    return at;
  }

  /** A u64 field (left out when 0). */
  private u64(field: number, lo: number, hi: number): void {
    if (lo === 0 && hi === 0) return;
    this.out[this.pos++] = tag(field, VARINT);
    const s = this.pos;
    this.pos = writeVarint64(this.out, this.pos, lo, hi);
    this.fields.push(field, s, this.pos);
  }

  /** A bool field set to true. */
  private true(field: number): void {
    this.out[this.pos++] = tag(field, VARINT);
    this.out[this.pos++] = 1;
    this.fields.push(field, this.pos - 1, this.pos);
  }
}

// The one byte writer of the product (issue 35), the reader's inverse (schemas/byte-reader.ts): Solana's wire
// transactions and compact-u16 lengths, Borsh instruction data, accounts and events (the simulator's programs and
// the tables' round trips), bincode transaction errors. Little-endian; a growing Buffer; every method returns the
// writer, so a layout reads as one chain. A value the format cannot hold throws ByteError (`out-of-range`) naming it.
import { byteError } from './byte-reader.js';

const U64_MASK = 0xffff_ffff_ffff_ffffn;

export class ByteWriter {
  private buf: Buffer;
  private at = 0;

  constructor(capacity = 256) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.at;
  }

  /** Makes room for `n` more bytes; returns where they go (read `this.buf` after it: it may be replaced). */
  private room(n: number): number {
    const at = this.at;
    if (at + n > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, at + n));
      this.buf.copy(next, 0, 0, at);
      this.buf = next;
    }
    this.at = at + n;
    return at;
  }

  bytes(b: Uint8Array): this {
    const at = this.room(b.length);
    this.buf.set(b, at);
    return this;
  }
  /** Exactly `len` bytes (a key, a hash, a signature): other lengths are refused, naming `what`. */
  fixed(b: Uint8Array, len: number, what: string): this {
    if (b.length !== len) byteError('out-of-range', this.at, `${what}: expected ${len} bytes, got ${b.length}`);
    return this.bytes(b);
  }
  pubkey(k: Uint8Array, what = 'pubkey'): this {
    return this.fixed(k, 32, what);
  }

  u8(v: number): this {
    const at = this.room(1);
    this.buf.writeUInt8(v, at);
    return this;
  }
  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }
  /** Anchor's `OptionBool` (pump's track_volume: a tuple struct of one bool): the bool byte. */
  optionBool(v: boolean): this {
    return this.bool(v);
  }
  u16(v: number): this {
    const at = this.room(2);
    this.buf.writeUInt16LE(v, at);
    return this;
  }
  u32(v: number): this {
    const at = this.room(4);
    this.buf.writeUInt32LE(v, at);
    return this;
  }
  i32(v: number): this {
    const at = this.room(4);
    this.buf.writeInt32LE(v, at);
    return this;
  }
  u64(v: bigint): this {
    const at = this.room(8);
    this.buf.writeBigUInt64LE(v, at);
    return this;
  }
  i64(v: bigint): this {
    const at = this.room(8);
    this.buf.writeBigInt64LE(v, at);
    return this;
  }
  u128(v: bigint): this {
    if (v < 0n || v >= 1n << 128n) byteError('out-of-range', this.at, `${v} is not a u128`);
    return this.u64(v & U64_MASK).u64(v >> 64n);
  }
  /** Two's complement, low 64 bits first. */
  i128(v: bigint): this {
    if (v < -(1n << 127n) || v >= 1n << 127n) byteError('out-of-range', this.at, `${v} is not an i128`);
    return this.u128(BigInt.asUintN(128, v));
  }

  /** Solana's compact-u16: 7 value bits a byte, low group first, the high bit set when more follow. */
  shortU16(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff) byteError('out-of-range', this.at, `compact-u16 out of range: ${v}`);
    let rest = v;
    while (rest > 0x7f) {
      this.u8((rest & 0x7f) | 0x80);
      rest >>= 7;
    }
    return this.u8(rest);
  }
  /** An unsigned LEB128 number (7 value bits a byte, low group first): ClickHouse's lengths in RowBinary. */
  leb128(v: number): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff_ffff) byteError('out-of-range', this.at, `LEB128 out of range: ${v}`);
    const at = this.room(v < 0x80 ? 1 : 5);
    const buf = this.buf;
    let i = at;
    let rest = v;
    while (rest >= 0x80) {
      buf[i++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    buf[i++] = rest;
    this.at = i;
    return this;
  }
  /** Text of one-byte characters (base58, base64, digits) as latin1, one byte each, no length. Short strings by a
   * loop: a native write costs more than it copies. */
  latin1(s: string): this {
    const n = s.length;
    const at = this.room(n);
    if (n >= 64) {
      this.buf.write(s, at, n, 'latin1');
      return this;
    }
    const buf = this.buf;
    for (let i = 0; i < n; i++) buf[at + i] = s.charCodeAt(i);
    return this;
  }
  /** `s` as UTF-8, `byteLength` bytes (its Buffer.byteLength), no length. */
  utf8(s: string, byteLength: number): this {
    const at = this.room(byteLength);
    this.buf.write(s, at, byteLength, 'utf8');
    return this;
  }
  /** A Borsh string: u32 length, UTF-8. */
  string(s: string): this {
    const t = Buffer.from(s, 'utf8');
    return this.u32(t.length).bytes(t);
  }
  /** A bincode String: u64 length, UTF-8. */
  bincodeString(s: string): this {
    const t = Buffer.from(s, 'utf8');
    return this.u64(BigInt(t.length)).bytes(t);
  }

  /** The bytes written: a view of the writer's buffer (a writer is used once, then dropped). */
  done(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}

// A small Borsh writer for the simulated programs' instruction arguments, account data and Anchor events. The
// simulator is a chain: it writes the bytes the programs write, with its own code, independent of the decoders
// that read them (api/pumpfun). Little-endian integers, bool as one byte, u32-length-prefixed UTF-8 strings and
// vectors, `Option<T>` as a 0/1 tag then the value.

export class BorshWriter {
  private buf: Buffer;
  private at = 0;

  constructor(capacity = 256) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
    return this;
  }

  u8(v: number): this {
    this.room(1);
    this.buf[this.at++] = v;
    return this;
  }

  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }

  u16(v: number): this {
    this.room(2);
    this.buf.writeUInt16LE(v, this.at);
    this.at += 2;
    return this;
  }

  u32(v: number): this {
    this.room(4);
    this.buf.writeUInt32LE(v, this.at);
    this.at += 4;
    return this;
  }

  u64(v: bigint): this {
    this.room(8);
    this.buf.writeBigUInt64LE(v, this.at);
    this.at += 8;
    return this;
  }

  i64(v: bigint): this {
    this.room(8);
    this.buf.writeBigInt64LE(v, this.at);
    this.at += 8;
    return this;
  }

  /** i128 as two's complement, low 64 bits first. */
  i128(v: bigint): this {
    const u = BigInt.asUintN(128, v);
    return this.u64(u & 0xffff_ffff_ffff_ffffn).u64(u >> 64n);
  }

  pubkey(k: Uint8Array): this {
    if (k.length !== 32) throw new Error(`simulator bug: a pubkey of ${k.length} bytes`);
    return this.bytes(k);
  }

  string(s: string): this {
    const t = Buffer.from(s, 'utf8');
    return this.u32(t.length).bytes(t);
  }

  /** A borsh `Option<bool>` wrapped in a one-field tuple struct (pump's `OptionBool`): just the bool byte. */
  optionBool(v: boolean): this {
    return this.bool(v);
  }

  /** The bytes written (a view of the writer's buffer: a writer is used once, then dropped). */
  done(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}

export const borsh = (capacity?: number): BorshWriter => new BorshWriter(capacity);

// The one bounded byte reader of the product (issue 35): every binary layout it decodes (Solana's wire transactions
// and compact-u16 lengths, Borsh instruction and event layouts, bincode instruction data and transaction errors,
// the vote program's serde varints) reads through it. Little-endian. A read past the end, or a value the format
// rejects, throws ByteError naming what it was reading and at which byte; the format's own module turns that into
// its error (WireError, a layout's `truncated`/`invalid` result, an instruction left partially decoded).
//
// It is on the hot path (a pump transaction's decode budget is a few µs): one class, every instance the same shape,
// reads straight from the bytes (no DataView: one is bound to an ArrayBuffer and costs ~130 ns to make; the bytes of
// one transaction sit in different pool slabs), 64-bit values through an 8-byte scratch under 64-bit views, and a
// reader can be reset onto other bytes instead of allocated. `what` names are constant strings at the call sites;
// messages are built only when thrown.

export type ByteErrorKind = 'truncated' | 'invalid' | 'out-of-range';

/** Bytes that end early (`truncated`), hold a value the format rejects (`invalid`), or a value a writer cannot
 * write (`out-of-range`). `offset` is the byte it concerns. */
export class ByteError extends Error {
  override name = 'ByteError';
  constructor(
    readonly kind: ByteErrorKind,
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** Throws a ByteError without capturing a stack: the formats catch it and throw their own (a layout read of an
 * older or damaged event fails this way in the decode loop, where a stack trace cost more than the decode). */
export function byteError(kind: ByteErrorKind, offset: number, message: string): never {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const e = new ByteError(kind, offset, message);
  Error.stackTraceLimit = limit;
  throw e;
}

const EMPTY = new Uint8Array(0);
const SCRATCH = new Uint8Array(8);
const SCRATCH_U64 = new BigUint64Array(SCRATCH.buffer);
const SCRATCH_I64 = new BigInt64Array(SCRATCH.buffer);
/** The scratch views read in the platform's byte order; the formats are little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The 8 bytes at `p` into the scratch, in the platform's order. */
function load8(d: Uint8Array, p: number): void {
  const s = SCRATCH;
  if (LITTLE_ENDIAN) {
    s[0] = d[p]!;
    s[1] = d[p + 1]!;
    s[2] = d[p + 2]!;
    s[3] = d[p + 3]!;
    s[4] = d[p + 4]!;
    s[5] = d[p + 5]!;
    s[6] = d[p + 6]!;
    s[7] = d[p + 7]!;
  } else {
    for (let i = 0; i < 8; i++) s[7 - i] = d[p + i]!;
  }
}

// Little-endian integers at `p`, unchecked: for callers that checked the length already (ByteReader's `need`, the
// pump layouts' compiled readers, schemas/pumpfun/layout-reader.ts).
export function u64At(d: Uint8Array, p: number): bigint {
  load8(d, p);
  return SCRATCH_U64[0]!;
}
export function i64At(d: Uint8Array, p: number): bigint {
  load8(d, p);
  return SCRATCH_I64[0]!;
}
export function u128At(d: Uint8Array, p: number): bigint {
  load8(d, p + 8);
  const hi = SCRATCH_U64[0]!;
  load8(d, p);
  return (hi << 64n) | SCRATCH_U64[0]!;
}
export function i128At(d: Uint8Array, p: number): bigint {
  load8(d, p + 8);
  const hi = SCRATCH_I64[0]!;
  load8(d, p);
  return (hi << 64n) | SCRATCH_U64[0]!;
}
/** ASCII strings up to this length are built char by char (TradeEvent's ix_name "buy"/"sell"); longer ASCII ones
 * in a Buffer are sliced as latin1 (the same text for bytes below 0x80); the rest go through the validating
 * TextDecoder, whose call and subarray cost more than both for short text. */
const SHORT_ASCII = 8;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class ByteReader {
  /** The next byte to read. */
  pos: number;
  data: Uint8Array;

  constructor(data: Uint8Array = EMPTY, start = 0) {
    this.data = data;
    this.pos = start;
  }

  /** Reads `data` from `start` on (one reader reused: no object per decode). */
  reset(data: Uint8Array, start = 0): this {
    this.data = data;
    this.pos = start;
    return this;
  }

  get remaining(): number {
    return this.data.length - this.pos;
  }
  get done(): boolean {
    return this.pos >= this.data.length;
  }

  /** Takes `n` bytes (throws `truncated` when fewer are left); returns where they start. */
  need(n: number, what: string): number {
    const at = this.pos;
    if (this.data.length - at < n) byteError('truncated', at, `truncated at byte ${at}: expected ${n} bytes of ${what}`);
    this.pos = at + n;
    return at;
  }

  u8(what = 'u8'): number {
    const at = this.pos;
    if (at >= this.data.length) byteError('truncated', at, `truncated at byte ${at}: expected ${what}`);
    this.pos = at + 1;
    return this.data[at]!;
  }
  u16(what = 'u16'): number {
    const at = this.need(2, what);
    const d = this.data;
    return d[at]! | (d[at + 1]! << 8);
  }
  u32(what = 'u32'): number {
    return this.u32At(this.need(4, what));
  }
  /** The u32 at `at` (already taken with `need`). */
  u32At(at: number): number {
    const d = this.data;
    return (d[at]! | (d[at + 1]! << 8) | (d[at + 2]! << 16) | (d[at + 3]! << 24)) >>> 0;
  }
  u64(what = 'u64'): bigint {
    return u64At(this.data, this.need(8, what));
  }
  i64(what = 'i64'): bigint {
    return i64At(this.data, this.need(8, what));
  }
  u128(what = 'u128'): bigint {
    return u128At(this.data, this.need(16, what));
  }
  i128(what = 'i128'): bigint {
    return i128At(this.data, this.need(16, what));
  }

  /** A Borsh/bincode bool: 0 or 1, any other byte `invalid`. */
  bool(what = 'bool'): boolean {
    const at = this.need(1, what);
    const b = this.data[at]!;
    if (b > 1) byteError('invalid', at, `${what}: bool byte ${b} at byte ${at} (only 0 or 1)`);
    return b === 1;
  }
  /** A Borsh/bincode Option tag: whether a value follows (0 none, 1 some, any other byte `invalid`). */
  option(what = 'option tag'): boolean {
    const at = this.need(1, what);
    const tag = this.data[at]!;
    if (tag > 1) byteError('invalid', at, `${what}: option tag ${tag} at byte ${at} (only 0 or 1)`);
    return tag === 1;
  }

  /** 32 bytes as a Buffer of their own (a decoded key never aliases the input). */
  pubkey(what = 'pubkey'): Buffer {
    const at = this.need(32, what);
    const key = Buffer.allocUnsafe(32);
    const d = this.data;
    // Four bytes a step: a quarter of the loop's compares and jumps (~25% of a key's cost).
    for (let i = 0; i < 32; i += 4) {
      key[i] = d[at + i]!;
      key[i + 1] = d[at + i + 1]!;
      key[i + 2] = d[at + i + 2]!;
      key[i + 3] = d[at + i + 3]!;
    }
    return key;
  }
  /** `n` bytes as a Buffer of their own. */
  copy(n: number, what: string): Buffer {
    const at = this.need(n, what);
    return Buffer.from(this.data.subarray(at, at + n));
  }
  /** `n` bytes as a view of the input (no copy). */
  view(n: number, what: string): Uint8Array {
    const at = this.need(n, what);
    return this.data.subarray(at, at + n);
  }

  /** Solana's compact-u16 (short_vec length): 7 bits a byte, low first, at most 3 bytes, canonical. */
  shortU16(what = 'compact-u16'): number {
    let v = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.u8(what);
      v |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        if (i > 0 && byte === 0) byteError('invalid', this.pos - 1, `non-canonical compact-u16 for ${what} at byte ${this.pos - 1}`);
        if (v > 0xffff) byteError('invalid', this.pos - 1, `compact-u16 overflow for ${what}`);
        return v;
      }
    }
    return byteError('invalid', this.pos - 1, `compact-u16 longer than 3 bytes for ${what}`);
  }
  /** A LEB128 length as a number (ClickHouse RowBinary's String length): at most 5 bytes. */
  leb32(what = 'length'): number {
    const at = this.pos;
    let v = 0;
    let mul = 1;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8(what);
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) return v;
      mul *= 128;
    }
    return byteError('invalid', at, `${what} at byte ${at} is longer than 5 bytes`);
  }
  /** A u64 LEB128 varint (serde_varint; protobuf's varint), at most 10 bytes. */
  varint(what = 'varint'): bigint {
    const at = this.pos;
    let v = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const byte = this.u8(what);
      v |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return v;
    }
    return byteError('invalid', at, `${what}: varint at byte ${at} longer than 10 bytes`);
  }

  /** A Borsh string: u32 length, UTF-8 (invalid UTF-8 is `invalid`, as Borsh rejects it). */
  string(what = 'string'): string {
    const len = this.u32At(this.need(4, what));
    return this.utf8(len, what, true);
  }
  /** A bincode String: u64 length, UTF-8 (invalid sequences decode to U+FFFD, as these readers always did). */
  bincodeString(what = 'string'): string {
    const at = this.pos;
    const len = this.u64(what);
    if (len > BigInt(this.remaining))
      byteError('truncated', at, `truncated at byte ${at}: ${what} of ${len} bytes, ${this.remaining} left`);
    return this.utf8(Number(len), what, false);
  }
  /** Borsh `bytes` (Vec<u8>): u32 length, the bytes as a Buffer of their own. */
  borshBytes(what = 'bytes'): Buffer {
    const len = this.u32At(this.need(4, what));
    return this.copy(len, what);
  }
  private utf8(len: number, what: string, fatal: boolean): string {
    const start = this.need(len, what);
    const d = this.data;
    const end = start + len;
    if (len <= SHORT_ASCII) {
      let s = '';
      let i = start;
      for (; i < end; i++) {
        const b = d[i]!;
        if (b > 0x7f) break;
        s += String.fromCharCode(b);
      }
      if (i === end) return s;
    } else if (Buffer.isBuffer(d)) {
      let i = start;
      while (i < end && d[i]! <= 0x7f) i++;
      if (i === end) return d.toString('latin1', start, end);
    }
    if (!fatal) return Buffer.from(d.buffer, d.byteOffset + start, len).toString('utf8');
    try {
      return utf8.decode(d.subarray(start, end));
    } catch {
      return byteError('invalid', start, `${what} at byte ${start} is not valid UTF-8`);
    }
  }

  /** A length claim `n` of items taking at least `least` bytes each: refused (`truncated`) when the bytes left
   * cannot hold it, before anything is allocated for it. */
  count(n: number | bigint, least: number, what: string): number {
    const c = Number(n);
    const left = this.data.length - this.pos;
    if (c * least > left)
      byteError('truncated', this.pos, `${what}: ${n} items need at least ${c * least} bytes at byte ${this.pos}, ${left} left`);
    return c;
  }
}

// Borsh-style layouts as the programs' tables declare them, and the one reader both programs use. Pure.
// A layout is written as text, `name:type name:type …`, types in the IDLs' vocabulary: u8 u16 u32 u64 i64 u128
// i128 bool pubkey string bytes, option<T>, vec<T>, [T;N], and the names the table defines: a struct (a struct whose
// fields have no names is a tuple struct, e.g. OptionBool = `bool`) or an enum of unit variants, written
// `enum Paused Active` (decoded to the variant's name). Parsed once when a table is built; any other type is
// refused, naming the field.
//
// Reading follows how the programs' layouts grow (fields are only ever appended):
// - the data may end at any field boundary: the fields from there on are ABSENT (left out, not zeroed);
// - data that ends inside a field is `truncated`; a value Borsh rejects (a bool byte other than 0/1, an option
//   tag other than 0/1, invalid UTF-8) is `invalid`; both name the field;
// - bytes after the last known field are counted (`trailingBytes`), not read.
// u64/i64/u128/i128 are bigint, u8/u16/u32 numbers, pubkeys 32-byte Buffers (copies: a decoded value never
// aliases the input).

export type Value = number | bigint | boolean | string | Buffer | null | readonly Value[] | { readonly [field: string]: Value };
export type Fields = Record<string, Value>;

const SCALARS = ['u8', 'u16', 'u32', 'u64', 'i64', 'u128', 'i128', 'bool', 'pubkey', 'string', 'bytes'] as const;
type Scalar = (typeof SCALARS)[number];
export type TypeKind = Scalar | 'option' | 'vec' | 'array' | 'struct' | 'enum';

// Every FieldType has the same shape (unused members empty) and a numeric code, so the reader's one switch
// stays monomorphic: the decode budget is a few microseconds per transaction.
const CODES = {
  u8: 0,
  u16: 1,
  u32: 2,
  u64: 3,
  i64: 4,
  u128: 5,
  i128: 6,
  bool: 7,
  pubkey: 8,
  string: 9,
  option: 10,
  vec: 11,
  array: 12,
  struct: 13,
  bytes: 14,
  enum: 15,
} as const;

export interface FieldType {
  readonly k: TypeKind;
  readonly code: number;
  /** option, vec, array: the item type. */
  readonly of: FieldType | undefined;
  /** array: the length. */
  readonly len: number;
  /** struct: its name, its fields, and whether they are unnamed (a tuple struct decodes to an array). */
  readonly name: string;
  readonly fields: readonly Field[];
  readonly tuple: boolean;
  /** enum: its variant names, in tag order (only unit variants: none of the programs' enums carries data). */
  readonly variants: readonly string[];
}

const fieldType = (k: TypeKind, more: Partial<FieldType> = {}): FieldType => ({
  k,
  code: CODES[k],
  of: more.of,
  len: more.len ?? 0,
  name: more.name ?? '',
  fields: more.fields ?? [],
  tuple: more.tuple ?? false,
  variants: more.variants ?? [],
});

export interface Field {
  readonly name: string;
  /** The type as written in the table (`option<u64>`, `[pubkey;8]`, `Shareholder`). */
  readonly typeText: string;
  readonly type: FieldType;
}

export class LayoutError extends Error {
  override name = 'LayoutError';
}

const SCALAR_SET = new Set<string>(SCALARS);

/** Struct definitions by name, as text (`address:pubkey share_bps:u16`, or `bool` for a tuple struct), and enums
 * (`enum Paused Active`). */
export type TypeDefs = Readonly<Record<string, string>>;

export function parseType(text: string, defs: TypeDefs, seen: readonly string[] = []): FieldType {
  if (SCALAR_SET.has(text)) return fieldType(text as Scalar);
  let m = /^(option|vec)<(.+)>$/.exec(text);
  if (m) return fieldType(m[1] as 'option' | 'vec', { of: parseType(m[2]!, defs, seen) });
  m = /^\[(.+);(\d+)\]$/.exec(text);
  if (m) return fieldType('array', { of: parseType(m[1]!, defs, seen), len: Number(m[2]) });
  const def = Object.hasOwn(defs, text) ? defs[text] : undefined;
  if (def === undefined) throw new LayoutError(`unknown type ${JSON.stringify(text)}`);
  if (seen.includes(text)) throw new LayoutError(`type ${text} contains itself`);
  const tokens = def.split(/\s+/).filter(Boolean);
  if (tokens[0] === 'enum') {
    const variants = tokens.slice(1);
    if (variants.length === 0 || variants.length > 256) throw new LayoutError(`enum ${text} has ${variants.length} variants`);
    return fieldType('enum', { name: text, variants });
  }
  if (tokens.length === 0) throw new LayoutError(`type ${text} has no fields`);
  const tuple = tokens.every((t) => !t.includes(':'));
  const fields = tuple
    ? tokens.map((t, i) => ({ name: String(i), typeText: t, type: parseType(t, defs, [...seen, text]) }))
    : parseFields(def, defs, [...seen, text]);
  return fieldType('struct', { name: text, fields, tuple });
}

/** `name:type name:type …` (whitespace-separated; an empty text is no fields). */
export function parseFields(text: string, defs: TypeDefs, seen: readonly string[] = []): Field[] {
  const fields = text
    .split(/\s+/)
    .filter(Boolean)
    .map((token) => {
      const at = token.indexOf(':');
      if (at <= 0) throw new LayoutError(`field ${JSON.stringify(token)} is not name:type`);
      const typeText = token.slice(at + 1);
      const name = token.slice(0, at);
      try {
        return { name, typeText, type: parseType(typeText, defs, seen) };
      } catch (e) {
        throw new LayoutError(`field ${name}: ${(e as Error).message}`);
      }
    });
  const names = fields.map((f) => f.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw new LayoutError(`field ${dup} appears twice`);
  return fields;
}

/** The fewest bytes a value of the type takes (a vec's length claim is checked against it). */
export function minSize(t: FieldType): number {
  switch (t.k) {
    case 'u8':
    case 'bool':
    case 'option':
    case 'enum':
      return 1;
    case 'u16':
      return 2;
    case 'u32':
    case 'string':
    case 'vec':
    case 'bytes':
      return 4;
    case 'u64':
    case 'i64':
      return 8;
    case 'u128':
    case 'i128':
      return 16;
    case 'pubkey':
      return 32;
    case 'array':
      return t.len * minSize(t.of!);
    case 'struct':
      return t.fields.reduce((n, f) => n + minSize(f.type), 0);
  }
}

export type LayoutRead =
  | { readonly ok: true; readonly fields: Fields; readonly present: number; readonly trailingBytes: number }
  | {
      readonly ok: false;
      readonly kind: 'truncated' | 'invalid';
      /** The fields read before the one that failed. */
      readonly fields: Fields;
      readonly present: number;
      /** The field that failed (a top-level field name). */
      readonly field: string;
      readonly reason: string;
    };

/** Thrown inside a read only; readFields turns it into its result, so nothing escapes. */
class Stop {
  constructor(
    readonly kind: 'truncated' | 'invalid',
    readonly reason: string,
  ) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const EMPTY_BYTES = new Uint8Array(0);

// u64/i64 go through an 8-byte scratch under 64-bit views: no DataView over the input. A DataView is bound to
// one ArrayBuffer and costs ~130 ns to make; the simulator's (and a router's) instruction data and event bytes
// of one transaction sit in different pool slabs, so one per decode was a measurable share of the budget.
const SCRATCH = new Uint8Array(8);
const SCRATCH_U64 = new BigUint64Array(SCRATCH.buffer);
const SCRATCH_I64 = new BigInt64Array(SCRATCH.buffer);
/** The views read in the platform's byte order; Borsh is little-endian. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** ASCII strings up to this length are built char by char (TradeEvent's ix_name "buy"/"sell"); longer ASCII ones
 * in a Buffer are sliced as latin1 (the same text for bytes below 0x80); the rest go through the validating
 * TextDecoder, whose call and subarray cost more than both for short text. */
const SHORT_ASCII = 8;

// One cursor for every read (reset per call; reads never nest across calls): no object per decode.
class Cursor {
  pos = 0;
  data: Uint8Array = EMPTY_BYTES;

  reset(data: Uint8Array, start: number): this {
    this.data = data;
    this.pos = start;
    return this;
  }

  // The scalar reads on their own: small enough to be inlined into a layout's generated reader (below).
  u8(): number {
    return this.data[this.need(1, 'u8')]!;
  }
  u16(): number {
    const at = this.need(2, 'u16');
    const d = this.data;
    return d[at]! | (d[at + 1]! << 8);
  }
  u32(): number {
    return this.u32At(this.need(4, 'u32'));
  }
  u32At(at: number): number {
    const d = this.data;
    return (d[at]! | (d[at + 1]! << 8) | (d[at + 2]! << 16) | (d[at + 3]! << 24)) >>> 0;
  }
  /** The 8 bytes at `at` into SCRATCH, in the platform's order. */
  load8(at: number): void {
    const d = this.data;
    const s = SCRATCH;
    if (LITTLE_ENDIAN) {
      s[0] = d[at]!;
      s[1] = d[at + 1]!;
      s[2] = d[at + 2]!;
      s[3] = d[at + 3]!;
      s[4] = d[at + 4]!;
      s[5] = d[at + 5]!;
      s[6] = d[at + 6]!;
      s[7] = d[at + 7]!;
    } else {
      for (let i = 0; i < 8; i++) s[7 - i] = d[at + i]!;
    }
  }
  u64(): bigint {
    this.load8(this.need(8, 'u64'));
    return SCRATCH_U64[0]!;
  }
  i64(): bigint {
    this.load8(this.need(8, 'i64'));
    return SCRATCH_I64[0]!;
  }
  bool(): boolean {
    const at = this.need(1, 'bool');
    const b = this.data[at]!;
    if (b > 1) throw new Stop('invalid', `bool byte ${b} at offset ${at} (Borsh takes only 0 or 1)`);
    return b === 1;
  }
  pubkey(): Buffer {
    const at = this.need(32, 'pubkey');
    const key = Buffer.allocUnsafe(32);
    const d = this.data;
    // Four bytes a step: a quarter of the loop's compares and jumps (~25% of a pubkey's cost).
    for (let i = 0; i < 32; i += 4) {
      key[i] = d[at + i]!;
      key[i + 1] = d[at + i + 1]!;
      key[i + 2] = d[at + i + 2]!;
      key[i + 3] = d[at + i + 3]!;
    }
    return key;
  }
  string(): string {
    const at = this.pos;
    const len = this.u32At(this.need(4, 'string length'));
    const start = this.pos;
    // The message is built only when it is thrown (a template per read cost as much as a short string).
    if (this.data.length - start < len) this.need(len, `string of ${len} bytes (length at offset ${at})`);
    this.pos = start + len;
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
    try {
      return utf8.decode(d.subarray(start, end));
    } catch {
      throw new Stop('invalid', `string at offset ${at} is not valid UTF-8 (Borsh rejects it)`);
    }
  }

  /** A vec of `of`, whose items take at least `least` bytes each (the generated readers pass it computed once). */
  vec(of: FieldType, least: number): Value[] {
    const at = this.pos;
    const n = this.u32At(this.need(4, 'vec length'));
    // A length the remaining bytes cannot hold is refused before allocating for it.
    if (n * least > this.data.length - this.pos) {
      throw new Stop(
        'truncated',
        `vec of ${n} items at offset ${at} needs at least ${n * least} bytes, ${this.data.length - this.pos} left`,
      );
    }
    const out: Value[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = this.read(of);
    return out;
  }

  need(n: number, what: string): number {
    const at = this.pos;
    if (this.data.length - at < n) throw new Stop('truncated', `${what} needs ${n} bytes at offset ${at}, ${this.data.length - at} left`);
    this.pos = at + n;
    return at;
  }

  read(t: FieldType): Value {
    // Literal case labels (CODES' values: u8 u16 u32 u64 i64 u128 i128 bool pubkey string option vec array, then
    // struct): a jump table, not a chain of property loads and compares.
    switch (t.code) {
      case 0:
        return this.u8();
      case 1:
        return this.u16();
      case 2:
        return this.u32();
      case 3:
        return this.u64();
      case 4:
        return this.i64();
      case 5: {
        // u128
        const at = this.need(16, 'u128');
        this.load8(at + 8);
        const hi = SCRATCH_U64[0]!;
        this.load8(at);
        return (hi << 64n) | SCRATCH_U64[0]!;
      }
      case 6: {
        // i128
        const at = this.need(16, 'i128');
        this.load8(at + 8);
        const hi = SCRATCH_I64[0]!;
        this.load8(at);
        return (hi << 64n) | SCRATCH_U64[0]!;
      }
      case 7:
        return this.bool();
      case 8:
        return this.pubkey();
      case 9:
        return this.string();
      case 10: {
        // option
        const at = this.need(1, 'option tag');
        const tag = this.data[at]!;
        if (tag === 0) return null;
        if (tag !== 1) throw new Stop('invalid', `option tag ${tag} at offset ${at} (Borsh takes only 0 or 1)`);
        return this.read(t.of!);
      }
      case 11:
        return this.vec(t.of!, minSize(t.of!));
      case 14: {
        // bytes: u32 LE length, then the bytes (a copy)
        const at = this.pos;
        const len = this.u32At(this.need(4, 'bytes length'));
        const start = this.need(len, `bytes of ${len} (length at offset ${at})`);
        return Buffer.from(this.data.subarray(start, start + len));
      }
      case 15: {
        // enum (unit variants): one tag byte
        const at = this.need(1, 'enum tag');
        const tag = this.data[at]!;
        const name = t.variants[tag];
        if (name === undefined) throw new Stop('invalid', `enum ${t.name} tag ${tag} at offset ${at} (${t.variants.length} variants)`);
        return name;
      }
      case 12: {
        // array
        const out: Value[] = new Array(t.len);
        for (let i = 0; i < t.len; i++) out[i] = this.read(t.of!);
        return out;
      }
      default: {
        // struct
        const fs = t.fields;
        if (t.tuple) {
          const out: Value[] = [];
          for (let i = 0; i < fs.length; i++) out.push(this.read(fs[i]!.type));
          return out;
        }
        const o: Fields = {};
        for (let i = 0; i < fs.length; i++) o[fs[i]!.name] = this.read(fs[i]!.type);
        return o;
      }
    }
  }
}

/** A layout's reader: the fields read in order into object literals, one shape per prefix length, generated
 * once per layout (the generic loop's `out[name] = v` stores cost more than the reads). Where the data ends
 * before a field (an older layout) it returns the fields so far, the rest absent, as the generic loop does;
 * throws Stop as `read` does (then the generic loop names the field). */
type FastReader = (c: Cursor) => LayoutRead;

const fastReaders = new WeakMap<readonly Field[], FastReader>();

function fastReaderOf(fields: readonly Field[]): FastReader {
  let r = fastReaders.get(fields);
  if (r !== undefined) return r;
  // The complete LayoutRead in one literal (no wrapper object per read).
  const literal = (n: number): string =>
    `{ ok: true, fields: { ${fields
      .slice(0, n)
      .map((f, i) => `${JSON.stringify(f.name)}: v${i}`)
      .join(', ')} }, present: ${n}, trailingBytes: c.data.length > c.pos ? c.data.length - c.pos : 0 }`;
  const lines: string[] = [];
  const SCALAR_READS: Readonly<Record<string, string>> = {
    u8: 'u8',
    u16: 'u16',
    u32: 'u32',
    u64: 'u64',
    i64: 'i64',
    bool: 'bool',
    pubkey: 'pubkey',
    string: 'string',
  };
  fields.forEach((f, i) => {
    const m = SCALAR_READS[f.type.k];
    const read = m ? `c.${m}()` : f.type.k === 'vec' ? `c.vec(t[${i}].of, ${minSize(f.type.of!)})` : `c.read(t[${i}])`;
    lines.push(`if (c.pos >= c.data.length) return ${literal(i)};`, `const v${i} = ${read};`);
  });
  lines.push(`return ${literal(fields.length)};`);
  // Generated from the table's own field list (names and types parsed above), once per layout.
  const make = new Function('t', `return function read(c) {\n${lines.join('\n')}\n};`) as (t: readonly FieldType[]) => FastReader;
  r = make(fields.map((f) => f.type));
  fastReaders.set(fields, r);
  return r;
}

const cursor = new Cursor();

/**
 * Reads `fields` from `data` starting at `offset`, by prefix (see the header). Never throws.
 */
export function readFields(fields: readonly Field[], data: Uint8Array, offset: number): LayoutRead {
  if (fields.length > 0) {
    const c = cursor.reset(data, offset);
    try {
      return fastReaderOf(fields)(c);
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      // The generic loop below names the field and keeps those before it.
    }
  }
  return readPrefix(fields, data, offset);
}

/** The generic reader: field by field, stopping where the data ends (the rest absent) or a field fails. */
function readPrefix(fields: readonly Field[], data: Uint8Array, offset: number): LayoutRead {
  const c = cursor.reset(data, offset);
  const out: Fields = {};
  let present = 0;
  for (; present < fields.length; present++) {
    if (c.pos >= data.length) break;
    const f = fields[present]!;
    try {
      out[f.name] = c.read(f.type);
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      return { ok: false, kind: e.kind, fields: out, present, field: f.name, reason: `${f.name} (${f.typeText}): ${e.reason}` };
    }
  }
  return { ok: true, fields: out, present, trailingBytes: Math.max(0, data.length - c.pos) };
}

/** The generic reader alone (tests pin the fast path against it). */
export const readFieldsByPrefix = readPrefix;

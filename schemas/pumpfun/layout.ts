// Borsh-style layouts as the programs' tables declare them, read with the one byte reader (schemas/byte-reader.ts). Pure.
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

import { ByteError, ByteReader, byteError } from '../byte-reader.js';
import { compileLayoutReader, type CompiledLayout } from './layout-reader.js';

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

// One reader for every read (reset per call; reads never nest across calls): no object per decode. A read that
// fails throws ByteError (`truncated` or `invalid`), which readFields turns into its result.
const cursor = new ByteReader();

/** A vec of `of`, whose items take at least `least` bytes each (the generated readers pass it computed once). */
function readVec(c: ByteReader, of: FieldType, least: number): Value[] {
  const n = c.count(c.u32('vec length'), least, 'vec');
  const out: Value[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = readValue(c, of);
  return out;
}

/** An enum of unit variants: one tag byte, decoded to the variant's name. */
function readEnum(c: ByteReader, t: FieldType): string {
  const at = c.need(1, 'enum tag');
  const tag = c.data[at]!;
  const name = t.variants[tag];
  if (name === undefined) byteError('invalid', at, `enum ${t.name} tag ${tag} at byte ${at} (${t.variants.length} variants)`);
  return name;
}

function readStruct(c: ByteReader, t: FieldType): Value {
  const fs = t.fields;
  if (t.tuple) {
    const out: Value[] = [];
    for (let i = 0; i < fs.length; i++) out.push(readValue(c, fs[i]!.type));
    return out;
  }
  const o: Fields = {};
  for (let i = 0; i < fs.length; i++) o[fs[i]!.name] = readValue(c, fs[i]!.type);
  return o;
}

function readArray(c: ByteReader, t: FieldType): Value[] {
  const out: Value[] = new Array(t.len);
  for (let i = 0; i < t.len; i++) out[i] = readValue(c, t.of!);
  return out;
}

function readValue(c: ByteReader, t: FieldType): Value {
  // Literal case labels (CODES' values): a jump table, not a chain of property loads and compares.
  switch (t.code) {
    case 0:
      return c.u8();
    case 1:
      return c.u16();
    case 2:
      return c.u32();
    case 3:
      return c.u64();
    case 4:
      return c.i64();
    case 5:
      return c.u128();
    case 6:
      return c.i128();
    case 7:
      return c.bool();
    case 8:
      return c.pubkey();
    case 9:
      return c.string();
    case 10:
      return c.option() ? readValue(c, t.of!) : null;
    case 11:
      return readVec(c, t.of!, minSize(t.of!));
    case 12:
      return readArray(c, t);
    case 14:
      return c.borshBytes();
    case 15:
      return readEnum(c, t);
    default:
      return readStruct(c, t);
  }
}

/** A layout's reader (layout-reader.ts), compiled once per field list. */
const compiled = new WeakMap<readonly Field[], CompiledLayout>();

function compiledOf(fields: readonly Field[]): CompiledLayout {
  let r = compiled.get(fields);
  if (r === undefined) {
    const least = fields.map((f) => (f.type.k === 'vec' ? minSize(f.type.of!) : 0));
    r = compileLayoutReader(fields, readValue, readVec, least);
    compiled.set(fields, r);
  }
  return r;
}

/** A reader of `fields` (what readFields does, without looking the compiled reader up per call): a table's
 * definitions keep theirs. */
export function layoutReader(fields: readonly Field[]): (data: Uint8Array, offset: number) => LayoutRead {
  if (fields.length === 0) return (data, offset) => readPrefix(fields, data, offset);
  const read = compiledOf(fields);
  return (data, offset) => {
    try {
      return read(cursor.reset(data, offset));
    } catch (e) {
      if (!(e instanceof ByteError)) throw e;
      // The generic loop names the field and keeps those before it.
      return readPrefix(fields, data, offset);
    }
  };
}

/**
 * Reads `fields` from `data` starting at `offset`, by prefix (see the header). Never throws.
 */
export function readFields(fields: readonly Field[], data: Uint8Array, offset: number): LayoutRead {
  if (fields.length > 0) {
    try {
      return compiledOf(fields)(cursor.reset(data, offset));
    } catch (e) {
      if (!(e instanceof ByteError)) throw e;
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
      out[f.name] = readValue(c, f.type);
    } catch (e) {
      if (!(e instanceof ByteError) || e.kind === 'out-of-range') throw e;
      return { ok: false, kind: e.kind, fields: out, present, field: f.name, reason: `${f.name} (${f.typeText}): ${e.message}` };
    }
  }
  return { ok: true, fields: out, present, trailingBytes: Math.max(0, data.length - c.pos) };
}

/** The generic reader alone (tests pin the fast path against it). */
export const readFieldsByPrefix = readPrefix;

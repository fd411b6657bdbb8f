// A layout's reader compiled once from its field list (layout.ts reads every instruction and event through it;
// issue 34's budget: ≤ 5 µs of CPU per pump transaction, where one October 2026 trade event is 36-41 fields, five
// to seven of them pubkeys and most of the rest u64s). Pure.
// - Fields of a fixed size (scalars, u128/i128, structs and arrays of them) are read straight from the bytes at
//   offsets known when compiled: a run of them costs ONE length check when the data holds the whole run, instead
//   of a check, a cursor load and a cursor store per field. Where the data ends inside a run (an older, shorter
//   layout) the run is read field by field, stopping at the field boundary where the data ends, as before.
// - Variable-size fields (string, option, vec, bytes, enums) go through the cursor as layout.ts reads them.
// - u64/i64 values below 1,024 (zeros, basis points) come from a table of bigints made once: a bigint is a
//   primitive (the same value whichever object holds it), and the table spares an allocation for each.
// - A read that fails (data ending inside a field, a bool byte other than 0/1) throws ByteError; layout.ts then
//   reads with its field-by-field reader, which names the field: the result is the same either way
//   (fast-paths.realdata.test.ts pins the two against each other).
// The generated code is built from the table's own parsed field list (names are JSON-quoted), never from input.
import { byteError, i128At, i64At, u128At, u64At, type ByteReader } from '../byte-reader.js';
import type { Field, FieldType, LayoutRead } from './layout.js';

const SMALL = 1024;
const SMALL_BIGINTS: readonly bigint[] = Array.from({ length: SMALL }, (_, i) => BigInt(i));

/** The low 32 bits at `p` when the high 32 are zero and the value is small; otherwise -1. */
function smallAt(d: Uint8Array, p: number): number {
  if ((d[p + 4]! | d[p + 5]! | d[p + 6]! | d[p + 7]! | d[p + 3]! | d[p + 2]!) !== 0) return -1;
  const v = d[p]! | (d[p + 1]! << 8);
  return v < SMALL ? v : -1;
}

function u64(d: Uint8Array, p: number): bigint {
  const s = smallAt(d, p);
  if (s >= 0) return SMALL_BIGINTS[s]!;
  return u64At(d, p);
}

function i64(d: Uint8Array, p: number): bigint {
  const s = smallAt(d, p);
  if (s >= 0) return SMALL_BIGINTS[s]!;
  return i64At(d, p);
}

const u128 = u128At;
const i128 = i128At;

function u32(d: Uint8Array, p: number): number {
  return (d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0;
}

function bool(d: Uint8Array, p: number): boolean {
  const b = d[p]!;
  if (b > 1) byteError('invalid', p, `bool byte ${b} at byte ${p}`);
  return b === 1;
}

/** 32 bytes as a Buffer of their own (a decoded key never aliases the input). */
function key(d: Uint8Array, p: number): Buffer {
  const k = Buffer.allocUnsafe(32);
  for (let i = 0; i < 32; i += 4) {
    k[i] = d[p + i]!;
    k[i + 1] = d[p + i + 1]!;
    k[i + 2] = d[p + i + 2]!;
    k[i + 3] = d[p + i + 3]!;
  }
  return k;
}

const HELPERS = { u64, i64, u128, i128, u32, bool, key };

/** A fixed-size value's expression at byte offset `at` (a code string) and its size; null when not fixed. */
interface Fixed {
  readonly size: number;
  readonly expr: (at: string) => string;
}

const SCALARS: Readonly<Record<string, Fixed>> = {
  u8: { size: 1, expr: (at) => `d[${at}]` },
  u16: { size: 2, expr: (at) => `(d[${at}] | (d[${at} + 1] << 8))` },
  u32: { size: 4, expr: (at) => `h.u32(d, ${at})` },
  u64: { size: 8, expr: (at) => `h.u64(d, ${at})` },
  i64: { size: 8, expr: (at) => `h.i64(d, ${at})` },
  u128: { size: 16, expr: (at) => `h.u128(d, ${at})` },
  i128: { size: 16, expr: (at) => `h.i128(d, ${at})` },
  bool: { size: 1, expr: (at) => `h.bool(d, ${at})` },
  pubkey: { size: 32, expr: (at) => `h.key(d, ${at})` },
};

/** Items of a fixed-size sequence (a struct's fields, an array's items) at their offsets from `at`. */
function sequence(types: readonly FieldType[]): { size: number; exprs: (at: string) => string[] } | null {
  const items = types.map(fixedOf);
  if (items.some((i) => i === null)) return null;
  const offsets: number[] = [];
  let size = 0;
  for (const i of items) {
    offsets.push(size);
    size += i!.size;
  }
  return { size, exprs: (at) => items.map((i, n) => i!.expr(`${at} + ${offsets[n]}`)) };
}

/** Arrays of up to this many items are read inline ([pubkey;8]). */
const INLINE_ARRAY = 16;

function fixedOf(t: FieldType): Fixed | null {
  const f = fixedOrEmpty(t);
  // A zero-size value (an empty array) is read as a variable one: the data may end before it.
  return f !== null && f.size > 0 ? f : null;
}

function fixedOrEmpty(t: FieldType): Fixed | null {
  const scalar = SCALARS[t.k];
  if (scalar !== undefined) return scalar;
  if (t.k === 'array' && t.len <= INLINE_ARRAY) {
    const s = sequence(Array.from({ length: t.len }, () => t.of!));
    return s && { size: s.size, expr: (at) => `[${s.exprs(at).join(', ')}]` };
  }
  if (t.k === 'struct' && t.fields.length > 0) {
    const s = sequence(t.fields.map((f) => f.type));
    if (s === null) return null;
    if (t.tuple) return { size: s.size, expr: (at) => `[${s.exprs(at).join(', ')}]` };
    return {
      size: s.size,
      expr: (at) =>
        `{ ${s
          .exprs(at)
          .map((e, i) => `${JSON.stringify(t.fields[i]!.name)}: ${e}`)
          .join(', ')} }`,
    };
  }
  return null;
}

/** The body's lines for fields [from, to) of fixed size: one check for the run, else field by field. */
function fixedRun(fixed: readonly Fixed[], from: number, to: number, lit: (n: number) => string): string[] {
  let size = 0;
  const whole: string[] = [];
  for (let i = from; i < to; i++) {
    whole.push(`v${i} = ${fixed[i]!.expr(`p + ${size}`)};`);
    size += fixed[i]!.size;
  }
  const byField: string[] = [];
  for (let i = from; i < to; i++) {
    const s = fixed[i]!.size;
    byField.push(`if (p >= L) return ${lit(i)};`, `if (L - p < ${s}) h.truncated(p);`, `v${i} = ${fixed[i]!.expr('p')};`, `p += ${s};`);
  }
  return [`if (L - p >= ${size}) {`, ...whole, `p += ${size};`, `} else {`, ...byField, `}`];
}

function variableField(f: Field, i: number, lit: (n: number) => string): string[] {
  const read = f.type.k === 'string' ? 'c.string()' : f.type.k === 'vec' ? `vec(c, t[${i}].of, least[${i}])` : `read(c, t[${i}])`;
  return [`if (p >= L) return ${lit(i)};`, `c.pos = p;`, `v${i} = ${read};`, `p = c.pos;`];
}

export type CompiledLayout = (c: ByteReader) => LayoutRead;

/** The reader of `fields` (see the header); `read`, `vec` and `least` are layout.ts's reader of one value, of a
 * vec, and each vec field's least item size. */
export function compileLayoutReader(
  fields: readonly Field[],
  read: (c: ByteReader, t: FieldType) => unknown,
  vec: (c: ByteReader, of: FieldType, least: number) => unknown,
  least: readonly number[],
): CompiledLayout {
  // The complete LayoutRead in one literal per prefix length (one hidden class per length, no wrapper object).
  const lit = (n: number): string =>
    `{ ok: true, fields: { ${fields
      .slice(0, n)
      .map((f, i) => `${JSON.stringify(f.name)}: v${i}`)
      .join(', ')} }, present: ${n}, trailingBytes: L > p ? L - p : 0 }`;
  const fixed = fields.map((f) => fixedOf(f.type));
  const lines = ['const d = c.data;', 'const L = d.length;', 'let p = c.pos;'];
  if (fields.length > 0) lines.push(`let ${fields.map((_, i) => `v${i}`).join(', ')};`);
  for (let i = 0; i < fields.length;) {
    let end = i;
    while (end < fields.length && fixed[end] !== null) end++;
    if (end > i) {
      lines.push(...fixedRun(fixed as Fixed[], i, end, lit));
      i = end;
    } else {
      lines.push(...variableField(fields[i]!, i, lit));
      i++;
    }
  }
  lines.push(`return ${lit(fields.length)};`);
  const make = new Function('t', 'read', 'vec', 'least', 'h', `return function readLayout(c) {\n${lines.join('\n')}\n};`) as (
    t: readonly FieldType[],
    r: typeof read,
    v: typeof vec,
    l: readonly number[],
    h: typeof HELPERS & { truncated: (p: number) => never },
  ) => CompiledLayout;
  return make(
    fields.map((f) => f.type),
    read,
    vec,
    least,
    { ...HELPERS, truncated: (p: number) => byteError('truncated', p, `truncated at byte ${p}`) },
  );
}

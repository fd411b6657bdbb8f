// The reader's inverse: instruction data and event bytes built from a table's layouts (values in the shapes
// layout.ts decodes to: u64/i64/u128/i128 bigint, u8/u16/u32 number, pubkey 32-byte Buffer, bytes Buffer,
// string, option value or null, vec/array/tuple struct arrays, struct objects, enum variant name). Pure. The
// simulator builds the programs' newer instructions and events with it, and the tests round-trip every entry of
// every table through it. Values for a prefix of the fields make an older layout (the rest left out); a wrong
// value throws, naming the field.
import { EVENT_IX_TAG } from './decoder.js';
import type { Field, FieldType, Value } from './layout.js';
import type { EventDef, InstructionDef } from './program-table.js';

class Writer {
  private buf = Buffer.allocUnsafe(256);
  len = 0;

  private room(n: number): number {
    if (this.len + n > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
    const at = this.len;
    this.len += n;
    return at;
  }

  bytes(b: Uint8Array): void {
    const at = this.room(b.length); // before reading this.buf: room() may replace it
    this.buf.set(b, at);
  }
  u8(n: number): void {
    const at = this.room(1);
    this.buf.writeUInt8(n, at);
  }
  u16(n: number): void {
    const at = this.room(2);
    this.buf.writeUInt16LE(n, at);
  }
  u32(n: number): void {
    const at = this.room(4);
    this.buf.writeUInt32LE(n, at);
  }
  u64(n: bigint): void {
    const at = this.room(8);
    this.buf.writeBigUInt64LE(n, at);
  }
  i64(n: bigint): void {
    const at = this.room(8);
    this.buf.writeBigInt64LE(n, at);
  }
  u128(n: bigint): void {
    if (n < 0n || n >= 1n << 128n) throw new RangeError(`${n} is not a u128`);
    this.u64(n & 0xffffffffffffffffn);
    this.u64(n >> 64n);
  }
  i128(n: bigint): void {
    if (n < -(1n << 127n) || n >= 1n << 127n) throw new RangeError(`${n} is not an i128`);
    this.u128(BigInt.asUintN(128, n));
  }
  done(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.len));
  }
}

function fail(what: string, t: FieldType, v: unknown): never {
  throw new TypeError(`${what}: ${typeof v === 'bigint' ? `${v}n` : JSON.stringify(v)} is not a ${t.k}${t.name ? ` ${t.name}` : ''}`);
}

function writeValue(w: Writer, t: FieldType, v: Value, what: string): void {
  switch (t.k) {
    case 'u8':
    case 'u16':
    case 'u32':
      if (typeof v !== 'number' || !Number.isInteger(v)) fail(what, t, v);
      return t.k === 'u8' ? w.u8(v) : t.k === 'u16' ? w.u16(v) : w.u32(v);
    case 'u64':
    case 'i64':
    case 'u128':
    case 'i128':
      if (typeof v !== 'bigint') fail(what, t, v);
      return w[t.k](v);
    case 'bool':
      if (typeof v !== 'boolean') fail(what, t, v);
      return w.u8(v ? 1 : 0);
    case 'pubkey':
      if (!(v instanceof Uint8Array) || v.length !== 32) fail(what, t, v);
      return w.bytes(v);
    case 'bytes':
      if (!(v instanceof Uint8Array)) fail(what, t, v);
      w.u32(v.length);
      return w.bytes(v);
    case 'string': {
      if (typeof v !== 'string') fail(what, t, v);
      const b = Buffer.from(v, 'utf8');
      w.u32(b.length);
      return w.bytes(b);
    }
    case 'option':
      if (v === null || v === undefined) return w.u8(0);
      w.u8(1);
      return writeValue(w, t.of!, v, what);
    case 'vec':
    case 'array':
      if (!Array.isArray(v) || (t.k === 'array' && v.length !== t.len)) fail(what, t, v);
      if (t.k === 'vec') w.u32(v.length);
      (v as readonly Value[]).forEach((x, i) => writeValue(w, t.of!, x, `${what}[${i}]`));
      return;
    case 'enum': {
      const tag = typeof v === 'string' ? t.variants.indexOf(v) : -1;
      if (tag < 0) fail(what, t, v);
      return w.u8(tag);
    }
    case 'struct':
      if (t.tuple) {
        if (!Array.isArray(v) || v.length !== t.fields.length) fail(what, t, v);
        t.fields.forEach((f, i) => writeValue(w, f.type, (v as readonly Value[])[i]!, `${what}.${i}`));
        return;
      }
      if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) fail(what, t, v);
      for (const f of t.fields) writeValue(w, f.type, (v as Record<string, Value>)[f.name]!, `${what}.${f.name}`);
      return;
  }
}

/**
 * The Borsh bytes of `values` laid out as `fields`: every field up to the last one `values` has (an older
 * layout when that is not the last of `fields`); a field missing before that one throws, naming it.
 */
export function writeFields(fields: readonly Field[], values: Readonly<Record<string, Value>>): Buffer {
  let last = -1;
  fields.forEach((f, i) => {
    if (Object.hasOwn(values, f.name)) last = i;
  });
  for (const k of Object.keys(values)) if (!fields.some((f) => f.name === k)) throw new TypeError(`no field ${k} in the layout`);
  const w = new Writer();
  for (let i = 0; i <= last; i++) {
    const f = fields[i]!;
    if (!Object.hasOwn(values, f.name)) throw new TypeError(`field ${f.name} missing before ${fields[last]!.name}`);
    writeValue(w, f.type, values[f.name]!, f.name);
  }
  return w.done();
}

/** An instruction's data: its discriminator, then its arguments. */
export function encodeInstruction(def: InstructionDef, args: Readonly<Record<string, Value>>): Buffer {
  return Buffer.concat([def.discriminator, writeFields(def.fields, args)]);
}

/** An event's bytes as a `Program data:` log line carries them: discriminator, then fields. */
export function encodeEvent(def: EventDef, fields: Readonly<Record<string, Value>>): Buffer {
  return Buffer.concat([def.discriminator, writeFields(def.fields, fields)]);
}

/** A self-CPI event instruction's data: Anchor's EVENT_IX_TAG, then the event. */
export function encodeEventInstruction(def: EventDef, fields: Readonly<Record<string, Value>>): Buffer {
  return Buffer.concat([EVENT_IX_TAG, encodeEvent(def, fields)]);
}

// The layout reader's inverse, written with the one byte writer (schemas/byte-writer.ts): instruction data and event bytes built from a table's layouts (values in the shapes
// layout.ts decodes to: u64/i64/u128/i128 bigint, u8/u16/u32 number, pubkey 32-byte Buffer, bytes Buffer,
// string, option value or null, vec/array/tuple struct arrays, struct objects, enum variant name). Pure. The
// simulator builds the programs' newer instructions and events with it, and the tests round-trip every entry of
// every table through it. Values for a prefix of the fields make an older layout (the rest left out); a wrong
// value throws, naming the field.
import { ByteWriter } from '../byte-writer.js';
import { EVENT_IX_TAG } from './decoder.js';
import type { Field, FieldType, Value } from './layout.js';
import type { EventDef, InstructionDef } from './program-table.js';

function fail(what: string, t: FieldType, v: unknown): never {
  throw new TypeError(`${what}: ${typeof v === 'bigint' ? `${v}n` : JSON.stringify(v)} is not a ${t.k}${t.name ? ` ${t.name}` : ''}`);
}

function writeValue(w: ByteWriter, t: FieldType, v: Value, what: string): void {
  switch (t.k) {
    case 'u8':
    case 'u16':
    case 'u32':
      if (typeof v !== 'number' || !Number.isInteger(v)) fail(what, t, v);
      w[t.k](v);
      return;
    case 'u64':
    case 'i64':
    case 'u128':
    case 'i128':
      if (typeof v !== 'bigint') fail(what, t, v);
      w[t.k](v);
      return;
    case 'bool':
      if (typeof v !== 'boolean') fail(what, t, v);
      w.bool(v);
      return;
    case 'pubkey':
      if (!(v instanceof Uint8Array) || v.length !== 32) fail(what, t, v);
      w.bytes(v);
      return;
    case 'bytes':
      if (!(v instanceof Uint8Array)) fail(what, t, v);
      w.u32(v.length).bytes(v);
      return;
    case 'string':
      if (typeof v !== 'string') fail(what, t, v);
      w.string(v);
      return;
    case 'option':
      w.bool(v !== null && v !== undefined);
      if (v !== null && v !== undefined) writeValue(w, t.of!, v, what);
      return;
    case 'vec':
    case 'array':
      if (!Array.isArray(v) || (t.k === 'array' && v.length !== t.len)) fail(what, t, v);
      if (t.k === 'vec') w.u32(v.length);
      (v as readonly Value[]).forEach((x, i) => writeValue(w, t.of!, x, `${what}[${i}]`));
      return;
    case 'enum': {
      const tag = typeof v === 'string' ? t.variants.indexOf(v) : -1;
      if (tag < 0) fail(what, t, v);
      w.u8(tag);
      return;
    }
    case 'struct':
      return writeStruct(w, t, v, what);
  }
}

function writeStruct(w: ByteWriter, t: FieldType, v: Value, what: string): void {
  if (t.tuple) {
    if (!Array.isArray(v) || v.length !== t.fields.length) fail(what, t, v);
    t.fields.forEach((f, i) => writeValue(w, f.type, (v as readonly Value[])[i]!, `${what}.${i}`));
    return;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Uint8Array) fail(what, t, v);
  for (const f of t.fields) writeValue(w, f.type, (v as Record<string, Value>)[f.name]!, `${what}.${f.name}`);
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
  const w = new ByteWriter();
  for (let i = 0; i <= last; i++) {
    const f = fields[i]!;
    if (!Object.hasOwn(values, f.name)) throw new TypeError(`field ${f.name} missing before ${fields[last]!.name}`);
    writeValue(w, f.type, values[f.name]!, f.name);
  }
  return Buffer.from(w.done());
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

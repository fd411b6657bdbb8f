// The shape of a program's decoder table (pump-table.ts, pump-amm-table.ts) and the one function that turns
// its compact text into lookups. A table lists every instruction (name, 8-byte discriminator, arguments in
// order, account names in order) and every event (name, discriminator, fields in order) of the program's
// IDL, and after them the fields a later layout appended that the pinned IDL does not have yet (`newer`).
import bs58 from 'bs58';
import { LayoutError, layoutReader, parseFields, type Field, type LayoutRead, type TypeDefs } from './layout.js';

export type PumpProgramName = 'pump' | 'pump_amm' | 'pump_fees';

interface DefBase {
  readonly program: PumpProgramName;
  readonly name: string;
  readonly discriminator: Buffer;
  /** The fields in order: the IDL's, then the newer appended ones. */
  readonly fields: readonly Field[];
  readonly names: readonly string[];
  /** How many of `fields` the pinned IDL has (the rest were appended later). */
  readonly idlFieldCount: number;
  /** Dropped by the newest IDL the table was made from (still decoded: history holds it). */
  readonly retired: boolean;
  /** Reads `fields` from the bytes at `offset` (layout.ts's readFields, its compiled reader kept here). */
  readonly read: (data: Uint8Array, offset: number) => LayoutRead;
}

export interface InstructionDef extends DefBase {
  readonly kind: 'instruction';
  /** Account names in the IDL's order (positional: valid for an instruction with exactly this many). */
  readonly accounts: readonly string[];
}

export interface EventDef extends DefBase {
  readonly kind: 'event';
}

/** One instruction: [name, discriminator hex, args, account names, newer args appended after the IDL's]. */
export type InstructionRow = readonly [name: string, discriminator: string, args: string, accounts: string, newer?: string];
/** One event: [name, discriminator hex, fields, newer fields appended after the IDL's]. */
export type EventRow = readonly [name: string, discriminator: string, fields: string, newer?: string];

export interface ProgramSpec {
  readonly name: PumpProgramName;
  readonly programId: string;
  /** The program's Anchor `__event_authority` PDA (the one account of its self-CPI event instructions). */
  readonly eventAuthority?: string | undefined;
  readonly types: TypeDefs;
  readonly instructions: readonly InstructionRow[];
  readonly events: readonly EventRow[];
  /** Entries the newest IDL dropped (kept: history holds them). */
  readonly retired?: { readonly instructions: readonly string[]; readonly events: readonly string[] } | undefined;
}

export interface ProgramTable {
  readonly name: PumpProgramName;
  readonly programId: string;
  readonly programIdBytes: Buffer;
  readonly eventAuthority: string | undefined;
  readonly types: TypeDefs;
  readonly instructions: readonly InstructionDef[];
  readonly events: readonly EventDef[];
  readonly instructionIndex: DiscriminatorIndex<InstructionDef>;
  readonly eventIndex: DiscriminatorIndex<EventDef>;
}

/** Definitions by their discriminator's key (discriminatorKey), then compared whole. */
export type DiscriminatorIndex<D> = ReadonlyMap<number, readonly D[]>;

/** The key of the discriminator at `at`: its first 30 bits as a number, always a small integer (V8 keys a Map
 * by a small integer without allocating; a full u32 above 2^30 would be a heap number per lookup). */
export const discriminatorKey = (data: Uint8Array, at: number): number =>
  data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | ((data[at + 3]! & 0x3f) << 24);

/** Whether the 8 bytes at `at` are `disc`. The caller checks the length. */
export function hasDiscriminator(data: Uint8Array, at: number, disc: Uint8Array): boolean {
  for (let i = 0; i < 8; i++) if (data[at + i] !== disc[i]) return false;
  return true;
}

/** The definition whose discriminator is the 8 bytes at `at`, if any. The caller checks the length. */
export function lookupDiscriminator<D extends { readonly discriminator: Buffer }>(
  index: DiscriminatorIndex<D>,
  data: Uint8Array,
  at: number,
): D | undefined {
  const candidates = index.get(discriminatorKey(data, at));
  if (candidates === undefined) return undefined;
  for (const d of candidates) if (hasDiscriminator(data, at, d.discriminator)) return d;
  return undefined;
}

function discriminator(hex: string, what: string): Buffer {
  if (!/^[0-9a-f]{16}$/.test(hex)) throw new LayoutError(`${what}: discriminator ${JSON.stringify(hex)} is not 16 hex digits`);
  return Buffer.from(hex, 'hex');
}

function base<K extends 'instruction' | 'event'>(
  kind: K,
  program: PumpProgramName,
  name: string,
  hex: string,
  idl: string,
  newer: string | undefined,
  types: TypeDefs,
  retired: boolean,
) {
  const what = `${program} ${kind} ${name}`;
  try {
    const idlFields = parseFields(idl, types);
    const fields = [...idlFields, ...parseFields(newer ?? '', types)];
    const names = fields.map((f) => f.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup !== undefined) throw new LayoutError(`field ${dup} appears twice`);
    return {
      kind,
      program,
      name,
      discriminator: discriminator(hex, what),
      fields,
      names,
      idlFieldCount: idlFields.length,
      retired,
      read: layoutReader(fields),
    };
  } catch (e) {
    throw new LayoutError(`${what}: ${(e as Error).message}`);
  }
}

function indexOf<D extends DefBase>(defs: readonly D[], what: string): DiscriminatorIndex<D> {
  const map = new Map<number, D[]>();
  for (const d of defs) {
    const other = lookupDiscriminator(map, d.discriminator, 0);
    if (other !== undefined)
      throw new LayoutError(`${what}: ${d.name} and ${other.name} share discriminator ${d.discriminator.toString('hex')}`);
    const key = discriminatorKey(d.discriminator, 0);
    map.set(key, [...(map.get(key) ?? []), d]);
  }
  return map;
}

export function defineProgram(spec: ProgramSpec): ProgramTable {
  const retiredIx = new Set(spec.retired?.instructions ?? []);
  const retiredEv = new Set(spec.retired?.events ?? []);
  const instructions: InstructionDef[] = spec.instructions.map(([name, hex, args, accounts, newer]) => ({
    ...base('instruction', spec.name, name, hex, args, newer, spec.types, retiredIx.has(name)),
    accounts: accounts.split(/\s+/).filter(Boolean),
  }));
  const events: EventDef[] = spec.events.map(([name, hex, fields, newer]) =>
    base('event', spec.name, name, hex, fields, newer, spec.types, retiredEv.has(name)),
  );
  return {
    name: spec.name,
    programId: spec.programId,
    programIdBytes: Buffer.from(bs58.decode(spec.programId)),
    eventAuthority: spec.eventAuthority,
    types: spec.types,
    instructions,
    events,
    instructionIndex: indexOf(instructions, `${spec.name} instructions`),
    eventIndex: indexOf(events, `${spec.name} events`),
  };
}

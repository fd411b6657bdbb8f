// Published Anchor IDLs (the 0.30+ JSON form pump-fun/pump-public-docs publishes) into the project's own compact
// table (program-table.ts's ProgramSpec). Pure: the caller reads the files. Used by scripts/gen-pump-tables.ts to
// write the bundled tables and by the loader (table-source.ts) when an operator points --pump-idl & co. at an IDL.
// Checked on the way in: every discriminator is recomputed from its name (sha256("global:<name>") for an
// instruction, sha256("event:<Name>") for an event, first 8 bytes) and must equal the IDL's; a type outside the
// reader's vocabulary (layout.ts) is refused with the program, entry and field named.
// Several generations of one program (oldest first) merge into one table: each entry takes its newest layout,
// which must extend every older one (fields are only ever appended: an older layout decodes as a prefix); an
// entry the newest IDL dropped stays, listed as retired (history still holds it and replays decode it).
import { anchorDiscriminator } from './discriminators.js';
import { LayoutError } from './layout.js';
import type { EventRow, InstructionRow, ProgramSpec, PumpProgramName } from './program-table.js';

export interface AnchorIdlType {
  readonly name: string;
  readonly type: {
    readonly kind: string;
    readonly fields?: readonly (unknown | { readonly name: string; readonly type: unknown })[];
    readonly variants?: readonly { readonly name: string; readonly fields?: readonly unknown[] }[];
  };
  readonly generics?: unknown;
}

export interface AnchorIdl {
  readonly address: string;
  readonly metadata: { readonly name: string; readonly version?: string };
  readonly instructions: readonly {
    readonly name: string;
    readonly discriminator: readonly number[];
    readonly accounts: readonly { readonly name: string; readonly accounts?: unknown }[];
    readonly args: readonly { readonly name: string; readonly type: unknown }[];
  }[];
  readonly events?: readonly { readonly name: string; readonly discriminator: readonly number[] }[];
  readonly types?: readonly AnchorIdlType[];
}

export const PROGRAM_NAMES: readonly PumpProgramName[] = ['pump', 'pump_amm', 'pump_fees'];

const PRIMITIVES = new Set(['u8', 'u16', 'u32', 'u64', 'i64', 'u128', 'i128', 'bool', 'pubkey', 'string', 'bytes']);

/** Whether a parsed JSON value looks like an Anchor IDL (as opposed to the compact table). */
export function isAnchorIdl(v: unknown): v is AnchorIdl {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return typeof o.address === 'string' && Array.isArray(o.instructions) && o.metadata !== null && typeof o.metadata === 'object';
}

class Converter {
  /** Helper structs and enums the layouts use, as layout.ts text. */
  readonly types: Record<string, string> = {};
  private readonly byName: ReadonlyMap<string, AnchorIdlType>;

  constructor(
    private readonly idl: AnchorIdl,
    private readonly events: ReadonlySet<string>,
  ) {
    this.byName = new Map((idl.types ?? []).map((t) => [t.name, t]));
  }

  /** The layout.ts text of an IDL type; `where` names the field for the error. */
  typeText(t: unknown, where: string): string {
    if (typeof t === 'string') {
      if (PRIMITIVES.has(t)) return t;
      throw new LayoutError(`${where}: type ${JSON.stringify(t)} is not one the decoder reads`);
    }
    if (t !== null && typeof t === 'object') {
      const o = t as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && (keys[0] === 'option' || keys[0] === 'vec')) return `${keys[0]}<${this.typeText(o[keys[0]], where)}>`;
      if (keys.length === 1 && keys[0] === 'array' && Array.isArray(o.array) && o.array.length === 2 && Number.isInteger(o.array[1]))
        return `[${this.typeText(o.array[0], where)};${o.array[1] as number}]`;
      if (keys.length === 1 && keys[0] === 'defined') {
        const d = o.defined as { name?: unknown; generics?: unknown } | string;
        const name = typeof d === 'string' ? d : d.name;
        if (typeof name !== 'string' || (typeof d === 'object' && d.generics !== undefined))
          throw new LayoutError(`${where}: defined type ${JSON.stringify(d)} is not one the decoder reads (generics)`);
        this.define(name, where);
        return name;
      }
    }
    throw new LayoutError(`${where}: type ${JSON.stringify(t)} is not one the decoder reads`);
  }

  /** Adds the helper type `name` (and those it uses) to `types`. */
  private define(name: string, where: string): void {
    if (Object.hasOwn(this.types, name)) return;
    if (this.events.has(name)) throw new LayoutError(`${where}: type ${name} is an event, not a helper type`);
    const t = this.byName.get(name);
    if (t === undefined) throw new LayoutError(`${where}: type ${name} is not defined in the IDL`);
    if (t.generics !== undefined) throw new LayoutError(`${where}: type ${name} has generics (not read)`);
    this.types[name] = ''; // placeholder: a type that contains itself is refused by layout.ts
    if (t.type.kind === 'enum') {
      const variants = t.type.variants ?? [];
      const withData = variants.find((v) => (v.fields ?? []).length > 0);
      if (withData !== undefined) throw new LayoutError(`${where}: enum ${name} variant ${withData.name} carries data (not read)`);
      this.types[name] = ['enum', ...variants.map((v) => v.name)].join(' ');
      return;
    }
    if (t.type.kind !== 'struct') throw new LayoutError(`${where}: type ${name} is a ${t.type.kind} (not read)`);
    this.types[name] = this.fieldsText(t.type.fields ?? [], `${where} (${name})`);
  }

  /** A struct's fields as `name:type …`, or a tuple struct's as `type …`. */
  fieldsText(fields: readonly unknown[], where: string): string {
    return fields
      .map((f, i) => {
        if (f !== null && typeof f === 'object' && 'name' in f && 'type' in f) {
          const nf = f as { name: string; type: unknown };
          return `${nf.name}:${this.typeText(nf.type, `${where} field ${nf.name}`)}`;
        }
        return this.typeText(f, `${where} field ${i}`);
      })
      .join(' ');
  }
}

const hex = (bytes: readonly number[]): string => Buffer.from(bytes).toString('hex');

function checkDiscriminator(ns: 'global' | 'event', name: string, given: readonly number[], what: string): string {
  const want = anchorDiscriminator(ns, name).toString('hex');
  const got = Array.isArray(given) ? hex(given) : String(given);
  if (got !== want) throw new LayoutError(`${what}: discriminator ${got} in the IDL, sha256("${ns}:${name}")[0..8] is ${want}`);
  return want;
}

function flatAccounts(accounts: readonly { name: string; accounts?: unknown }[]): string[] {
  return accounts.flatMap((a) =>
    Array.isArray(a.accounts) ? flatAccounts(a.accounts as { name: string; accounts?: unknown }[]) : [a.name],
  );
}

interface Generation {
  readonly instructions: ReadonlyMap<string, InstructionRow>;
  readonly events: ReadonlyMap<string, EventRow>;
  readonly types: Readonly<Record<string, string>>;
}

/** One IDL's entries, checked. */
function generation(idl: AnchorIdl): Generation {
  const program = idl.metadata.name;
  const eventNames = new Set((idl.events ?? []).map((e) => e.name));
  const c = new Converter(idl, eventNames);
  const instructions = new Map<string, InstructionRow>();
  for (const ix of idl.instructions) {
    const what = `${program} instruction ${ix.name}`;
    const disc = checkDiscriminator('global', ix.name, ix.discriminator, what);
    const args = c.fieldsText(ix.args, what);
    instructions.set(ix.name, [ix.name, disc, args, flatAccounts(ix.accounts).join(' ')]);
  }
  const types = new Map((idl.types ?? []).map((t) => [t.name, t]));
  const events = new Map<string, EventRow>();
  for (const ev of idl.events ?? []) {
    const what = `${program} event ${ev.name}`;
    const disc = checkDiscriminator('event', ev.name, ev.discriminator, what);
    const t = types.get(ev.name);
    if (t === undefined || t.type.kind !== 'struct') throw new LayoutError(`${what}: no struct type of that name in the IDL`);
    events.set(ev.name, [ev.name, disc, c.fieldsText(t.type.fields ?? [], what)]);
  }
  return { instructions, events, types: c.types };
}

const fieldList = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** Whether `older`'s fields are the first fields of `newer` (same names and types, in order). */
function extendsLayout(older: string, newer: string): boolean {
  const a = fieldList(older);
  const b = fieldList(newer);
  return a.length <= b.length && a.every((f, i) => f === b[i]);
}

export interface MergeOptions {
  /** The program's `__event_authority` PDA (the generator derives it; the loader may leave it out). */
  readonly eventAuthority?: string;
}

/**
 * One program's table from its IDLs, oldest first (one IDL is the common case). Throws LayoutError naming the
 * program, entry and field when an IDL fails a check, when the IDLs are of different programs, or when a newer
 * layout does not extend an older one (then an older transaction could not decode by prefix).
 */
export function specFromIdls(idls: readonly AnchorIdl[], options: MergeOptions = {}): ProgramSpec {
  if (idls.length === 0) throw new LayoutError('no IDL given');
  const newest = idls[idls.length - 1]!;
  const name = newest.metadata.name;
  if (!(PROGRAM_NAMES as readonly string[]).includes(name))
    throw new LayoutError(`IDL of program ${JSON.stringify(name)}: the decoder knows ${PROGRAM_NAMES.join(', ')}`);
  for (const idl of idls) {
    if (idl.metadata.name !== name || idl.address !== newest.address)
      throw new LayoutError(`IDLs of different programs: ${idl.metadata.name} ${idl.address} and ${name} ${newest.address}`);
  }
  const gens = idls.map(generation);
  const instructions = new Map<string, InstructionRow>();
  const events = new Map<string, EventRow>();
  const types: Record<string, string> = {};
  const retiredInstructions: string[] = [];
  const retiredEvents: string[] = [];
  const merge = <R extends InstructionRow | EventRow>(into: Map<string, R>, rows: ReadonlyMap<string, R>, what: string): void => {
    for (const [n, row] of rows) {
      const before = into.get(n);
      if (before !== undefined && !extendsLayout(before[2], row[2]))
        throw new LayoutError(`${name} ${what} ${n}: the newer layout (${row[2]}) does not extend the older one (${before[2]})`);
      into.set(n, row);
    }
  };
  for (const g of gens) {
    merge(instructions, g.instructions, 'instruction');
    merge(events, g.events, 'event');
    for (const [t, text] of Object.entries(g.types)) {
      if (Object.hasOwn(types, t) && !extendsLayout(types[t]!, text))
        throw new LayoutError(`${name} type ${t}: the newer definition (${text}) does not extend the older one (${types[t]})`);
      types[t] = text;
    }
  }
  const last = gens[gens.length - 1]!;
  for (const n of instructions.keys()) if (!last.instructions.has(n)) retiredInstructions.push(n);
  for (const n of events.keys()) if (!last.events.has(n)) retiredEvents.push(n);
  const byName = <R extends readonly [string, ...unknown[]]>(rows: Iterable<R>): R[] => [...rows].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return {
    name: name as PumpProgramName,
    programId: newest.address,
    eventAuthority: options.eventAuthority,
    types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => (a < b ? -1 : 1))),
    instructions: byName(instructions.values()),
    events: byName(events.values()),
    retired: { instructions: retiredInstructions.sort(), events: retiredEvents.sort() },
  };
}

// The loader: a program's decoder table from a file's text, in either form — the project's compact table (what
// scripts/gen-pump-tables.ts writes; the bundled defaults in tables/) or a published Anchor IDL (anchor-idl.ts
// converts it). Pure: the caller reads the file. Checked when loaded, whatever the form: the program is one the
// decoder knows (and the one expected), every discriminator equals sha256("global:<name>") /
// sha256("event:<Name>"), every type is one the reader takes (the error names program, entry and field).
import { anchorDiscriminator } from './discriminators.js';
import { isAnchorIdl, PROGRAM_NAMES, specFromIdls } from './anchor-idl.js';
import { LayoutError } from './layout.js';
import {
  defineProgram,
  type EventRow,
  type InstructionRow,
  type ProgramSpec,
  type ProgramTable,
  type PumpProgramName,
} from './program-table.js';

/** The compact form's format tag (bumped on an incompatible change). */
export const TABLE_FORMAT = 'slotstream.pump-table/1';

/** The compact form as stored (JSON): a ProgramSpec plus where it came from. */
export interface CompactTable extends ProgramSpec {
  readonly format: typeof TABLE_FORMAT;
  /** The IDLs it was generated from (oldest first), for people. */
  readonly sources: readonly string[];
}

const isStringTuple = (v: unknown, min: number, max: number): v is string[] =>
  Array.isArray(v) && v.length >= min && v.length <= max && v.every((x) => typeof x === 'string');

function compactSpec(o: Record<string, unknown>, origin: string): ProgramSpec {
  const bad = (what: string): never => {
    throw new LayoutError(`${origin}: ${what}`);
  };
  if (o.format !== TABLE_FORMAT) bad(`format ${JSON.stringify(o.format)}, expected ${TABLE_FORMAT}`);
  if (typeof o.name !== 'string' || !(PROGRAM_NAMES as readonly string[]).includes(o.name))
    bad(`program ${JSON.stringify(o.name)}: the decoder knows ${PROGRAM_NAMES.join(', ')}`);
  if (typeof o.programId !== 'string') bad('programId is not a string');
  if (o.eventAuthority !== undefined && typeof o.eventAuthority !== 'string') bad('eventAuthority is not a string');
  const types = o.types ?? {};
  if (types === null || typeof types !== 'object' || Object.values(types).some((t) => typeof t !== 'string'))
    bad('types is not an object of strings');
  if (!Array.isArray(o.instructions) || !o.instructions.every((r) => isStringTuple(r, 4, 5)))
    bad('instructions is not a list of [name, discriminator, args, accounts, newer?]');
  if (!Array.isArray(o.events) || !o.events.every((r) => isStringTuple(r, 3, 4)))
    bad('events is not a list of [name, discriminator, fields, newer?]');
  const retired = o.retired as ProgramSpec['retired'];
  if (
    retired !== undefined &&
    (retired === null || !isStringTuple(retired.instructions, 0, Infinity) || !isStringTuple(retired.events, 0, Infinity))
  )
    bad('retired is not { instructions: string[], events: string[] }');
  const instructions = o.instructions as InstructionRow[];
  const events = o.events as EventRow[];
  for (const [name, disc] of instructions) {
    const want = anchorDiscriminator('global', name).toString('hex');
    if (disc !== want) bad(`instruction ${name}: discriminator ${disc}, sha256("global:${name}")[0..8] is ${want}`);
  }
  for (const [name, disc] of events) {
    const want = anchorDiscriminator('event', name).toString('hex');
    if (disc !== want) bad(`event ${name}: discriminator ${disc}, sha256("event:${name}")[0..8] is ${want}`);
  }
  return {
    name: o.name as PumpProgramName,
    programId: o.programId as string,
    eventAuthority: o.eventAuthority as string | undefined,
    types: types as Record<string, string>,
    instructions,
    events,
    retired,
  };
}

/** A ProgramSpec from a parsed file (compact table or Anchor IDL). Throws LayoutError naming `origin`. */
export function specFromJson(v: unknown, origin: string): ProgramSpec {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new LayoutError(`${origin}: not a JSON object`);
  const o = v as Record<string, unknown>;
  if ('format' in o) return compactSpec(o, origin);
  if (isAnchorIdl(v)) {
    try {
      return specFromIdls([v]);
    } catch (e) {
      throw new LayoutError(`${origin}: ${(e as Error).message}`);
    }
  }
  throw new LayoutError(`${origin}: neither a compact pump table (no "format") nor an Anchor IDL (address, metadata, instructions)`);
}

/**
 * A program's table from a file's text. `expected` (when given) is the program the file must be of (an
 * operator's --pump-amm-idl pointing at the pump IDL is refused, not loaded in its place).
 */
export function loadProgramTable(text: string, origin: string, expected?: PumpProgramName): ProgramTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new LayoutError(`${origin}: not JSON (${(e as Error).message})`);
  }
  const spec = specFromJson(parsed, origin);
  if (expected !== undefined && spec.name !== expected) throw new LayoutError(`${origin}: a table of ${spec.name}, expected ${expected}`);
  try {
    return defineProgram(spec);
  } catch (e) {
    throw new LayoutError(`${origin}: ${(e as Error).message}`);
  }
}

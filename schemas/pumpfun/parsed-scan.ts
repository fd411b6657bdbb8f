// A transaction's SubscribeParsed content: every decodable pump.fun and PumpSwap instruction (top-level and
// inner) and self-CPI event as proto messages, the programs involved, whether it failed, and the accounts the
// server joins the update with (the first pump.fun instruction's bonding curve, the first PumpSwap
// instruction's pool). Pure.
import type { Event, Instruction, ParsedTrade } from '../../proto/gen/stream.js';
import type { TransactionEvent } from '../gen/events.js';
import { extractPumpTransaction, type PumpEventAt, type PumpInstructionAt } from './extract.js';
import type { Field } from './layout.js';
import type { PumpProgramName } from './program-table.js';
import { toProtoEvent, toProtoInstruction } from './to-proto.js';
import { tradesOf } from './trades.js';

export interface ParsedScan {
  readonly instructions: Instruction[];
  readonly events: Event[];
  /** Instruction and event names (IDL spelling) in the same order as `instructions`/`events`. */
  readonly instructionNames: string[];
  readonly eventNames: string[];
  /** The pubkeys each event carries (for mint filters), parallel to `events`. */
  readonly eventKeys: Buffer[][];
  readonly programs: readonly PumpProgramName[];
  readonly failed: boolean;
  readonly err: string | undefined;
  readonly curve: Buffer | undefined;
  readonly pool: Buffer | undefined;
  /** The instructions and events no loaded table decodes (delivered as `unknown`; the ingest counts them). */
  readonly undecoded: readonly UndecodedAt[];
  /** The trades and fee sweeps as a trader counts them (trades.ts). */
  readonly trades: ParsedTrade[];
}

export interface UndecodedAt {
  readonly program: PumpProgramName;
  readonly entry: 'instruction' | 'event';
  readonly kind: 'unknown' | 'truncated' | 'invalid';
}

const EMPTY = Buffer.alloc(0);

function dataOf(tx: TransactionEvent, x: { index: number; innerIndex: number | undefined }): Uint8Array {
  if (x.innerIndex === undefined) return tx.instructions[x.index]?.data ?? EMPTY;
  for (const g of tx.innerInstructions) if (g.index === x.index) return g.instructions[x.innerIndex]?.data ?? EMPTY;
  return EMPTY;
}

/** The account the instruction names `name` (by its table's account order), when it passes that many. */
function accountNamed(x: PumpInstructionAt, name: string): Buffer | undefined {
  if (x.decoded.kind !== 'decoded' && x.decoded.kind !== 'truncated' && x.decoded.kind !== 'invalid') return undefined;
  const def = x.decoded.def;
  if (def === undefined || !('accounts' in def)) return undefined;
  const at = def.accounts.indexOf(name);
  return at < 0 ? undefined : x.accounts[at];
}

function pubkeysOf(v: unknown, out: Buffer[]): void {
  if (Buffer.isBuffer(v)) {
    if (v.length === 32) out.push(v);
  } else if (Array.isArray(v)) for (const x of v) pubkeysOf(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) pubkeysOf(x, out);
}

// Per event definition, its fields that can hold pubkeys, in order: a pubkey is taken as it is, anything
// else (option, vec, array, struct) walked as pubkeysOf does; scalars are skipped without a look. The same keys
// in the same order as pubkeysOf over the fields object (its values are the present fields, in table order).
const keyFields = new WeakMap<readonly Field[], readonly (readonly [name: string, direct: boolean])[]>();

function keyFieldsOf(fields: readonly Field[]): readonly (readonly [string, boolean])[] {
  let k = keyFields.get(fields);
  if (k === undefined) {
    const scalar = new Set(['u8', 'u16', 'u32', 'u64', 'i64', 'u128', 'i128', 'bool', 'string']);
    k = fields.filter((f) => !scalar.has(f.type.k)).map((f) => [f.name, f.type.k === 'pubkey'] as const);
    keyFields.set(fields, k);
  }
  return k;
}

/** The pubkeys a decoded event carries, in field order (for mint filters). */
export function eventKeysOf(e: PumpEventAt): Buffer[] {
  const keys: Buffer[] = [];
  const d = e.decoded;
  if (d.kind !== 'decoded') return keys;
  for (const [name, direct] of keyFieldsOf(d.def.fields)) {
    if (!Object.hasOwn(d.fields, name)) continue;
    const v = d.fields[name];
    if (direct && Buffer.isBuffer(v) && v.length === 32) keys.push(v);
    else if (!direct) pubkeysOf(v, keys);
  }
  return keys;
}

/** eventKeysOf by walking every value (tests pin eventKeysOf against it). */
export function eventKeysByWalk(e: PumpEventAt): Buffer[] {
  const keys: Buffer[] = [];
  if (e.decoded.kind === 'decoded') pubkeysOf(e.decoded.fields, keys);
  return keys;
}

export function scanParsedTransaction(tx: TransactionEvent): ParsedScan {
  const p = extractPumpTransaction(tx);
  const instructions: Instruction[] = [];
  const instructionNames: string[] = [];
  let curve: Buffer | undefined;
  let pool: Buffer | undefined;
  const undecoded: UndecodedAt[] = [];
  for (const x of p.instructions) {
    const m = toProtoInstruction(x, dataOf(tx, x));
    instructions.push(m);
    if (x.decoded.kind !== 'decoded' && m.instructionOneof?.$case === 'unknown')
      undecoded.push({ program: x.program, entry: 'instruction', kind: x.decoded.kind });
    // Undecodable: the seed's member name where the seed's decoder read it, else 'unknown'.
    instructionNames.push(x.decoded.kind === 'decoded' ? x.decoded.name : (m.instructionOneof?.$case ?? 'unknown'));
    if (x.program === 'pump') curve ??= accountNamed(x, 'bonding_curve');
    else pool ??= accountNamed(x, 'pool');
  }
  const events: Event[] = [];
  const eventNames: string[] = [];
  const eventKeys: Buffer[][] = [];
  for (const e of p.events) {
    const d = e.decoded;
    // The event's bytes after Anchor's 8-byte event tag (only read when it did not decode).
    const m = toProtoEvent(e, d.kind === 'decoded' ? EMPTY : dataOf(tx, e).subarray(8));
    events.push(m);
    if (d.kind === 'decoded') eventNames.push(d.name);
    else {
      eventNames.push('unknown');
      undecoded.push({ program: e.program, entry: 'event', kind: d.kind });
    }
    eventKeys.push(eventKeysOf(e));
  }
  return {
    instructions,
    events,
    instructionNames,
    eventNames,
    eventKeys,
    programs: p.programs,
    failed: p.failed,
    err: p.err,
    curve,
    pool,
    undecoded,
    trades: p.events.length === 0 ? [] : tradesOf(p.instructions, p.events),
  };
}

// Every pump.fun and PumpSwap instruction and self-CPI event of a transaction (the event model's
// TransactionEvent), in execution order: a top-level instruction, then the inner ones it invoked (meta's inner
// instruction group with its index). Pure.
// - An instruction of either program counts wherever it runs: top level, or inner (invoked by a router, or by
//   the other program: pump's `migrate` calls PumpSwap's `create_pool`). Inner ones carry their stack height and
//   the program of the top-level instruction that invoked them.
// - A self-CPI event instruction (Anchor's event CPI: data EVENT_IX_TAG + the event, invoked by the program
//   itself through its event authority) is an event, not an instruction. Other programs emit events with the
//   same tag, so the program id is matched first; and one that was not invoked by the same program (as far as
//   stack heights tell) is not taken for an event: Anchor only accepts it signed by the program's own PDA.
// - Program and account indexes address static keys, then loaded writable, then loaded readonly (v0 lookup
//   order); an index past the end names no key (undefined), never a wrong one.
import type { TransactionEvent } from '../gen/events.js';
import { decodeEventInstruction, decodeInstruction, isEventInstruction, type EventDecode, type InstructionDecode } from './decoder.js';
import { activeTables } from './active-tables.js';
import type { ProgramTable, PumpProgramName } from './program-table.js';

export interface PumpInstructionAt {
  readonly program: PumpProgramName;
  /** The top-level instruction's index in the message. */
  readonly index: number;
  /** Position inside that top-level instruction's inner group; undefined for the top-level instruction itself. */
  readonly innerIndex: number | undefined;
  readonly inner: boolean;
  /** 1 at top level; an inner one's from the meta (undefined in blocks older than Solana 1.14.6). */
  readonly stackHeight: number | undefined;
  /** Program id of the top-level instruction that invoked it (inner only). */
  readonly invokedBy: Buffer | undefined;
  /** The instruction's accounts in order (undefined where an index names no key). */
  readonly accounts: readonly (Buffer | undefined)[];
  readonly decoded: InstructionDecode;
}

export interface PumpEventAt {
  readonly program: PumpProgramName;
  /** The top-level instruction's index and the event instruction's position in its inner group. */
  readonly index: number;
  readonly innerIndex: number;
  readonly stackHeight: number | undefined;
  readonly decoded: EventDecode;
}

export interface PumpTransaction {
  readonly instructions: readonly PumpInstructionAt[];
  readonly events: readonly PumpEventAt[];
  /** The programs whose instructions (or events) the transaction carries: pump, pump_amm, pump_fees in that order. */
  readonly programs: readonly PumpProgramName[];
  readonly failed: boolean;
  /** The error in Agave's JSON form, when it failed. */
  readonly err: string | undefined;
}

type Keyed = Pick<TransactionEvent, 'accountKeys' | 'loadedWritable' | 'loadedReadonly'>;

/** The key at a message index: static keys, then loaded writable, then loaded readonly. */
export function keyAt(tx: Keyed, index: number): Buffer | undefined {
  if (index < tx.accountKeys.length) return tx.accountKeys[index];
  index -= tx.accountKeys.length;
  if (index < tx.loadedWritable.length) return tx.loadedWritable[index];
  return tx.loadedReadonly[index - tx.loadedWritable.length];
}

/** Whether `key` is `id` (both 32 bytes): compared here, as a call into Buffer#equals costs more than the loop. */
function sameKey(key: Buffer, id: Buffer): boolean {
  if (key.length !== 32) return false;
  for (let i = 0; i < 32; i++) if (key[i] !== id[i]) return false;
  return true;
}

// The tables this transaction decodes with (read once per transaction: a reload applies from the next one).
let tables: readonly ProgramTable[] = activeTables().all;

function tableOf(key: Buffer | undefined): ProgramTable | null {
  if (key === undefined) return null;
  for (let i = 0; i < tables.length; i++) {
    const t = tables[i]!;
    if (key[0] === t.programIdBytes[0] && sameKey(key, t.programIdBytes)) return t;
  }
  return null;
}

function accountsOf(tx: Keyed, indexes: Uint8Array): (Buffer | undefined)[] {
  const keys = tx.accountKeys;
  const n = keys.length;
  const out = new Array<Buffer | undefined>(indexes.length);
  for (let i = 0; i < indexes.length; i++) {
    const k = indexes[i]!;
    out[i] = k < n ? keys[k] : keyAt(tx, k);
  }
  return out;
}

// Program index → its table, or null for neither program; filled on first use (few distinct programs per
// transaction). Module-level and stamped per call (`gen`): nothing allocated or cleared on the path every
// transaction takes (clearing an array by setting its length reallocates its backing store).
const SLOTS = 256; // a message addresses at most 256 keys (u8 indexes)
const tableStamp = new Uint32Array(SLOTS);
const tableOfIndex: (ProgramTable | null)[] = new Array<ProgramTable | null>(SLOTS).fill(null);
let gen = 0;
// callers[h]: the table (or null) of the instruction running at stack height h, for the self-CPI check; valid
// when callerStamp[h] is the current group's stamp (`groupGen`). Heights are small (the runtime caps CPI depth).
const MAX_HEIGHT = 64;
const callerStamp = new Uint32Array(MAX_HEIGHT);
const callers: (ProgramTable | null)[] = new Array<ProgramTable | null>(MAX_HEIGHT).fill(null);
let groupGen = 0;

function classify(tx: Keyed, programIdIndex: number): ProgramTable | null {
  if (programIdIndex >= SLOTS) return tableOf(keyAt(tx, programIdIndex));
  if (tableStamp[programIdIndex] === gen) return tableOfIndex[programIdIndex]!;
  const t = tableOf(keyAt(tx, programIdIndex));
  tableStamp[programIdIndex] = gen;
  tableOfIndex[programIdIndex] = t;
  return t;
}

/** The table of the instruction running at height `h` in the current group; undefined when none was seen. */
function callerAt(h: number): ProgramTable | null | undefined {
  return h >= 0 && h < MAX_HEIGHT && callerStamp[h] === groupGen ? callers[h] : undefined;
}

function setCaller(h: number, t: ProgramTable | null): void {
  if (h < 0 || h >= MAX_HEIGHT) return;
  callerStamp[h] = groupGen;
  callers[h] = t;
}

function nextStamp(n: number): number {
  return n >= 0xffffffff ? 1 : n + 1;
}

// The programs a transaction involves, by bit (pump 1, pump_amm 2, pump_fees 4): one frozen list per set.
const PROGRAM_BIT: Readonly<Record<PumpProgramName, number>> = { pump: 1, pump_amm: 2, pump_fees: 4 };
const PROGRAM_SETS: readonly (readonly PumpProgramName[])[] = Array.from({ length: 8 }, (_, bits) =>
  Object.freeze((['pump', 'pump_amm', 'pump_fees'] as const).filter((p) => (bits & PROGRAM_BIT[p]) !== 0)),
);

type InnerGroup = TransactionEvent['innerInstructions'][number];

/** Where the inner instruction group of top-level instruction `index` is (-1: none). The meta lists groups by
 * index, in order as Agave writes them: `hint` (the place after the last group found) is tried first. */
function groupAt(groups: readonly InnerGroup[], index: number, hint: number): number {
  if (hint < groups.length && groups[hint]!.index === index) return hint;
  for (let i = 0; i < groups.length; i++) if (groups[i]!.index === index) return i;
  return -1;
}

/** A new generation of the per-index caches (stamped), for one transaction; reloaded tables reset them. */
function nextTransaction(): void {
  gen = nextStamp(gen);
  if (gen === 1) tableStamp.fill(0);
  const t = activeTables().all;
  if (t !== tables) {
    // Reloaded tables: the per-index cache (stamped) must not hand out the old ones.
    tables = t;
    tableStamp.fill(0);
    gen = 1;
  }
}

/** The pump instructions and self-CPI events among the inner instructions of top-level instruction `index`; returns
 * the programs involved (bits). */
function extractInner(
  tx: TransactionEvent,
  index: number,
  topTable: ProgramTable | null,
  group: NonNullable<TransactionEvent['innerInstructions']>[number],
  instructions: PumpInstructionAt[],
  events: PumpEventAt[],
): number {
  groupGen = nextStamp(groupGen);
  if (groupGen === 1) callerStamp.fill(0);
  setCaller(1, topTable);
  let involved = 0;
  let invokedBy: Buffer | undefined;
  for (let innerIndex = 0; innerIndex < group.instructions.length; innerIndex++) {
    const ix = group.instructions[innerIndex]!;
    const table = classify(tx, ix.programIdIndex);
    const h = ix.stackHeight;
    if (h !== undefined) setCaller(h, table);
    if (table === null) continue;
    involved |= PROGRAM_BIT[table.name];
    if (isEventInstruction(ix.data)) {
      const caller = h === undefined ? table : callerAt(h - 1);
      if (caller === table) {
        events.push({ program: table.name, index, innerIndex, stackHeight: h, decoded: decodeEventInstruction(table, ix.data) });
        continue;
      }
    }
    invokedBy ??= keyAt(tx, tx.instructions[index]!.programIdIndex);
    instructions.push({
      program: table.name,
      index,
      innerIndex,
      inner: true,
      stackHeight: h,
      invokedBy,
      accounts: accountsOf(tx, ix.accounts),
      decoded: decodeInstruction(table, ix.data),
    });
  }
  return involved;
}

export function extractPumpTransaction(tx: TransactionEvent): PumpTransaction {
  const instructions: PumpInstructionAt[] = [];
  const events: PumpEventAt[] = [];
  nextTransaction();
  let involved = 0;
  let nextGroup = 0;
  const groups = tx.innerInstructions;
  for (let index = 0; index < tx.instructions.length; index++) {
    const top = tx.instructions[index]!;
    const topTable = classify(tx, top.programIdIndex);
    if (topTable !== null) {
      involved |= PROGRAM_BIT[topTable.name];
      instructions.push({
        program: topTable.name,
        index,
        innerIndex: undefined,
        inner: false,
        stackHeight: 1,
        invokedBy: undefined,
        accounts: accountsOf(tx, top.accounts),
        decoded: decodeInstruction(topTable, top.data),
      });
    }
    const at = groups.length === 0 ? -1 : groupAt(groups, index, nextGroup);
    if (at < 0) continue;
    nextGroup = at + 1;
    involved |= extractInner(tx, index, topTable, groups[at]!, instructions, events);
  }
  return { instructions, events, programs: PROGRAM_SETS[involved]!, failed: tx.err !== undefined, err: tx.err };
}

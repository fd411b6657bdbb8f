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
import type { TransactionEvent } from '../../schemas/gen/events.js';
import { decodeEventInstruction, decodeInstruction, isEventInstruction, PUMP_PROGRAMS, type EventDecode, type InstructionDecode } from './decoder.js';
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
  /** The programs whose instructions (or events) the transaction carries, pump before pump_amm. */
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

function tableOf(key: Buffer | undefined): ProgramTable | null {
  if (key === undefined) return null;
  for (const t of PUMP_PROGRAMS) if (key[0] === t.programIdBytes[0] && t.programIdBytes.equals(key)) return t;
  return null;
}

function accountsOf(tx: Keyed, indexes: Uint8Array): (Buffer | undefined)[] {
  const out = new Array<Buffer | undefined>(indexes.length);
  for (let i = 0; i < indexes.length; i++) out[i] = keyAt(tx, indexes[i]!);
  return out;
}

export function extractPumpTransaction(tx: TransactionEvent): PumpTransaction {
  const instructions: PumpInstructionAt[] = [];
  const events: PumpEventAt[] = [];
  // Program index → its table (null: neither program); filled on first use, few distinct programs per transaction.
  const tables = new Map<number, ProgramTable | null>();
  const classify = (programIdIndex: number): ProgramTable | null => {
    let t = tables.get(programIdIndex);
    if (t === undefined) tables.set(programIdIndex, (t = tableOf(keyAt(tx, programIdIndex))));
    return t;
  };
  const groups: (TransactionEvent['innerInstructions'][number] | undefined)[] = [];
  for (const g of tx.innerInstructions) groups[g.index] = g;
  // callers[h]: the table (or null) of the instruction running at stack height h, for the self-CPI check.
  const callers: (ProgramTable | null)[] = [];

  tx.instructions.forEach((top, index) => {
    const topTable = classify(top.programIdIndex);
    if (topTable !== null) {
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
    const group = groups[index];
    if (group === undefined) return;
    callers.length = 0;
    callers[1] = topTable;
    let invokedBy: Buffer | undefined;
    group.instructions.forEach((ix, innerIndex) => {
      const table = classify(ix.programIdIndex);
      const h = ix.stackHeight;
      if (h !== undefined) callers[h] = table;
      if (table === null) return;
      if (isEventInstruction(ix.data)) {
        const caller = h === undefined ? table : callers[h - 1];
        if (caller === table) {
          events.push({ program: table.name, index, innerIndex, stackHeight: h, decoded: decodeEventInstruction(table, ix.data) });
          return;
        }
      }
      invokedBy ??= keyAt(tx, top.programIdIndex);
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
    });
  });

  let pump = false;
  let amm = false;
  for (const x of [...instructions, ...events]) {
    if (x.program === 'pump') pump = true;
    else amm = true;
  }
  const programs: PumpProgramName[] = pump && amm ? ['pump', 'pump_amm'] : pump ? ['pump'] : amm ? ['pump_amm'] : [];
  return { instructions, events, programs, failed: tx.err !== undefined, err: tx.err };
}

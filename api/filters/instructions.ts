// Instruction conditions (stream.Stream's transaction filter extension of issue 20): what an instruction looks
// like to a condition, read lazily from a scanned record or a decoded event, and the test of one condition.
// Nothing here runs unless a filter has instruction conditions: the views read instructions on first use.
import type { TransactionEvent } from '../../schemas/gen/events.js';
import { scanInnerInstructions, scanInstructions, type ScannedInstruction, type TransactionScan } from '../../schemas/scan.js';
import { keyId } from './key-id.js';
import type { CompiledInstructionCondition, CompiledMemcmp } from './types.js';

export interface InstructionView {
  /** Key id of the invoked program. */
  readonly program: string;
  readonly data: Uint8Array;
}

/** A transaction's instructions, each list built on first use. */
export interface InstructionsView {
  /** The message's instructions, in order. */
  readonly top: readonly InstructionView[];
  /** The meta's inner (CPI) instructions, in record order; empty when the meta recorded none. */
  readonly inner: readonly InstructionView[];
}

interface RawInstruction {
  readonly programIdIndex: number;
  readonly data: Uint8Array;
}

/**
 * Resolves program ids (static keys, then loaded writable, then loaded readonly: the order instructions
 * index) once per distinct index. An index outside the keys (a malformed record) names no program, so the
 * instruction satisfies no condition. Subclasses say where the instructions come from (classes, not closures:
 * one is made per transaction read while some filter has instruction conditions).
 */
abstract class LazyInstructions implements InstructionsView {
  private topList: InstructionView[] | undefined;
  private innerList: InstructionView[] | undefined;
  /** Key id per program index, filled on first use (null: outside the keys). */
  private readonly programs: (string | null | undefined)[] = [];

  protected abstract keyLists(): readonly (readonly Uint8Array[])[];
  protected abstract readTop(): readonly RawInstruction[];
  protected abstract readInner(): readonly RawInstruction[];

  get top(): readonly InstructionView[] {
    return (this.topList ??= this.resolve(this.readTop()));
  }

  get inner(): readonly InstructionView[] {
    return (this.innerList ??= this.resolve(this.readInner()));
  }

  private resolve(raw: readonly RawInstruction[]): InstructionView[] {
    const out: InstructionView[] = [];
    for (const ix of raw) {
      const program = this.program(ix.programIdIndex);
      if (program !== null) out.push({ program, data: ix.data });
    }
    return out;
  }

  private program(index: number): string | null {
    let p = this.programs[index];
    if (p === undefined) {
      let i = index;
      p = null;
      for (const list of this.keyLists()) {
        if (i < list.length) {
          p = keyId(list[i]!);
          break;
        }
        i -= list.length;
      }
      this.programs[index] = p;
    }
    return p;
  }
}

/**
 * From a scanned record. A nested message the scan cannot read (the record passed the top-level scan but an
 * instruction is malformed) gives no instructions of that list: such a record cannot be decoded in full either
 * (api/live counts it as undecodable when anything asks), and a filter must not stop the feed.
 */
class ScannedInstructions extends LazyInstructions {
  constructor(private readonly s: TransactionScan) {
    super();
  }
  protected keyLists(): readonly (readonly Uint8Array[])[] {
    return [this.s.accountKeys, this.s.loadedWritable, this.s.loadedReadonly];
  }
  protected readTop(): readonly ScannedInstruction[] {
    return readOrNone(scanInstructions, this.s);
  }
  protected readInner(): readonly ScannedInstruction[] {
    return readOrNone(scanInnerInstructions, this.s);
  }
}

function readOrNone(read: (s: TransactionScan) => ScannedInstruction[], s: TransactionScan): readonly ScannedInstruction[] {
  try {
    return read(s);
  } catch {
    return [];
  }
}

/** From a decoded event (the replay path). */
class EventInstructions extends LazyInstructions {
  constructor(private readonly tx: TransactionEvent) {
    super();
  }
  protected keyLists(): readonly (readonly Uint8Array[])[] {
    return [this.tx.accountKeys, this.tx.loadedWritable, this.tx.loadedReadonly];
  }
  protected readTop(): readonly RawInstruction[] {
    return this.tx.instructions;
  }
  protected readInner(): readonly RawInstruction[] {
    return this.tx.innerInstructions.flatMap((g) => g.instructions);
  }
}

export function scannedInstructions(s: TransactionScan): InstructionsView {
  return new ScannedInstructions(s);
}

export function eventInstructions(tx: TransactionEvent): InstructionsView {
  return new EventInstructions(tx);
}

/** The data holds `m.bytes` at `m.offset`; past the end: no match. */
export function dataMatches(m: CompiledMemcmp, data: Uint8Array): boolean {
  if (m.offset + m.bytes.length > data.length) return false;
  for (let i = 0; i < m.bytes.length; i++) if (data[m.offset + i] !== m.bytes[i]) return false;
  return true;
}

export function instructionSatisfies(c: CompiledInstructionCondition, ix: InstructionView): boolean {
  return c.program === ix.program && (c.data === undefined || dataMatches(c.data, ix.data));
}

/** At least one instruction satisfies at least one condition (top-level ones always; inner ones for conditions that ask). */
export function anyInstructionSatisfies(conditions: readonly CompiledInstructionCondition[], v: InstructionsView): boolean {
  for (const ix of v.top) for (const c of conditions) if (instructionSatisfies(c, ix)) return true;
  if (!conditions.some((c) => c.includeInner)) return false;
  for (const ix of v.inner) for (const c of conditions) if (c.includeInner && instructionSatisfies(c, ix)) return true;
  return false;
}

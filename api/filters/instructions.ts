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
 * instruction satisfies no condition.
 */
class LazyInstructions implements InstructionsView {
  private topList: InstructionView[] | undefined;
  private innerList: InstructionView[] | undefined;
  private readonly programs = new Map<number, string | null>();

  constructor(
    private readonly keys: readonly (readonly Uint8Array[])[],
    private readonly readTop: () => readonly RawInstruction[],
    private readonly readInner: () => readonly RawInstruction[],
  ) {}

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
    let p = this.programs.get(index);
    if (p === undefined) {
      let i = index;
      p = null;
      for (const list of this.keys) {
        if (i < list.length) {
          p = keyId(list[i]!);
          break;
        }
        i -= list.length;
      }
      this.programs.set(index, p);
    }
    return p;
  }
}

/**
 * From a scanned record. A nested message the scan could not read (the record passed the top-level scan but
 * one instruction is malformed) gives no instructions of that list: such a record cannot be decoded in full
 * either (api/live counts it as undecodable when anything asks), and a filter must not stop the feed.
 */
export function scannedInstructions(s: TransactionScan): InstructionsView {
  const safely = (read: (s: TransactionScan) => ScannedInstruction[]) => (): readonly ScannedInstruction[] => {
    try {
      return read(s);
    } catch {
      return [];
    }
  };
  return new LazyInstructions([s.accountKeys, s.loadedWritable, s.loadedReadonly], safely(scanInstructions), safely(scanInnerInstructions));
}

/** From a decoded event (the replay path). */
export function eventInstructions(tx: TransactionEvent): InstructionsView {
  return new LazyInstructions(
    [tx.accountKeys, tx.loadedWritable, tx.loadedReadonly],
    () => tx.instructions,
    () => tx.innerInstructions.flatMap((g) => g.instructions),
  );
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

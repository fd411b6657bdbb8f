// Instruction conditions indexed so that matching a transaction costs in proportion to its instructions, not
// to the number of subscribers (issue 20). Placement invariant: every condition of a registered entry sits in
// exactly one bucket of `top` and, when it includes inner instructions, in the same bucket of `inner`:
// - by program id, then
// - with a data test: by the test's (offset, length) group, then by the bytes it wants;
// - without one: in the program's `any` bucket.
// Per instruction: one map lookup for the program, then one lookup per (offset, length) group that program's
// conditions use (typically one: Anchor's 8-byte discriminator at offset 0). Generic over the entry type;
// pure, no I/O.
import { keyId } from './key-id.js';
import type { InstructionView } from './instructions.js';
import type { CompiledInstructionCondition } from './types.js';

interface Group<E> {
  readonly offset: number;
  readonly length: number;
  /** Key id of the wanted bytes -> entries. */
  readonly byBytes: Map<string, Set<E>>;
}

/** Everything indexed under one program id. */
class ProgramConditions<E> {
  readonly any = new Set<E>();
  /** `${offset}:${length}` -> group. */
  readonly groups = new Map<string, Group<E>>();

  get empty(): boolean {
    return this.any.size === 0 && this.groups.size === 0;
  }
}

type ByProgram<E> = Map<string, ProgramConditions<E>>;

export class InstructionIndex<E> {
  /** Every condition: tested against top-level instructions. */
  private readonly top: ByProgram<E> = new Map();
  /** Conditions with include_inner: tested against inner instructions too. */
  private readonly inner: ByProgram<E> = new Map();

  /** Programs with at least one condition: 0 means no instruction needs reading. */
  get size(): number {
    return this.top.size;
  }

  /** Programs with at least one condition that includes inner instructions. */
  get innerSize(): number {
    return this.inner.size;
  }

  add(c: CompiledInstructionCondition, e: E): void {
    addTo(this.top, c, e);
    if (c.includeInner) addTo(this.inner, c, e);
  }

  /** Removes what `add(c, e)` added (placement is a pure function of the condition). */
  remove(c: CompiledInstructionCondition, e: E): void {
    removeFrom(this.top, c, e);
    if (c.includeInner) removeFrom(this.inner, c, e);
  }

  /** Appends to `out` each bucket holding entries some condition of which this instruction satisfies. */
  lookup(ix: InstructionView, isInner: boolean, out: ReadonlySet<E>[]): void {
    const p = (isInner ? this.inner : this.top).get(ix.program);
    if (p === undefined) return;
    if (p.any.size > 0) out.push(p.any);
    for (const g of p.groups.values()) {
      if (g.offset + g.length > ix.data.length) continue; // past the end: no match
      const bucket = g.byBytes.get(keyId(ix.data.subarray(g.offset, g.offset + g.length)));
      if (bucket !== undefined) out.push(bucket);
    }
  }
}

function bucketOf<E>(byProgram: ByProgram<E>, c: CompiledInstructionCondition, create: boolean): Set<E> | undefined {
  let p = byProgram.get(c.program);
  if (p === undefined) {
    if (!create) return undefined;
    byProgram.set(c.program, (p = new ProgramConditions()));
  }
  if (c.data === undefined) return p.any;
  const groupKey = `${c.data.offset}:${c.data.bytes.length}`;
  let g = p.groups.get(groupKey);
  if (g === undefined) {
    if (!create) return undefined;
    p.groups.set(groupKey, (g = { offset: c.data.offset, length: c.data.bytes.length, byBytes: new Map() }));
  }
  const bytesKey = keyId(c.data.bytes);
  let bucket = g.byBytes.get(bytesKey);
  if (bucket === undefined) {
    if (!create) return undefined;
    g.byBytes.set(bytesKey, (bucket = new Set()));
  }
  return bucket;
}

function addTo<E>(byProgram: ByProgram<E>, c: CompiledInstructionCondition, e: E): void {
  bucketOf(byProgram, c, true)!.add(e);
}

/** Deletes the entry, then every container it leaves empty. */
function removeFrom<E>(byProgram: ByProgram<E>, c: CompiledInstructionCondition, e: E): void {
  const bucket = bucketOf(byProgram, c, false);
  if (bucket === undefined) return;
  bucket.delete(e);
  const p = byProgram.get(c.program)!;
  if (c.data !== undefined && bucket.size === 0) {
    const groupKey = `${c.data.offset}:${c.data.bytes.length}`;
    const g = p.groups.get(groupKey)!;
    g.byBytes.delete(keyId(c.data.bytes));
    if (g.byBytes.size === 0) p.groups.delete(groupKey);
  }
  if (p.empty) byProgram.delete(c.program);
}

// Holds a stream's updates until their slot reaches the stream's commitment level (behaviour.md:
// "updates are delivered once their slot reaches that level"). Pure: statuses come in through `onStatus`
// (from the replay's own reading of the slots topic) or from the process-wide lookup (the live tail's).
// PROCESSED streams never hold anything. A skipped slot drops what it held. Slots that fall more than
// PRUNE_MARGIN slots behind the newest finalized slot without reaching the level are forks that died:
// their updates are dropped.
import { CommitmentLevel } from '../../proto/gen/stream.js';

export const SLOT_SKIPPED = 3;
export const PRUNE_MARGIN = 1024n;

export type StatusLookup = (slot: bigint) => number | undefined;

export function reached(status: number | undefined, level: CommitmentLevel): boolean {
  return status !== undefined && status !== SLOT_SKIPPED && status >= level;
}

/** The higher of two statuses; skipped wins (a skipped slot never reaches any level). */
export function combineStatus(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a === SLOT_SKIPPED || b === SLOT_SKIPPED) return SLOT_SKIPPED;
  return a > b ? a : b;
}

export class CommitmentGate<T> {
  private readonly pending = new Map<bigint, T[]>();
  private readonly own = new Map<bigint, number>();
  private held = 0;
  private newestFinalized = -1n;

  constructor(
    readonly level: CommitmentLevel,
    private readonly shared: StatusLookup = () => undefined,
  ) {}

  /** Number of updates held. */
  get size(): number {
    return this.held;
  }

  statusOf(slot: bigint): number | undefined {
    return combineStatus(this.shared(slot), this.own.get(slot));
  }

  /** 'send': deliver now; 'held': kept until the slot reaches the level; 'dropped': the slot was skipped. */
  admit(slot: bigint, item: T): 'send' | 'held' | 'dropped' {
    if (this.level === CommitmentLevel.PROCESSED) return 'send';
    const status = this.statusOf(slot);
    if (status === SLOT_SKIPPED) return 'dropped';
    if (reached(status, this.level)) return 'send';
    const list = this.pending.get(slot);
    if (list) list.push(item);
    else this.pending.set(slot, [item]);
    this.held++;
    return 'held';
  }

  /**
   * A slot status became known. `remember`: keep it in this gate (statuses the shared lookup does not
   * know, e.g. from a replay of old slots). Returns the updates released, in arrival order.
   */
  onStatus(slot: bigint, status: number, remember: boolean): T[] {
    if (this.level === CommitmentLevel.PROCESSED) return [];
    if (remember) this.own.set(slot, combineStatus(this.own.get(slot), status)!);
    if (status === 2 && slot > this.newestFinalized) {
      this.newestFinalized = slot;
      this.prune(slot - PRUNE_MARGIN);
    }
    const list = this.pending.get(slot);
    if (!list) return [];
    const effective = this.statusOf(slot) ?? status;
    if (effective === SLOT_SKIPPED || status === SLOT_SKIPPED) {
      this.pending.delete(slot);
      this.held -= list.length;
      return [];
    }
    if (!reached(combineStatus(effective, status), this.level)) return [];
    this.pending.delete(slot);
    this.held -= list.length;
    return list;
  }

  private prune(below: bigint): void {
    for (const [slot, list] of this.pending) {
      if (slot < below) {
        this.pending.delete(slot);
        this.held -= list.length;
      }
    }
    for (const slot of this.own.keys()) if (slot < below) this.own.delete(slot);
  }

  clear(): void {
    this.pending.clear();
    this.own.clear();
    this.held = 0;
  }
}

// Holds a stream's updates until their slot reaches the stream's commitment level (behaviour.md:
// "updates are delivered once their slot reaches that level"). Pure: statuses come in through `onStatus`
// (from the replay's own reading of the slots topic) or from the process-wide lookup (the live tail's).
// PROCESSED streams never hold anything. Statuses are ranked by slot-status.ts: a skipped or dead slot
// drops what it held and never releases anything (a dead slot's updates never go out at confirmed or
// finalized); progress statuses and gap records change nothing. Slots that fall more than PRUNE_MARGIN
// slots behind the newest finalized slot without reaching the level are forks that died unannounced:
// their updates are dropped.
import { Commitment } from '../filters/index.js';
import { SlotStatus } from '../../schemas/codec.js';
import { combineStatus, isTerminal, reached, takesPart } from './slot-status.js';

export const PRUNE_MARGIN = 1024n;

export type StatusLookup = (slot: bigint) => number | undefined;

export class CommitmentGate<T> {
  private readonly pending = new Map<bigint, T[]>();
  private readonly own = new Map<bigint, number>();
  private held = 0;
  private newestFinalized = -1n;

  constructor(
    readonly level: Commitment,
    private readonly shared: StatusLookup = () => undefined,
  ) {}

  /** Number of updates held. */
  get size(): number {
    return this.held;
  }

  statusOf(slot: bigint): number | undefined {
    return combineStatus(this.shared(slot), this.own.get(slot));
  }

  /** 'send': deliver now; 'held': kept until the slot reaches the level; 'dropped': the slot was skipped or died. */
  admit(slot: bigint, item: T): 'send' | 'held' | 'dropped' {
    if (this.level === Commitment.processed) return 'send';
    const status = this.statusOf(slot);
    if (isTerminal(status)) return 'dropped';
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
    if (this.level === Commitment.processed || !takesPart(status)) return [];
    if (remember) this.own.set(slot, combineStatus(this.own.get(slot), status)!);
    if (status === SlotStatus.SLOT_STATUS_FINALIZED && slot > this.newestFinalized) {
      this.newestFinalized = slot;
      this.prune(slot - PRUNE_MARGIN);
    }
    const list = this.pending.get(slot);
    if (!list) return [];
    // The shared lookup may not have seen this status yet (remember = false is called as it learns it).
    const effective = combineStatus(this.statusOf(slot), status);
    if (isTerminal(effective)) {
      this.pending.delete(slot);
      this.held -= list.length;
      return [];
    }
    if (!reached(effective, this.level)) return [];
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

// Holds a stream's updates until their slot reaches the stream's commitment level (behaviour.md:
// "updates are delivered once their slot reaches that level"). Pure: statuses come in through `onStatus`
// (from the replay's own reading of the slots topic) or from the process-wide lookup (the live tail's).
// PROCESSED streams never hold anything. Statuses are ranked by slot-status.ts: a skipped or dead slot
// drops what it held and never releases anything (a dead slot's updates never go out at confirmed or
// finalized); progress statuses and gap records change nothing. Slots that fall more than PRUNE_MARGIN
// slots behind the newest finalized slot without reaching the level are forks that died unannounced:
// their updates are dropped (during a replay, the newest finalized slot the replay read).
// A slot's updates go out together when it reaches the level, and of its account writes only the last of
// each account, and none when the account's last write of the slot did not match the stream's filters
// (newest-writes.ts: Yellowstone's per-slot deduplication at confirmed and finalized). Live, a
// slot's status records follow its records (frame-gate.ts), so the slot is whole when it is released; a
// record read after its slot was released goes out at once, on its own. While a from_slot replay runs
// (`replaying`), the live statuses know old slots at the level before the replay has read their records:
// a slot is then released only once the replay read one of its own status records (remembered ones), and
// what is left when the replay ends is released by `replayDone`. Once the replay has read to its bound
// (`replayReadAll`), the statuses its framing still held go on without the records they count: a slot whose
// records straddle the live positions has its last writes among the live updates that waited for the hand-over,
// so such a slot waits for `replayDone`, which joins those first (released at the final flush, a slot sent an
// account's older write and then its newer one: the fault test's confirmed stream after a broker crash).
import { Commitment } from '../filters/index.js';
import { SlotStatus } from '../../schemas/codec.js';
import { NewestWrites, type Write } from './newest-writes.js';
import { combineStatus, isTerminal, reached, takesPart } from './slot-status.js';

export const PRUNE_MARGIN = 1024n;

export type StatusLookup = (slot: bigint) => number | undefined;

export class CommitmentGate<T> {
  private readonly pending = new Map<bigint, T[]>();
  /** The newest held write of each account per slot, by its place in the slot's list (newest-writes.ts): what a
   * slot's release keeps of its writes. */
  private readonly writes = new NewestWrites<number>();
  private readonly own = new Map<bigint, number>();
  private held = 0;
  private newestFinalized = -1n;
  /** True while a replay feeds the gate (see the header). */
  private replaying = false;
  /** True once that replay read to its bound, until its hand-over (see the header). */
  private readAll = false;

  constructor(
    readonly level: Commitment,
    private readonly shared: StatusLookup = () => undefined,
    /** The account write an update is (for the per-slot deduplication); undefined for other updates. */
    private readonly writeOf: (item: T) => Write | undefined = () => undefined,
    /** The newest write of an account in a slot the reader saw, matched or not (newest-writes.ts). */
    private readonly newestWrite: (slot: bigint, key: string) => bigint | undefined = () => undefined,
  ) {}

  /** Number of updates held. */
  get size(): number {
    return this.held;
  }

  /** The lowest slot with updates held; undefined when nothing is held. */
  oldestHeld(): bigint | undefined {
    let low: bigint | undefined;
    for (const slot of this.pending.keys()) if (low === undefined || slot < low) low = slot;
    return low;
  }

  statusOf(slot: bigint): number | undefined {
    return combineStatus(this.shared(slot), this.own.get(slot));
  }

  /** A replay starts feeding the gate: slots are released once the replay read their status (see the header). */
  startReplay(): void {
    this.replaying = true;
    this.readAll = false;
  }

  /** The replay read every record to its bound: what it hands on now may lack records that come live. */
  replayReadAll(): void {
    if (this.replaying) this.readAll = true;
  }

  /** 'send': deliver now; 'held': kept until the slot reaches the level; 'dropped': the slot was skipped or died. */
  admit(slot: bigint, item: T): 'send' | 'held' | 'dropped' {
    if (this.level === Commitment.processed) return 'send';
    const status = this.statusOf(slot);
    if (isTerminal(status)) return 'dropped';
    if (reached(status, this.level) && this.whole(slot)) return 'send';
    this.hold(slot, item);
    return 'held';
  }

  private hold(slot: bigint, item: T): void {
    let list = this.pending.get(slot);
    if (!list) this.pending.set(slot, (list = []));
    const w = this.writeOf(item);
    if (w !== undefined) this.writes.note(slot, w.key, w.version, list.length);
    list.push(item);
    this.held++;
  }

  /**
   * A slot status became known. `remember`: keep it in this gate (statuses the shared lookup does not
   * know, e.g. from a replay of old slots). Returns the updates released, in arrival order.
   */
  onStatus(slot: bigint, status: number, remember: boolean): T[] {
    if (this.level === Commitment.processed || !takesPart(status)) return [];
    if (remember) this.own.set(slot, combineStatus(this.own.get(slot), status)!);
    // While a replay runs, only its own finalized statuses prune: the live ones run ahead of it, by more than
    // PRUNE_MARGIN for a replay from far back, and would drop replayed slots before it read their statuses.
    if (status === SlotStatus.SLOT_STATUS_FINALIZED && (remember || !this.replaying) && slot > this.newestFinalized) {
      this.newestFinalized = slot;
      this.prune(slot - PRUNE_MARGIN);
    }
    const list = this.pending.get(slot);
    if (!list) return [];
    // The shared lookup may not have seen this status yet (remember = false is called as it learns it).
    const effective = combineStatus(this.statusOf(slot), status);
    if (isTerminal(effective)) {
      this.pending.delete(slot);
      this.writes.forget(slot);
      this.held -= list.length;
      return [];
    }
    if (!reached(effective, this.level) || !this.whole(slot)) return [];
    return this.release(slot, list);
  }

  /**
   * The replay ended (every replayed record is in): `waiting`, the live updates that waited for the hand-over
   * (slot and update, in arrival order), join their slots' held updates first; then the held slots that reached
   * the level are released, in slot order, each deduplicated as a whole; from now on the gate works live.
   * A slot the live statuses took to the level during the replay may have all or part of its records among
   * `waiting`: admitted one by one they would each go out at once, every write of an account in the slot.
   */
  replayDone(waiting: readonly (readonly [bigint, T])[] = []): T[] {
    for (const [slot, item] of waiting) {
      if (!isTerminal(this.statusOf(slot))) this.hold(slot, item);
    }
    this.replaying = false;
    this.readAll = false;
    const out: T[] = [];
    for (const slot of [...this.pending.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (reached(this.statusOf(slot), this.level)) out.push(...this.release(slot, this.pending.get(slot)!));
    }
    return out;
  }

  /** All of the slot's records reached the gate: always live; during a replay, once the replay read a status of the
   * slot before reading to its bound (after, only the hand-over tells). */
  private whole(slot: bigint): boolean {
    return !this.replaying || (!this.readAll && this.own.has(slot));
  }

  /**
   * The slot's held updates without the writes superseded, in arrival order: a write goes when a later write of its
   * account in the slot was held too (a higher version, or a copy of the same one), or when the reader saw a higher
   * version of it (`newestWrite`: a later write the stream's filters did not match). Every other update stays.
   */
  private release(slot: bigint, list: T[]): T[] {
    this.pending.delete(slot);
    this.held -= list.length;
    const writes = this.writes.take(slot);
    if (writes === undefined) return list;
    const kept = new Set<number>();
    for (const [key, w] of writes.byKey) {
      const newer = this.newestWrite(slot, key);
      if (newer === undefined || newer <= w.version) kept.add(w.value);
    }
    // Most slots write each account once and nothing later: nothing to drop, no copy.
    if (kept.size === writes.noted) return list;
    return list.filter((item, at) => kept.has(at) || this.writeOf(item) === undefined);
  }

  private prune(below: bigint): void {
    this.writes.forgetBefore(below);
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
    this.writes.clear();
    this.own.clear();
    this.held = 0;
  }
}

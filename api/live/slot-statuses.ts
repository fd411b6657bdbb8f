// What a reader of the slots topic knows of each recent slot's status (a level or terminal, combined by
// slot-status.ts), and what a new status record adds to it for the slot streams: the statuses to send, in
// order, with the commitment levels a source skipped filled in (announcedStatuses). Pure. The hub keeps one
// for the live tail (every session's news); each from_slot replay keeps its own for the records it reads;
// both take a slot record in through `take`, so live and replayed statuses go out the same way.
import { SlotEvent } from '../../schemas/gen/events.js';
import { announcedStatuses, combineStatus, takesPart } from './slot-status.js';

export class SlotStatuses {
  private readonly known = new Map<bigint, number>();
  private newest = 0n;

  /** `window`: statuses kept this many slots behind the newest slot seen (pruned when twice as many are kept). */
  constructor(private readonly window: bigint) {}

  get(slot: bigint): number | undefined {
    return this.known.get(slot);
  }

  /** The statuses `status` adds for `slot`, to be sent in this order (announcedStatuses). Changes nothing. */
  news(slot: bigint, status: number): number[] {
    return announcedStatuses(this.known.get(slot), status);
  }

  /**
   * Takes a slot record in: for each status it adds (news), in order, a status that takes part is added
   * and `level` hears the slot's status now (the gates release what it completes), then `announce` hears
   * the status (for slot filters; a level the source skipped comes first, filled in: filledStatus).
   */
  take(ev: SlotEvent, level: (now: number) => void, announce: (status: number) => void): void {
    for (const st of this.news(ev.slot, ev.status)) {
      if (takesPart(st)) level(this.add(ev.slot, st)!);
      announce(st);
    }
  }

  /** Takes one status in (statuses that take part in nothing are ignored); returns the slot's status now. */
  add(slot: bigint, status: number): number | undefined {
    if (!takesPart(status)) return this.known.get(slot);
    const now = combineStatus(this.known.get(slot), status)!;
    this.known.set(slot, now);
    if (slot > this.newest) {
      this.newest = slot;
      // Cheap amortized pruning: only when the map is well past its window.
      if (this.known.size > Number(this.window) * 2) {
        const below = slot - this.window;
        for (const s of this.known.keys()) if (s < below) this.known.delete(s);
      }
    }
    return now;
  }
}

/** The record of a level the source skipped, sent in its place (no block meta, no end marker: those stay on the record that carried them). */
export function filledStatus(ev: SlotEvent, status: number): SlotEvent {
  return SlotEvent.fromPartial({ slot: ev.slot, status, parent: ev.parent });
}

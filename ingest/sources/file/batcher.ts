// Groups a stream of events (in file order) back into slot batches, the unit ingest publishes
// atomically and resumes by. Pure, so the rule is unit-tested apart from file I/O.
//
// A line has a "home" slot when it says that slot is happening now: a transaction, an account
// write, an entry, or a status of the slot's own progress (processed, skipped, dead, first shred
// received, created bank, completed). A new batch starts at a home slot larger than the
// current batch's; every other line (epoch records, CONFIRMED and FINALIZED changes of earlier
// slots, out-of-order lines) joins the current batch. So every batch has its own, increasing slot,
// which is what resuming after the last slot in Kafka needs; head lines before the first home
// slot join the first batch, lines after the last join the last.
import { SlotStatus, type ChainEvent } from '../../../schemas/codec.js';
import { ownSlotOf } from '../../publish/identity.js';
import type { SlotBatch } from '../../source.js';

/** Statuses a slot gets while it is the slot in hand; confirmed/finalized come later, a gap names a range. */
const HOME_STATUSES = new Set<SlotStatus>([
  SlotStatus.SLOT_STATUS_PROCESSED,
  SlotStatus.SLOT_STATUS_SKIPPED,
  SlotStatus.SLOT_STATUS_DEAD,
  SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED,
  SlotStatus.SLOT_STATUS_CREATED_BANK,
  SlotStatus.SLOT_STATUS_COMPLETED,
]);

/** A slot record is home only with a status of the slot in hand; every other record's own slot (ownSlotOf: none
 * for epochs and gaps) is its home. */
function homeSlot(e: ChainEvent): bigint | undefined {
  return e.kind === 'slots' && !HOME_STATUSES.has(e.event.status) ? undefined : ownSlotOf(e);
}

function ownSlot(e: ChainEvent): bigint {
  return e.kind === 'epochs' ? e.event.firstSlot : e.event.slot;
}

export class SlotBatcher {
  private events: ChainEvent[] = [];
  private home: bigint | undefined;

  /** Adds an event; returns the batch it completed, if any. */
  push(e: ChainEvent): SlotBatch | undefined {
    const h = homeSlot(e);
    let done: SlotBatch | undefined;
    if (h !== undefined && this.home !== undefined && h > this.home) done = this.take();
    if (h !== undefined && (this.home === undefined || h > this.home)) this.home = h;
    this.events.push(e);
    return done;
  }

  /** The last batch at the end of the input. */
  flush(): SlotBatch | undefined {
    return this.events.length > 0 ? this.take() : undefined;
  }

  private take(): SlotBatch {
    const events = this.events;
    // A file of head lines only (status changes, epochs): name the batch after its highest slot.
    let slot = this.home;
    if (slot === undefined) for (const e of events) if (slot === undefined || ownSlot(e) > slot) slot = ownSlot(e);
    this.events = [];
    this.home = undefined;
    return { slot: slot ?? 0n, events };
  }
}

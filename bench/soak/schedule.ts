// When the soak's upstream meant each update to go out (pure): slot k of a stream starts k x slotMs after the
// stream's first request and its updates are spread evenly over the first SPREAD of the slot (upstream.ts).
// Clients measure end-to-end latency against this schedule, so a late upstream shows in it too (and says so
// in its own lateMs).
import type { SlotIndex } from './recording.js';
import type { Stage } from './stats.js';

/** Share of a slot its updates are spread over. */
export const SPREAD = 0.9;

export interface UpstreamStats {
  /** The newest slot the upstream started sending (-1: none yet). */
  tip: number;
  /** Updates sent so far. */
  sent: number;
  /** The recording is used up. */
  ended: boolean;
  /** How late each slot's last update went out, ms, since the last ask. */
  lateMs: number[];
}

export interface StreamStart {
  /** Epoch ms of the stream's first request. */
  t0: number;
  /** The stream's from_slot (null: the recording's start). */
  fromSlot: number | null;
}

export class Schedule {
  private readonly at = new Map<number, { k: number; s: SlotIndex }>();

  constructor(
    slots: readonly SlotIndex[],
    private readonly start: StreamStart,
    private readonly slotMs: number,
    /** The ingest publishes each slot once whole (--yellowstone-publish slots): a transaction waits for its slot's
     * end. With pieces it does not, and the whole time to the api's read is the ingest's. */
    private readonly wholeSlots = true,
  ) {
    let k = 0;
    for (const s of slots) {
      if (start.fromSlot !== null && s.slot < start.fromSlot) continue;
      this.at.set(s.slot, { k: k++, s });
    }
  }

  /** Epoch ms the upstream meant to send the slot's `txIndex`-th transaction (undefined: not in the stream). */
  transactionDue(slot: number, txIndex: number): number | undefined {
    const e = this.at.get(slot);
    if (!e || txIndex >= e.s.txs) return undefined;
    return this.start.t0 + e.k * this.slotMs + Math.floor(((e.s.firstTx + txIndex) * this.slotMs * SPREAD) / e.s.updates);
  }

  /** A transaction received at `at` (epoch ms) whose record the api read at `readAt`: its end-to-end latency and
   * that latency's parts (stats.ts STAGES, summing to it); undefined when the transaction is not in the stream. */
  transactionLatency(slot: number, txIndex: number, readAt: number, at: number): ({ e2e: number } & Record<Stage, number>) | undefined {
    const due = this.transactionDue(slot, txIndex);
    if (due === undefined) return undefined;
    const wait = this.wholeSlots ? this.slotEndDue(slot)! - due : 0;
    return { e2e: at - due, wait, ingest: readAt - due - wait, serve: at - readAt };
  }

  /** Epoch ms the upstream meant to send the slot's last update (its processed status). */
  slotEndDue(slot: number): number | undefined {
    const e = this.at.get(slot);
    if (!e) return undefined;
    return this.start.t0 + e.k * this.slotMs + Math.floor(((e.s.updates - 1) * this.slotMs * SPREAD) / e.s.updates);
  }
}

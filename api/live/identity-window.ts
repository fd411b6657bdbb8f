// Duplicates on the read_uncommitted live path. Read uncommitted, the tail sees a record as soon as the
// ingest produced it, also one whose Kafka transaction is later aborted (the ingest crashed or lost the
// broker mid-transaction). The restarted ingest publishes it again, identical, because its resume skips by
// identity only what Kafka committed (behaviour.md "Slot framing"). So the tail reads that record twice.
// This window remembers, for the newest slots, the identity of every record handed over and the tail's
// running number under which it went out: a second copy goes only to sessions registered after the first
// one was handed over (they never got it; a replay reads committed records only). Pure.
import { asBuffer } from '../../schemas/bytes.js';
import type { StreamEvent } from './stream-event.js';

/** Slots kept behind the newest one seen. The copies of an aborted transaction come back in the slots the
 * ingest resumes from: the newest unfinished ones, a few slots at most behind the newest read. */
export const IDENTITY_WINDOW_SLOTS = 32;

export class IdentityWindow {
  private readonly slots = new Map<number, Map<string, number>>();
  private newest = -1;

  constructor(private readonly kept = IDENTITY_WINDOW_SLOTS) {}

  /**
   * Records that the record `id` of `slot` is handed over as number `seq`; returns the number of an
   * earlier copy when there was one (the record is then not recorded again). A record of a slot older
   * than the window is always new: nothing is kept for it.
   */
  firstCopy(slot: bigint, id: string, seq: number): number | undefined {
    const s = Number(slot);
    if (s > this.newest) this.advance(s);
    else if (s < this.newest - this.kept) return undefined;
    let ids = this.slots.get(s);
    if (!ids) this.slots.set(s, (ids = new Map()));
    const first = ids.get(id);
    if (first !== undefined) return first;
    ids.set(id, seq);
    return undefined;
  }

  /** Identities held (for metrics and tests). */
  get size(): number {
    let n = 0;
    for (const ids of this.slots.values()) n += ids.size;
    return n;
  }

  private advance(s: number): void {
    this.newest = s;
    const below = s - this.kept;
    for (const slot of this.slots.keys()) if (slot < below) this.slots.delete(slot);
  }
}

/**
 * A record's identity within its slot, as behaviour.md's resume defines it ("Slot framing"): first
 * signature for transactions (and the parsed updates made of them), (pubkey, write_version) for account writes,
 * index for entries, status for slot records. Built from the scan's bytes (latin1 strings: no hex or base58 work per record).
 * Undefined for a record that has none (a transaction without signatures): it is never deduplicated.
 */
export function liveIdentity(e: StreamEvent): string | undefined {
  switch (e.kind) {
    case 'transaction': {
      const sig = e.scan.signatures[0];
      return sig ? asBuffer(sig).toString('latin1') : undefined;
    }
    case 'account':
      return `${asBuffer(e.scan.pubkey).toString('latin1')}${e.scan.writeVersion}`;
    case 'entry':
      return `e${e.event.index}`;
    case 'parsed':
      // Its transaction's identity: the first signature (the slot's position when it has none).
      return e.event.signature.length > 0 ? `p${asBuffer(e.event.signature).toString('latin1')}` : `p#${e.event.index}`;
    case 'slot':
      return e.event.gap === undefined ? `s${e.event.status}` : `g${e.event.status}`;
  }
}

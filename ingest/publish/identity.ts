// Record identities for resume (spec/behaviour.md, "Slot framing"): what makes a record the same
// record again when a restarted source yields it a second time, independent of its position in the
// slot. Pure.
import type { ChainEvent } from '../../schemas/codec.js';
import { asBuffer } from '../../schemas/bytes.js';

const hex = (b: Uint8Array): string => asBuffer(b).toString('hex');

/** First signature for transactions, (pubkey, write_version) for account writes, (slot, status) for
 * slot records, (slot, index) for entries, the epoch for epoch records. The kind is part of it. */
export function identityOf(e: ChainEvent): string {
  switch (e.kind) {
    case 'transactions': {
      const sig = e.event.signatures[0];
      // A transaction without signatures cannot happen on chain; its slot and position still name it.
      return sig ? `t:${hex(sig)}` : `t:${e.event.slot}:${e.event.index}`;
    }
    case 'accounts':
      return `a:${hex(e.event.pubkey)}:${e.event.writeVersion}`;
    case 'slots':
      return `s:${e.event.slot}:${e.event.status}`;
    case 'entries':
      return `e:${e.event.slot}:${e.event.index}`;
    case 'epochs':
      return `p:${e.event.epoch}`;
  }
}

/** The slot a record belongs to (counted in that slot's end marker), or undefined for epoch records
 * and gap records, which belong to no one slot. */
export function ownSlotOf(e: ChainEvent): bigint | undefined {
  switch (e.kind) {
    case 'transactions':
    case 'accounts':
    case 'entries':
      return e.event.slot;
    case 'slots':
      return e.event.gap === undefined ? e.event.slot : undefined;
    case 'epochs':
      return undefined;
  }
}

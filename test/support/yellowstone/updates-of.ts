// A slot batch as the SubscribeUpdate messages a Yellowstone upstream sends for it (pure), through
// schemas/yellowstone's *ToYellowstone side, as geyser.Geyser will emit them: transactions, account
// writes and entries first, then block meta and the slot's own processed (or dead) status, as a validator's
// plugin reports a block after its data. Statuses of other slots keep their place; what Yellowstone
// cannot express (epochs, skipped and gap records) is left out. For the conversion bench and tests that
// need a Yellowstone stream of a known chain.
import { SlotStatus, type ChainEvent } from '../../../schemas/codec.js';
import {
  accountToYellowstone,
  blockMetaToYellowstone,
  entryToYellowstone,
  slotToYellowstone,
  transactionToYellowstone,
  type SubscribeUpdate,
} from '../../../schemas/yellowstone/index.js';
import type { SlotBatch } from '../../../ingest/source.js';

const FILTERS = ['slotstream'];
const update = (u: Partial<SubscribeUpdate>): SubscribeUpdate => ({ filters: FILTERS, createdAt: undefined, ...u });

export function subscribeUpdatesOf(batch: SlotBatch): SubscribeUpdate[] {
  const out: SubscribeUpdate[] = [];
  const ending: ChainEvent[] = [];
  for (const e of batch.events) {
    switch (e.kind) {
      case 'slots': {
        const own =
          e.event.slot === batch.slot &&
          (e.event.status === SlotStatus.SLOT_STATUS_PROCESSED || e.event.status === SlotStatus.SLOT_STATUS_DEAD);
        if (own) ending.push(e);
        else pushSlot(out, e);
        break;
      }
      case 'transactions':
        out.push(update({ transaction: transactionToYellowstone(e.event) }));
        break;
      case 'accounts':
        out.push(update({ account: accountToYellowstone(e.event) }));
        break;
      case 'entries':
        out.push(update({ entry: entryToYellowstone(e.event) }));
        break;
      default:
        break; // epochs: Yellowstone has no such message
    }
  }
  for (const e of ending) pushSlot(out, e);
  return out;
}

function pushSlot(out: SubscribeUpdate[], e: ChainEvent): void {
  if (e.kind !== 'slots') return;
  if (e.event.block) out.push(update({ blockMeta: blockMetaToYellowstone(e.event.slot, e.event.block) }));
  const s = slotToYellowstone(e.event);
  if (s) out.push(update({ slot: s }));
}

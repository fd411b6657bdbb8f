// expectedHeads is the heads part of expectedViews, without the rest: the tests that wait on heads only use it.
import { describe, expect, it } from 'vitest';
import { SlotStatus } from '../../../schemas/codec.js';
import { slotStatus, tx } from './events.js';
import { expectedHeads, expectedViews, type ConsumedRecord } from './expected.js';

const S = SlotStatus;
let offset = 0n;
const rec = (event: ConsumedRecord['event']): ConsumedRecord => ({ topic: 't', partition: 0, offset: offset++, event });

describe('expectedHeads', () => {
  it('equals expectedViews(...).heads: dead forks, progress statuses and statuses out of order', () => {
    const records = [
      rec({ kind: 'slots', event: slotStatus(1, S.SLOT_STATUS_PROCESSED, { parent: 0, height: 1 }) }),
      rec({ kind: 'transactions', event: tx({ slot: 1, index: 0, sig: 'a', keys: ['k'] }) }),
      rec({ kind: 'slots', event: slotStatus(2, S.SLOT_STATUS_PROCESSED, { parent: 1, height: 2 }) }),
      rec({ kind: 'slots', event: slotStatus(1, S.SLOT_STATUS_FINALIZED) }),
      rec({ kind: 'slots', event: slotStatus(2, S.SLOT_STATUS_CONFIRMED) }),
      // A dead fork above the processed head, and a progress status, move no head.
      rec({ kind: 'slots', event: slotStatus(4, S.SLOT_STATUS_DEAD) }),
      rec({ kind: 'slots', event: slotStatus(5, S.SLOT_STATUS_FIRST_SHRED_RECEIVED) }),
      rec({ kind: 'slots', event: slotStatus(3, S.SLOT_STATUS_PROCESSED, { parent: 2, height: 3 }) }),
    ];
    expect(expectedHeads(records)).toEqual(['confirmed|2', 'finalized|1', 'processed|3']);
    expect(expectedHeads(records)).toEqual(expectedViews(records, []).heads);
  });

  it('is empty with no slot record, as the views are', () => {
    const records = [rec({ kind: 'transactions', event: tx({ slot: 1, index: 0, sig: 'a', keys: ['k'] }) })];
    expect(expectedHeads(records)).toEqual([]);
    expect(expectedViews(records, []).heads).toEqual([]);
  });
});

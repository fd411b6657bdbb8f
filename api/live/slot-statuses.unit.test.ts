// SlotStatuses.take: how the hub (live) and a replay (its own reading) walk a slot record's statuses, one way.
import { describe, expect, it } from 'vitest';
import { SlotEvent, SlotStatus } from '../../schemas/gen/events.js';
import { SlotStatuses } from './slot-statuses.js';

describe('SlotStatuses.take', () => {
  it('adds each status before announcing it, a skipped level filled in first; progress statuses only announced', () => {
    const statuses = new SlotStatuses(100n);
    const said: string[] = [];
    const take = (slot: bigint, status: SlotStatus) =>
      statuses.take(
        SlotEvent.fromPartial({ slot, status }),
        (now) => said.push(`level ${slot} ${now} (known ${statuses.get(slot)})`),
        (st) => said.push(`announce ${slot} ${st}`),
      );
    take(5n, SlotStatus.SLOT_STATUS_CREATED_BANK);
    take(5n, SlotStatus.SLOT_STATUS_PROCESSED);
    take(5n, SlotStatus.SLOT_STATUS_FINALIZED);
    take(5n, SlotStatus.SLOT_STATUS_CONFIRMED);
    const [CREATED_BANK, PROCESSED, CONFIRMED, FINALIZED] = [
      SlotStatus.SLOT_STATUS_CREATED_BANK,
      SlotStatus.SLOT_STATUS_PROCESSED,
      SlotStatus.SLOT_STATUS_CONFIRMED,
      SlotStatus.SLOT_STATUS_FINALIZED,
    ];
    expect(said).toEqual([
      `announce 5 ${CREATED_BANK}`,
      `level 5 ${PROCESSED} (known ${PROCESSED})`,
      `announce 5 ${PROCESSED}`,
      `level 5 ${CONFIRMED} (known ${CONFIRMED})`,
      `announce 5 ${CONFIRMED}`,
      `level 5 ${FINALIZED} (known ${FINALIZED})`,
      `announce 5 ${FINALIZED}`,
    ]);
  });
});

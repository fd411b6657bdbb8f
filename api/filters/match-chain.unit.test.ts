// Slot status matching with Yellowstone's rules (filter.rs FilterSlots): levels always, dead and the progress
// statuses only with interslot_updates, filter_by_commitment only the subscription's own level, and never
// the statuses Yellowstone has not (skipped, gap).
import { describe, expect, it } from 'vitest';
import { SlotStatus } from '../../schemas/gen/events.js';
import { compileSubscription } from './compile.js';
import { slotStatusOf } from '../../schemas/commitment.js';
import { Commitment, EMPTY_SUBSCRIPTION, type SlotFilterSpec } from './model.js';
import { matchBlockMeta, matchEntry, matchSlotStatus } from './match-chain.js';

const S = SlotStatus;
const ALL = [
  S.SLOT_STATUS_PROCESSED,
  S.SLOT_STATUS_CONFIRMED,
  S.SLOT_STATUS_FINALIZED,
  S.SLOT_STATUS_SKIPPED,
  S.SLOT_STATUS_DEAD,
  S.SLOT_STATUS_FIRST_SHRED_RECEIVED,
  S.SLOT_STATUS_CREATED_BANK,
  S.SLOT_STATUS_COMPLETED,
  S.SLOT_STATUS_GAP,
];

function sub(slots: SlotFilterSpec[], commitment: Commitment = Commitment.processed) {
  return compileSubscription({ ...EMPTY_SUBSCRIPTION, slots, commitment, blocksMeta: [{ name: 'm' }], entry: [{ name: 'e' }] });
}
const passing = (s: ReturnType<typeof sub>, name: string) => ALL.filter((st) => matchSlotStatus(s, st).includes(name));

describe('matchSlotStatus', () => {
  it('without options: only the three levels (no dead, no progress, no skipped, no gap)', () => {
    expect(passing(sub([{ name: 'a', filterByCommitment: false, interslotUpdates: false }]), 'a')).toEqual([
      S.SLOT_STATUS_PROCESSED,
      S.SLOT_STATUS_CONFIRMED,
      S.SLOT_STATUS_FINALIZED,
    ]);
  });

  it('interslot_updates adds dead and the progress statuses, never skipped or gap', () => {
    expect(passing(sub([{ name: 'a', filterByCommitment: false, interslotUpdates: true }]), 'a')).toEqual([
      S.SLOT_STATUS_PROCESSED,
      S.SLOT_STATUS_CONFIRMED,
      S.SLOT_STATUS_FINALIZED,
      S.SLOT_STATUS_DEAD,
      S.SLOT_STATUS_FIRST_SHRED_RECEIVED,
      S.SLOT_STATUS_CREATED_BANK,
      S.SLOT_STATUS_COMPLETED,
    ]);
  });

  it('filter_by_commitment passes only the status equal to the subscription level, with or without interslot_updates', () => {
    for (const interslotUpdates of [false, true]) {
      for (const level of [Commitment.processed, Commitment.confirmed, Commitment.finalized]) {
        expect(passing(sub([{ name: 'a', filterByCommitment: true, interslotUpdates }], level), 'a')).toEqual([slotStatusOf(level)]);
      }
    }
  });

  it('reports every passing filter name, sorted, and nothing without slot filters', () => {
    const s = sub([
      { name: 'z', filterByCommitment: false, interslotUpdates: true },
      { name: 'b', filterByCommitment: true, interslotUpdates: false },
      { name: 'a', filterByCommitment: false, interslotUpdates: false },
    ]);
    expect(matchSlotStatus(s, S.SLOT_STATUS_PROCESSED)).toEqual(['a', 'b', 'z']);
    expect(matchSlotStatus(s, S.SLOT_STATUS_CONFIRMED)).toEqual(['a', 'z']);
    expect(matchSlotStatus(s, S.SLOT_STATUS_DEAD)).toEqual(['z']);
    expect(matchSlotStatus(sub([]), S.SLOT_STATUS_PROCESSED)).toEqual([]);
  });

  it('blocks_meta and entry filters have no options: every name', () => {
    const s = sub([]);
    expect(matchBlockMeta(s)).toEqual(['m']);
    expect(matchEntry(s)).toEqual(['e']);
  });
});

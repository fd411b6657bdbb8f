import { describe, expect, it } from 'vitest';
import { SlotStatus } from '../../schemas/codec.js';
import { announcedStatuses, combineStatus, isLevel, isTerminal, reached, takesPart } from './slot-status.js';

const {
  SLOT_STATUS_PROCESSED: PROCESSED,
  SLOT_STATUS_CONFIRMED: CONFIRMED,
  SLOT_STATUS_FINALIZED: FINALIZED,
  SLOT_STATUS_SKIPPED: SKIPPED,
  SLOT_STATUS_DEAD: DEAD,
  SLOT_STATUS_FIRST_SHRED_RECEIVED: FIRST_SHRED,
  SLOT_STATUS_CREATED_BANK: CREATED_BANK,
  SLOT_STATUS_COMPLETED: COMPLETED,
  SLOT_STATUS_GAP: GAP,
} = SlotStatus;
const LEVELS = [PROCESSED, CONFIRMED, FINALIZED];
const TERMINAL = [SKIPPED, DEAD];
const NOTHING = [FIRST_SHRED, CREATED_BANK, COMPLETED, GAP];

describe('slot statuses in the api', () => {
  it('classifies every status of the event model', () => {
    for (const s of LEVELS) expect([isLevel(s), isTerminal(s), takesPart(s)]).toEqual([true, false, true]);
    for (const s of TERMINAL) expect([isLevel(s), isTerminal(s), takesPart(s)]).toEqual([false, true, true]);
    for (const s of NOTHING) expect([isLevel(s), isTerminal(s), takesPart(s)]).toEqual([false, false, false]);
    expect(takesPart(undefined)).toBe(false);
  });

  it('only levels reach a level: dead and the progress statuses, numbered above finalized, reach none', () => {
    expect(reached(CONFIRMED, 'confirmed')).toBe(true);
    expect(reached(FINALIZED, 'confirmed')).toBe(true);
    expect(reached(CONFIRMED, 'finalized')).toBe(false);
    expect(reached(PROCESSED, 'confirmed')).toBe(false);
    for (const s of [...TERMINAL, ...NOTHING, undefined]) {
      expect(reached(s, 'confirmed')).toBe(false);
      expect(reached(s, 'finalized')).toBe(false);
    }
  });

  it('combines: the higher level, terminal over any level in either order, the rest ignored', () => {
    expect(combineStatus(undefined, CONFIRMED)).toBe(CONFIRMED);
    expect(combineStatus(FINALIZED, CONFIRMED)).toBe(FINALIZED);
    expect(combineStatus(PROCESSED, CONFIRMED)).toBe(CONFIRMED);
    for (const t of TERMINAL) {
      for (const l of LEVELS) {
        expect(combineStatus(t, l)).toBe(t);
        expect(combineStatus(l, t)).toBe(t);
      }
    }
    expect(combineStatus(SKIPPED, DEAD)).toBe(SKIPPED);
    expect(combineStatus(DEAD, SKIPPED)).toBe(DEAD);
    for (const n of NOTHING) {
      expect(combineStatus(n, undefined)).toBeUndefined();
      expect(combineStatus(undefined, n)).toBeUndefined();
      expect(combineStatus(PROCESSED, n)).toBe(PROCESSED);
      expect(combineStatus(n, CONFIRMED)).toBe(CONFIRMED);
      expect(combineStatus(DEAD, n)).toBe(DEAD);
    }
  });

  // Yellowstone's block_machine_storage_fills_missing_commitment_levels: a level the source skipped is sent
  // before the one that skipped it; each level once, in order.
  it('announces each level once and in order, filling in the levels a source skipped', () => {
    expect(announcedStatuses(PROCESSED, FINALIZED)).toEqual([CONFIRMED, FINALIZED]);
    expect(announcedStatuses(PROCESSED, CONFIRMED)).toEqual([CONFIRMED]);
    expect(announcedStatuses(CONFIRMED, FINALIZED)).toEqual([FINALIZED]);
    // Already announced, or implied by a higher level that was.
    expect(announcedStatuses(FINALIZED, CONFIRMED)).toEqual([]);
    expect(announcedStatuses(FINALIZED, FINALIZED)).toEqual([]);
    expect(announcedStatuses(CONFIRMED, PROCESSED)).toEqual([]);
    // Nothing known (processed before the reader started): no lower level is invented.
    for (const l of LEVELS) expect(announcedStatuses(undefined, l)).toEqual([l]);
    // Terminal slots, terminal, progress and gap statuses: as they come.
    for (const t of TERMINAL) for (const l of LEVELS) expect(announcedStatuses(t, l)).toEqual([l]);
    for (const s of [...TERMINAL, ...NOTHING]) {
      expect(announcedStatuses(PROCESSED, s)).toEqual([s]);
      expect(announcedStatuses(undefined, s)).toEqual([s]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { CommitmentLevel } from '../../proto/gen/stream.js';
import { CommitmentGate, PRUNE_MARGIN, combineStatus } from './commitment-gate.js';

describe('CommitmentGate', () => {
  it('processed sends everything at once', () => {
    const g = new CommitmentGate<string>(CommitmentLevel.PROCESSED);
    expect(g.admit(1n, 'a')).toBe('send');
    expect(g.onStatus(1n, 2, true)).toEqual([]);
  });

  it('confirmed holds until the slot is confirmed, in arrival order', () => {
    const g = new CommitmentGate<string>(CommitmentLevel.CONFIRMED);
    expect(g.admit(5n, 'a')).toBe('held');
    expect(g.admit(5n, 'b')).toBe('held');
    expect(g.admit(6n, 'c')).toBe('held');
    expect(g.size).toBe(3);
    expect(g.onStatus(5n, 0, true)).toEqual([]);
    expect(g.onStatus(5n, 1, true)).toEqual(['a', 'b']);
    expect(g.size).toBe(1);
    expect(g.admit(5n, 'late')).toBe('send'); // status already known
    expect(g.onStatus(6n, 2, true)).toEqual(['c']); // finalized implies confirmed
  });

  it('finalized waits for finalized; a skipped slot drops what it held', () => {
    const g = new CommitmentGate<string>(CommitmentLevel.FINALIZED);
    g.admit(7n, 'x');
    expect(g.onStatus(7n, 1, true)).toEqual([]);
    g.admit(8n, 'y');
    expect(g.onStatus(8n, 3, true)).toEqual([]);
    expect(g.admit(8n, 'z')).toBe('dropped');
    expect(g.onStatus(7n, 2, true)).toEqual(['x']);
    expect(g.size).toBe(0);
  });

  it('uses the shared status lookup, and a status it did not remember', () => {
    const shared = new Map<bigint, number>([[3n, 1]]);
    const g = new CommitmentGate<string>(CommitmentLevel.CONFIRMED, (s) => shared.get(s));
    expect(g.admit(3n, 'a')).toBe('send');
    g.admit(4n, 'b');
    shared.set(4n, 1);
    expect(g.onStatus(4n, 1, false)).toEqual(['b']);
  });

  it('drops held updates of slots far behind the newest finalized slot (dead forks)', () => {
    const g = new CommitmentGate<string>(CommitmentLevel.CONFIRMED);
    g.admit(10n, 'fork');
    g.onStatus(10n + PRUNE_MARGIN + 1n, 2, true);
    expect(g.size).toBe(0);
  });

  it('combines statuses: higher wins, skipped dominates', () => {
    expect(combineStatus(undefined, 1)).toBe(1);
    expect(combineStatus(2, 1)).toBe(2);
    expect(combineStatus(3, 2)).toBe(3);
  });
});

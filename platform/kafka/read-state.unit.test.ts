import { describe, expect, it } from 'vitest';
import { OffsetMap } from './offset-map.js';
import { ReadState } from './read-state.js';

const assigned = [
  { topic: 't', partition: 0 },
  { topic: 't', partition: 1 },
];
const fresh = () =>
  new ReadState(
    assigned,
    OffsetMap.of([
      ['t', 0, 10n],
      ['t', 1, 20n],
    ]),
  );

describe('ReadState: positions', () => {
  it('hands over records at or past the position, and moves positions forward only', () => {
    const s = fresh();
    const call = s.callIssued();
    expect(s.accepts(call, 't', 0, 9n)).toBe(false);
    expect(s.accepts(call, 't', 0, 10n)).toBe(true);
    expect(s.advance('t', 0, 11n)).toBe(true);
    expect(s.advance('t', 0, 11n)).toBe(false);
    expect(s.advance('t', 0, 5n)).toBe(false);
    expect(s.positions.get('t', 0)).toBe(11n);
  });

  it('moves past transaction markers to an end-of-partition; a negative one is no position', () => {
    const s = fresh();
    const call = s.callIssued();
    expect(s.acceptsEof(call, 't', 1, 25)).toBe(true);
    expect(s.acceptsEof(call, 't', 1, -1001)).toBe(false);
  });

  it('ignores topics it does not read', () => {
    const s = fresh();
    expect(s.advance('other', 0, 3n)).toBe(false);
    s.seekStarted('other', 0, 3n);
    expect(s.positions.get('other', 0)).toBeUndefined();
  });
});

describe('ReadState: a seek racing a consume call', () => {
  it('makes the call in flight stale for the sought partition: its records and end dropped, the partition sought again', () => {
    const s = fresh();
    const call = s.callIssued();
    expect(s.mayPrefetch(call)).toBe(true);
    s.seekStarted('t', 0, 3n);
    expect(s.positions.get('t', 0)).toBe(3n);
    // The seek completes while the call is still out.
    s.seekEnded('t', 0);
    s.callReturned(call);
    expect(s.accepts(call, 't', 0, 3n)).toBe(false);
    expect(s.accepts(call, 't', 0, 12n)).toBe(false);
    expect(s.accepts(call, 't', 1, 20n)).toBe(true);
    expect(s.acceptsEof(call, 't', 0, 30)).toBe(false);
    expect(s.mayPrefetch(call)).toBe(false);
    expect(s.reseeks(call)).toEqual([{ topic: 't', partition: 0 }]);
    // The next call is clean.
    const next = s.callIssued();
    expect(s.mayPrefetch(next)).toBe(true);
    expect(s.accepts(next, 't', 0, 3n)).toBe(true);
  });

  it('makes a call issued while a seek is pending stale from the start, and holds prefetching until the seek ends', () => {
    const s = fresh();
    s.seekStarted('t', 1, 0n);
    const call = s.callIssued();
    expect([...call]).toHaveLength(1);
    expect(s.accepts(call, 't', 1, 0n)).toBe(false);
    expect(s.mayPrefetch(call)).toBe(false);
    s.seekEnded('t', 1);
    const next = s.callIssued();
    expect(s.mayPrefetch(next)).toBe(true);
  });

  it('counts overlapping seeks of one partition: pending until the last ends', () => {
    const s = fresh();
    s.seekStarted('t', 0, 1n);
    s.seekStarted('t', 0, 2n);
    s.seekEnded('t', 0);
    expect(s.mayPrefetch(s.callIssued())).toBe(false);
    s.seekEnded('t', 0);
    expect(s.mayPrefetch(s.callIssued())).toBe(true);
    expect(s.positions.get('t', 0)).toBe(2n);
  });

  it('does not mark a call that already came back', () => {
    const s = fresh();
    const call = s.callIssued();
    s.callReturned(call);
    s.seekStarted('t', 0, 1n);
    expect(call.size).toBe(0);
  });
});

describe('ReadState: pauses', () => {
  it('resumes a partition paused alone, but not while everything is paused', () => {
    const s = fresh();
    expect(s.pause('t', 0)).toEqual([{ topic: 't', partition: 0 }]);
    expect(s.pauseAll(true)).toEqual(assigned);
    expect(s.resume('t', 1)).toEqual([]);
    // Resuming everything leaves the partition paused on its own paused.
    expect(s.pauseAll(false)).toEqual([{ topic: 't', partition: 1 }]);
    expect(s.resume('t', 0)).toEqual([{ topic: 't', partition: 0 }]);
    expect(s.pauseAll(false)).toEqual(assigned);
  });
});

import { describe, expect, it } from 'vitest';
import { OffsetMap } from '../platform/kafka/index.js';
import { advanceHeads, caughtUp, HeadsQuiet, lagOf, sameOffsets } from './heads.js';

describe('heads rules', () => {
  const ends = OffsetMap.of([
    ['t', 0, 10n],
    ['t', 1, 5n],
    ['t', 2, 0n],
  ]);

  it('given commits below an end, when checked, then not caught up; at or past every end, caught up', () => {
    expect(
      caughtUp(
        ends,
        OffsetMap.of([
          ['t', 0, 10n],
          ['t', 1, 4n],
        ]),
      ),
    ).toBe(false);
    expect(
      caughtUp(
        ends,
        OffsetMap.of([
          ['t', 0, 10n],
          ['t', 1, 6n],
        ]),
      ),
    ).toBe(true);
    expect(caughtUp(ends, new OffsetMap())).toBe(false);
  });

  it('counts the lag as unread records, missing commits as nothing read', () => {
    expect(lagOf(ends, OffsetMap.of([['t', 0, 7n]]))).toBe(8n);
    expect(
      lagOf(
        ends,
        OffsetMap.of([
          ['t', 0, 10n],
          ['t', 1, 5n],
        ]),
      ),
    ).toBe(0n);
  });

  it('moves heads only forward', () => {
    expect(advanceHeads({ processed: 10n, confirmed: 8n }, { processed: 9n, confirmed: 9n, finalized: 1n })).toEqual({
      confirmed: 9n,
      finalized: 1n,
    });
  });
});

describe('an idle heads tracker', () => {
  const at = (o0: bigint, o1: bigint): OffsetMap =>
    OffsetMap.of([
      ['t', 0, o0],
      ['t', 1, o1],
    ]);

  it('same offsets: equal maps, a partition missing from one counting as 0', () => {
    expect(sameOffsets(at(3n, 4n), at(3n, 4n))).toBe(true);
    expect(sameOffsets(at(3n, 4n), at(3n, 5n))).toBe(false);
    expect(sameOffsets(at(3n, 0n), OffsetMap.of([['t', 0, 3n]]))).toBe(true);
    expect(sameOffsets(at(3n, 1n), OffsetMap.of([['t', 0, 3n]]))).toBe(false);
  });

  it('skips the views only while the commits are those a published barrier was read after, with no lag then', () => {
    const q = new HeadsQuiet();
    expect(q.settled(at(1n, 1n))).toBe(false);
    // Candidates read after (1, 1) was committed, end offsets (1, 1) taken after them: nothing was left to read, so
    // once published the heads say all the views hold.
    q.published(at(1n, 1n), at(1n, 1n));
    expect(q.settled(at(1n, 1n))).toBe(true);
    // A new commit can move the heads: full steps again.
    expect(q.settled(at(1n, 2n))).toBe(false);
  });

  it('never settles on a barrier read while records were left to read', () => {
    const q = new HeadsQuiet();
    q.published(at(1n, 1n), at(1n, 3n));
    expect(q.settled(at(1n, 1n))).toBe(false);
    expect(q.settled(at(1n, 3n))).toBe(false);
    // A later barrier with nothing left covers again; an earlier state published after it does not.
    q.published(at(1n, 3n), at(1n, 3n));
    expect(q.settled(at(1n, 3n))).toBe(true);
    q.published(at(1n, 1n), at(1n, 3n));
    expect(q.settled(at(1n, 3n))).toBe(false);
  });
});

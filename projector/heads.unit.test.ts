import { describe, expect, it } from 'vitest';
import { OffsetMap } from '../platform/kafka/index.js';
import { advanceHeads, caughtUp, lagOf } from './heads.js';

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

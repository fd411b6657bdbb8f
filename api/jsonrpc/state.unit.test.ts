import { describe, expect, it } from 'vitest';
import { freshness, healthOf, type ViewsState } from './state.js';

const state = (processed?: bigint, finalized?: bigint): ViewsState => ({
  head: { processed, confirmed: finalized, finalized },
  height: { processed: undefined, confirmed: undefined, finalized: undefined },
  oldestBlock: undefined,
});

describe('freshness', () => {
  it('is behind without a finalized slot', () => {
    expect(freshness(state(10n, undefined), 10n, 150)).toBe('behind');
  });
  it('is behind when Kafka is more than maxSlotLag ahead', () => {
    expect(freshness(state(100n, 90n), 250n, 150)).toBe('ok');
    expect(freshness(state(100n, 90n), 251n, 150)).toBe('behind');
    expect(freshness(state(100n, 90n), 50n, 150)).toBe('ok');
  });
  it('an unknown tip cannot show lag', () => {
    expect(freshness(state(100n, 90n), undefined, 0)).toBe('ok');
  });
});

describe('healthOf (getHealth)', () => {
  it('is unknown without a finalized slot, whatever the tip', () => {
    expect(healthOf(state(10n, undefined), 10n, 150)).toEqual({ kind: 'unknown' });
    expect(healthOf(state(undefined, undefined), undefined, 150)).toEqual({ kind: 'unknown' });
  });
  it('is behind by the Kafka tip minus the processed head once over maxSlotLag, else ok', () => {
    expect(healthOf(state(100n, 90n), 250n, 150)).toEqual({ kind: 'ok' });
    expect(healthOf(state(100n, 90n), 251n, 150)).toEqual({ kind: 'behind', slots: 151n });
    expect(healthOf(state(100n, 90n), undefined, 0)).toEqual({ kind: 'ok' });
  });
});

import { describe, expect, it } from 'vitest';
import { ReplayLimit } from './replay-limit.js';

describe('ReplayLimit', () => {
  it('grants up to max permits, refuses the next, and grants again after a release', () => {
    const l = new ReplayLimit(2);
    expect(l.tryAcquire()).toBe(true);
    expect(l.tryAcquire()).toBe(true);
    expect(l.tryAcquire()).toBe(false);
    expect(l.running).toBe(2);
    l.release();
    expect(l.running).toBe(1);
    expect(l.tryAcquire()).toBe(true);
    expect(l.tryAcquire()).toBe(false);
  });

  it('names the limit and the option in its refusal', () => {
    expect(new ReplayLimit(3).refusal()).toMatch(/at most 3 per api process \(--max-replays 3\)/);
  });

  it('rejects a bound below 1 and a release without a permit', () => {
    expect(() => new ReplayLimit(0)).toThrow(/>= 1, got 0/);
    expect(() => new ReplayLimit(1.5)).toThrow(RangeError);
    expect(() => new ReplayLimit(1).release()).toThrow(/without a permit/);
  });
});

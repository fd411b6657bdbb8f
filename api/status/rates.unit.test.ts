import { describe, expect, it } from 'vitest';
import { RateTracker } from './rates.js';

const m = (o: Record<string, number>) => new Map(Object.entries(o));

describe('RateTracker', () => {
  it('gives no rate from one sample, then the change per second over the window', () => {
    const r = new RateTracker(5_000);
    expect(r.sample(0, m({ a: 10 })).get('a')).toBeUndefined();
    expect(r.sample(1_000, m({ a: 20 })).get('a')).toBe(10);
    expect(r.sample(2_000, m({ a: 40 })).get('a')).toBe(15);
  });

  it('forgets samples older than the window', () => {
    const r = new RateTracker(2_000);
    r.sample(0, m({ a: 0 }));
    r.sample(1_000, m({ a: 100 }));
    r.sample(2_000, m({ a: 110 }));
    // The window now starts at 1 s: (120 - 100) / 2 s.
    expect(r.sample(3_000, m({ a: 120 })).get('a')).toBe(10);
  });

  it('gives no rate for a key first seen now or a counter that went down', () => {
    const r = new RateTracker();
    r.sample(0, m({ a: 5 }));
    const rates = r.sample(1_000, m({ a: 3, b: 7 }));
    expect(rates.get('a')).toBeUndefined();
    expect(rates.get('b')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('lets a burst through, then refills at its rate and says how long to wait', () => {
    const b = new TokenBucket(10, 20, 0);
    for (let i = 0; i < 20; i++) expect(b.take(1, 0)).toBe(0);
    expect(b.take(1, 0)).toBe(100); // 1 token at 10/s
    expect(b.take(5, 0)).toBe(500);
    expect(b.take(1, 100)).toBe(0);
    expect(b.take(21, 10_000)).toBe(Infinity); // never fits
    expect(b.take(20, 10_000)).toBe(0); // refilled to capacity, no further
    expect(b.take(1, 10_000)).toBe(100);
  });

  it('overdraws by one message, then refuses until the balance is positive again', () => {
    const b = new TokenBucket(1000, 1000, 0);
    expect(b.overdraw(5000, 0)).toBe(true);
    expect(b.overdraw(1, 0)).toBe(false);
    expect(b.overdraw(1, 3999)).toBe(false); // -4000 + 3999
    expect(b.overdraw(1, 4001)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { Reconnects } from './reconnects.js';

const policy = { initialMs: 500, maxMs: 30_000 };

describe('Reconnects', () => {
  it('starts live without a resume point, after it otherwise', () => {
    expect(new Reconnects(undefined, policy).resumeFrom).toBeUndefined();
    expect(new Reconnects(41n, policy).resumeFrom).toBe(42n);
  });

  it('doubles the wait per subscription that ended without an update, up to the maximum', () => {
    const r = new Reconnects(undefined, policy);
    expect(Array.from({ length: 9 }, () => r.ended(undefined))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts the waits over once an update arrived', () => {
    const r = new Reconnects(undefined, policy);
    r.ended(undefined);
    r.ended(undefined);
    r.received();
    expect(r.ended(undefined)).toBe(500);
  });

  it('resumes after the last slot handed over, and keeps the resume point when none was', () => {
    const r = new Reconnects(9n, policy);
    r.ended(undefined);
    expect(r.resumeFrom).toBe(10n);
    r.ended(20n);
    expect(r.resumeFrom).toBe(21n);
    r.ended(undefined);
    expect(r.resumeFrom).toBe(21n);
  });

  it('caps the doublings (a large maximum is reached by doubling 16 times at most)', () => {
    const r = new Reconnects(undefined, { initialMs: 1, maxMs: 1e12 });
    const waits = Array.from({ length: 20 }, () => r.ended(undefined));
    expect(waits.slice(15)).toEqual([32_768, 65_536, 65_536, 65_536, 65_536]);
  });
});

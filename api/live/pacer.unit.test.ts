import { describe, expect, it } from 'vitest';
import { Pacer } from './pacer.js';

describe('Pacer', () => {
  it('spreads records over their recorded time divided by the pace, from the first record', () => {
    let now = 1_000;
    const p = new Pacer(2, () => now);
    expect(p.delayFor(50_000)).toBe(0); // the origin
    expect(p.delayFor(50_400)).toBe(200); // 400 ms recorded at 2x
    now = 1_150;
    expect(p.delayFor(50_400)).toBe(50);
    now = 1_300;
    expect(p.delayFor(50_400)).toBe(0); // late: at once, never negative
  });

  it('each record by its own timestamp: one older than others already seen (another partition) is due earlier', () => {
    const now = 0;
    const p = new Pacer(1, () => now);
    p.delayFor(10_000);
    expect(p.delayFor(11_000)).toBe(1_000);
    expect(p.delayFor(10_500)).toBe(500);
    expect(p.delayFor(9_000)).toBe(0);
  });

  it('refuses a pace that is not a positive finite number', () => {
    for (const bad of [0, -1, NaN, Infinity]) expect(() => new Pacer(bad)).toThrow(/pace must be a finite number > 0/);
  });
});

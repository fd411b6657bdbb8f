import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher.js';

describe('Batcher', () => {
  it('given slices below the size limit, when the age limit passes, then they are flushed together', async () => {
    const flushed: number[][] = [];
    const b = new Batcher<number>({
      maxEvents: 100,
      maxMs: 20,
      sizeOf: (n) => n,
      flush: async (s) => {
        flushed.push(s);
      },
    });
    await Promise.all([b.add(1), b.add(2)]);
    expect(flushed).toEqual([[1, 2]]);
  });

  it('given slices reaching the size limit, when added, then flushed without waiting for the age limit', async () => {
    const flushed: number[][] = [];
    const b = new Batcher<number>({
      maxEvents: 5,
      maxMs: 60_000,
      sizeOf: (n) => n,
      flush: async (s) => {
        flushed.push(s);
      },
    });
    await Promise.all([b.add(2), b.add(3)]);
    expect(flushed).toEqual([[2, 3]]);
  });

  it('runs one flush at a time, and add settles only after its own flush', async () => {
    let active = 0;
    let most = 0;
    const order: string[] = [];
    const b = new Batcher<number>({
      maxEvents: 1,
      maxMs: 1000,
      sizeOf: (n) => n,
      flush: async (s) => {
        active++;
        most = Math.max(most, active);
        await new Promise((r) => setTimeout(r, 10));
        order.push(`flushed ${s.join(',')}`);
        active--;
      },
    });
    await Promise.all([1, 2, 3].map((n) => b.add(n).then(() => order.push(`settled ${n}`))));
    expect(most).toBe(1);
    expect(order.indexOf('settled 3')).toBeGreaterThan(order.findIndex((o) => o.startsWith('flushed') && o.includes('3')));
  });

  it('given a failing flush, when added, then the add rejects with the flush error', async () => {
    const b = new Batcher<number>({
      maxEvents: 1,
      maxMs: 10,
      sizeOf: (n) => n,
      flush: async () => {
        throw new Error('boom');
      },
    });
    await expect(b.add(1)).rejects.toThrow('boom');
  });
});

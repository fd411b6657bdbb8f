import { describe, expect, it } from 'vitest';
import type { StreamViews } from '../live/stream-views.js';
import { sharedProcessedHead } from './views-head.js';

/** Views whose processed head is `head`, counting the reads. */
function views(head: bigint | undefined): { v: StreamViews; reads: () => number } {
  let n = 0;
  const v = {
    head: (c: string) => {
      expect(c).toBe('processed');
      n++;
      return Promise.resolve(head);
    },
  } as unknown as StreamViews;
  return { v, reads: () => n };
}

describe('sharedProcessedHead', () => {
  it('reads the views once per period for every waiting subscription, and again after it', async () => {
    const { v, reads } = views(42n);
    const heads = await Promise.all(Array.from({ length: 500 }, (_, i) => sharedProcessedHead(v, 250, 1_000 + (i % 200))));
    expect(new Set(heads)).toEqual(new Set([42n]));
    expect(reads()).toBe(1);
    expect(await sharedProcessedHead(v, 250, 1_250)).toBe(42n);
    expect(reads()).toBe(2);
    // Other views are read on their own; views holding no slot read as -1.
    const none = views(undefined);
    expect(await sharedProcessedHead(none.v, 250, 1_260)).toBe(-1n);
    expect([reads(), none.reads()]).toEqual([2, 1]);
  });
});

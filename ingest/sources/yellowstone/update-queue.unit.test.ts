import { describe, expect, it } from 'vitest';
import { UpdateQueue } from './update-queue.js';

describe('UpdateQueue', () => {
  it('hands items over in order, holds producers beyond its capacity and releases them as items are taken', async () => {
    const q = new UpdateQueue<number>(2);
    const done: number[] = [];
    const pushes = [1, 2, 3, 4].map((n) => q.push(n).then(() => done.push(n)));
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toEqual([1, 2]);
    expect(q.size).toBe(2);
    expect(await q.take()).toBe(1);
    await Promise.all(pushes.slice(0, 3));
    expect(done).toEqual([1, 2, 3]);
    expect([await q.take(), await q.take(), await q.take()]).toEqual([2, 3, 4]);
    await Promise.all(pushes);
  });

  it('a waiting consumer gets the next push, even with no room; close releases producers and ends the consumer', async () => {
    const q = new UpdateQueue<string>(0);
    const next = q.take();
    await q.push('a');
    expect(await next).toBe('a');
    const held = q.push('b'); // no room and no consumer: waits
    q.close();
    await held;
    expect(await q.take()).toBeUndefined();
    await q.push('c');
    expect(q.size).toBe(0);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { retry, retryDelay, type RetryPolicy } from './retry.js';
import { StopError } from './stop.js';

const fails = (n: number, err: () => unknown = () => new Error('boom')) => {
  let calls = 0;
  const fn = vi.fn(async (attempt: number) => {
    calls++;
    if (calls <= n) throw err();
    return `ok after ${attempt}`;
  });
  return fn;
};

describe('retryDelay', () => {
  it('doubles from the initial wait up to the maximum', () => {
    const p: RetryPolicy = { initialMs: 50, maxMs: 1_000 };
    expect([0, 1, 2, 3, 4, 5, 6, 40, 2_000].map((n) => retryDelay(p, n))).toEqual([50, 100, 200, 400, 800, 1_000, 1_000, 1_000, 1_000]);
  });

  it('takes another factor', () => {
    expect([0, 1, 2, 3].map((n) => retryDelay({ initialMs: 10, factor: 3, maxMs: 100 }, n))).toEqual([10, 30, 90, 100]);
  });

  it('draws jitter below the computed wait: (1 - jitter) .. 1 times it, rounded', () => {
    const p: RetryPolicy = { initialMs: 250, maxMs: 10_000, jitter: 0.2 };
    expect(retryDelay(p, 0, () => 0)).toBe(200);
    expect(retryDelay(p, 0, () => 1)).toBe(250);
    expect(retryDelay(p, 2, () => 0.5)).toBe(900);
    expect(retryDelay(p, 10, () => 0.5)).toBe(9_000);
  });

  it('waits nothing with a zero initial wait', () => {
    expect(retryDelay({ initialMs: 0, maxMs: 0 }, 3)).toBe(0);
  });
});

describe('retry', () => {
  it('returns the first success, passing each attempt its number and waiting the policy between', async () => {
    const waits: number[] = [];
    const fn = fails(3);
    const r = await retry(fn, { policy: { initialMs: 1, maxMs: 3 }, onRetry: (_e, _a, w) => void waits.push(w) });
    expect(r).toBe('ok after 3');
    expect(fn.mock.calls.map((c) => c[0])).toEqual([0, 1, 2, 3]);
    expect(waits).toEqual([1, 2, 3]);
  });

  it('throws a failure that is not retriable at once, as it is', async () => {
    const bad = new Error('bad');
    const fn = fails(5, () => bad);
    const onRetry = vi.fn();
    await expect(retry(fn, { policy: { initialMs: 1, maxMs: 1 }, isRetriable: (e) => e !== bad, onRetry })).rejects.toBe(bad);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('asks isRetriable with the failed attempt number (a give-up rule that depends on it)', async () => {
    const fn = fails(10);
    const seen: number[] = [];
    await expect(retry(fn, { policy: { initialMs: 0, maxMs: 0 }, isRetriable: (_e, a) => (seen.push(a), a < 2) })).rejects.toThrow('boom');
    expect(seen).toEqual([0, 1, 2]);
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('gives up after maxAttempts, throwing the last failure', async () => {
    let n = 0;
    const fn = vi.fn(async () => {
      throw new Error(`failure ${n++}`);
    });
    await expect(retry(fn, { policy: { initialMs: 0, maxMs: 0, maxAttempts: 3 } })).rejects.toThrow('failure 2');
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('gives up on the first failure past the deadline', async () => {
    vi.useFakeTimers();
    try {
      const fn = vi.fn(async () => {
        throw new Error('down');
      });
      const p = retry(fn, { policy: { initialMs: 100, maxMs: 100, deadlineMs: 250 } });
      const settled = p.catch((e: unknown) => e);
      // Failures at 0, 100, 200 ms are within the deadline; the one at 300 ms is past it.
      await vi.advanceTimersByTimeAsync(1_000);
      expect(((await settled) as Error).message).toBe('down');
      expect(fn).toHaveBeenCalledTimes(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses the wait a failure asks for instead of the policy', async () => {
    const waits: number[] = [];
    await retry(fails(2), {
      policy: { initialMs: 1, maxMs: 4 },
      waitOf: (_e, a) => (a === 0 ? 7 : undefined),
      onRetry: (_e, _a, w) => void waits.push(w),
    });
    expect(waits).toEqual([7, 2]);
  });

  it('awaits onRetry before the next attempt', async () => {
    const order: string[] = [];
    let n = 0;
    await retry(
      async () => {
        order.push(`attempt ${n}`);
        if (n++ === 0) throw new Error('x');
      },
      {
        policy: { initialMs: 0, maxMs: 0 },
        onRetry: async () => {
          await new Promise((r) => setTimeout(r, 5));
          order.push('dropped');
        },
      },
    );
    expect(order).toEqual(['attempt 0', 'dropped', 'attempt 1']);
  });

  it('ends a wait with a StopError when the signal aborts, and makes no further attempt', async () => {
    const ac = new AbortController();
    const fn = fails(100);
    const p = retry(fn, { policy: { initialMs: 60_000, maxMs: 60_000 }, signal: ac.signal });
    await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(StopError);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

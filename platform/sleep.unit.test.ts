import { describe, expect, it } from 'vitest';
import { sleep } from './sleep.js';
import { isStop, StopError, throwIfStopped } from './stop.js';

describe('sleep', () => {
  it('resolves after the wait', async () => {
    const t = performance.now();
    await sleep(20);
    expect(performance.now() - t).toBeGreaterThanOrEqual(15);
  });

  it('rejects with the stop error at once when the signal is already aborted', async () => {
    await expect(sleep(60_000, AbortSignal.abort())).rejects.toBeInstanceOf(StopError);
  });

  it('rejects with the stop error when the signal aborts during the wait', async () => {
    const ac = new AbortController();
    const p = sleep(60_000, ac.signal);
    ac.abort();
    const err = await p.catch((e: unknown) => e);
    expect(isStop(err)).toBe(true);
  });
});

describe('stop error', () => {
  it('is thrown only for an aborted signal, and told apart from failures', () => {
    expect(() => throwIfStopped(undefined)).not.toThrow();
    expect(() => throwIfStopped(new AbortController().signal)).not.toThrow();
    expect(() => throwIfStopped(AbortSignal.abort(), 'rpc call stopped')).toThrow(new StopError('rpc call stopped'));
    expect(isStop(new Error('stopped'))).toBe(false);
  });
});

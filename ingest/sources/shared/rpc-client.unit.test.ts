import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../../platform/retry.js';
import { retryAfterMs, rpcRetryPolicy } from './rpc-client.js';

describe('retryAfterMs', () => {
  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('0')).toBe(0);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('rpc retry policy', () => {
  it('doubles from the minimum up to the maximum, jittered down by at most 20%', () => {
    expect([0, 1, 2, 3, 10, 100].map((n) => retryDelay(rpcRetryPolicy(100, 1000), n, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(retryDelay(rpcRetryPolicy(100, 1000), 3, () => 0)).toBe(640);
  });
});

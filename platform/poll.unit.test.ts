import { describe, expect, it } from 'vitest';
import { pollUntil, PollTimeoutError } from './poll.js';
import { isStop } from './stop.js';

describe('pollUntil', () => {
  it('probes until the state is reached and returns the answer, numbering the probes', async () => {
    const seen: number[] = [];
    const answer = await pollUntil((n) => (seen.push(n), n === 3 ? `reached at ${n}` : undefined), { intervalMs: 1 });
    expect(answer).toBe('reached at 3');
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('returns at once, without waiting, when the first probe answers', async () => {
    const answer = await pollUntil(async () => true, { intervalMs: 60_000 });
    expect(answer).toBe(true);
  });

  it('takes false as "not yet"', async () => {
    let n = 0;
    expect(await pollUntil(() => ++n >= 2, { intervalMs: 1 })).toBe(true);
    expect(n).toBe(2);
  });

  it('gives up after the deadline with an error naming the awaited state', async () => {
    let probes = 0;
    const err = await pollUntil(() => (probes++, undefined), { intervalMs: 2, deadlineMs: 20, what: 'the heartbeat' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PollTimeoutError);
    expect((err as Error).message).toBe('the heartbeat not reached within 20 ms');
    expect(probes).toBeGreaterThan(1);
  });

  it('ends with a stop when the signal aborts during a wait, probing no more', async () => {
    const ac = new AbortController();
    let probes = 0;
    const p = pollUntil(
      () => {
        probes++;
        if (probes === 2) ac.abort();
        return undefined;
      },
      { intervalMs: 1, signal: ac.signal },
    );
    expect(isStop(await p.catch((e: unknown) => e))).toBe(true);
    expect(probes).toBe(2);
  });

  it('ends with the error of a probe that throws', async () => {
    await expect(pollUntil(() => Promise.reject(new Error('Kafka away')), { intervalMs: 1 })).rejects.toThrow('Kafka away');
  });
});

import { describe, expect, it } from 'vitest';
import type { ClickHouseClient } from '@clickhouse/client';
import { freshness, healthOf, ViewsStateCache, type ViewsState } from './state.js';

const state = (processed?: bigint, finalized?: bigint): ViewsState => ({
  head: { processed, confirmed: finalized, finalized },
  height: { processed: undefined, confirmed: undefined, finalized: undefined },
  oldestBlock: undefined,
});

describe('freshness', () => {
  it('is behind without a finalized slot', () => {
    expect(freshness(state(10n, undefined), 10n, 150)).toBe('behind');
  });
  it('is behind when Kafka is more than maxSlotLag ahead', () => {
    expect(freshness(state(100n, 90n), 250n, 150)).toBe('ok');
    expect(freshness(state(100n, 90n), 251n, 150)).toBe('behind');
    expect(freshness(state(100n, 90n), 50n, 150)).toBe('ok');
  });
  it('an unknown tip cannot show lag', () => {
    expect(freshness(state(100n, 90n), undefined, 0)).toBe('ok');
  });
});

describe('healthOf (getHealth)', () => {
  it('is unknown without a finalized slot, whatever the tip', () => {
    expect(healthOf(state(10n, undefined), 10n, 150)).toEqual({ kind: 'unknown' });
    expect(healthOf(state(undefined, undefined), undefined, 150)).toEqual({ kind: 'unknown' });
  });
  it('is behind by the Kafka tip minus the processed head once over maxSlotLag, else ok', () => {
    expect(healthOf(state(100n, 90n), 250n, 150)).toEqual({ kind: 'ok' });
    expect(healthOf(state(100n, 90n), 251n, 150)).toEqual({ kind: 'behind', slots: 151n });
    expect(healthOf(state(100n, 90n), undefined, 0)).toEqual({ kind: 'ok' });
  });
});

describe('ViewsStateCache', () => {
  /** A ClickHouse whose state query answers finalized head `head` when the test releases it. */
  function fakeViews() {
    let head = 100;
    const pending: (() => void)[] = [];
    let queries = 0;
    const ch = {
      query: () => {
        queries++;
        const rows = [
          { k: 'head', c: 'finalized', slot: String(head), v: '0' },
          { k: 'block', c: '', slot: String(head), v: String(head - 1) },
        ];
        return new Promise((resolve) => pending.push(() => resolve({ json: async () => rows })));
      },
    } as unknown as ClickHouseClient;
    return {
      ch,
      setHead: (h: number) => (head = h),
      answer: async () => {
        pending.shift()!();
        await new Promise((r) => setImmediate(r));
      },
      queries: () => queries,
    };
  }
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('past the TTL the last state answers at once while one refresh runs; past the stale window callers wait', async () => {
    const v = fakeViews();
    const cache = new ViewsStateCache(v.ch, 'db', 20, 200);
    const first = cache.get();
    await v.answer();
    expect((await first).head.finalized).toBe(100n);
    v.setHead(101);
    await sleep(30); // past the TTL, inside the stale window
    expect((await cache.get()).head.finalized).toBe(100n); // at once, though the refresh has not answered
    expect((await cache.get()).head.finalized).toBe(100n);
    expect(v.queries()).toBe(2); // one refresh for both
    await v.answer();
    expect((await cache.get()).head.finalized).toBe(101n);
    v.setHead(102);
    await sleep(250); // past TTL + stale window: wait for the refresh
    let done = false;
    const waiting = cache.get().then((s) => ((done = true), s));
    await sleep(5);
    expect(done).toBe(false);
    await v.answer();
    expect((await waiting).head.finalized).toBe(102n);
  });

  it('TTL 0 (tests that change the views): always a fresh read', async () => {
    const v = fakeViews();
    const cache = new ViewsStateCache(v.ch, 'db', 0);
    const a = cache.get();
    await v.answer();
    await a;
    v.setHead(105);
    const b = cache.get();
    await v.answer();
    expect((await b).head.finalized).toBe(105n);
  });
});

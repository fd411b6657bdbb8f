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
    let oldest: number | undefined;
    const pending: (() => void)[] = [];
    let queries = 0;
    const historyReads: boolean[] = [];
    const ch = {
      query: ({ query }: { query: string }) => {
        queries++;
        const history = query.includes("'oldest'");
        historyReads.push(history);
        const rows = [
          { k: 'head', c: 'finalized', slot: String(head), v: '0' },
          { k: 'block', c: '', slot: String(head), v: String(head - 1) },
          ...(history ? [{ k: 'oldest', c: '', slot: String(oldest ?? 0), v: oldest === undefined ? '0' : '1' }] : []),
        ];
        return new Promise((resolve) => pending.push(() => resolve({ json: async () => rows })));
      },
    } as unknown as ClickHouseClient;
    return {
      ch,
      setHead: (h: number) => (head = h),
      setOldest: (o: number) => (oldest = o),
      historyReads,
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

  it('reads the history part with every refresh until the views hold a block, then once per history TTL', async () => {
    const v = fakeViews();
    const cache = new ViewsStateCache(v.ch, 'db', 0, 0, 60);
    const read = async () => {
      const s = cache.get();
      await v.answer();
      return s;
    };
    expect((await read()).oldestBlock).toBeUndefined();
    expect((await read()).oldestBlock).toBeUndefined();
    v.setOldest(7);
    expect((await read()).oldestBlock).toBe(7n); // no block yet: the history was read again
    v.setOldest(8);
    v.setHead(101);
    const kept = await read(); // inside the history TTL: the heads alone, the oldest block carried over
    expect([kept.head.finalized, kept.oldestBlock]).toEqual([101n, 7n]);
    expect(v.historyReads).toEqual([true, true, true, false]);
    await sleep(70);
    expect((await read()).oldestBlock).toBe(8n);
    cache.invalidate();
    expect((await read()).oldestBlock).toBe(8n);
    expect(v.historyReads).toEqual([true, true, true, false, true, true]);
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

import { describe, expect, it } from 'vitest';
import { QueryAdmission, TOO_MANY_QUERIES } from './admission.js';
import { RpcError } from '../solana-json/errors.js';

/** A query that runs until the test ends it; records the order queries started in. */
function recorder(admission: QueryAdmission) {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const query = (client: string, name: string, signal?: AbortSignal): Promise<void> =>
    admission.run(
      client,
      () => {
        started.push(name);
        return new Promise<void>((resolve) => finish.set(name, resolve));
      },
      signal,
    );
  const end = async (name: string): Promise<void> => {
    finish.get(name)!();
    await new Promise((r) => setImmediate(r));
  };
  return { started, query, end };
}

const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('QueryAdmission', () => {
  it('runs at most maxRunning at once; the rest wait and start as places free up', async () => {
    const a = new QueryAdmission({ maxRunning: 2, maxPerClient: 10 });
    const r = recorder(a);
    const all = ['q1', 'q2', 'q3', 'q4'].map((n) => r.query('c', n));
    await settle();
    expect(r.started).toEqual(['q1', 'q2']);
    expect(a.stats()).toMatchObject({ admitted: 4, running: 2 });
    await r.end('q1');
    expect(r.started).toEqual(['q1', 'q2', 'q3']);
    await r.end('q2');
    await r.end('q3');
    await r.end('q4');
    await Promise.all(all);
    expect(a.stats()).toMatchObject({ admitted: 0, running: 0, run: 4, cancelled: 0, refused: 0 });
  });

  it('takes waiting queries round-robin across clients: a client with many queued delays another by one', async () => {
    const a = new QueryAdmission({ maxRunning: 1, maxPerClient: 100 });
    const r = recorder(a);
    void r.query('busy', 'b0');
    for (let i = 1; i <= 5; i++) void r.query('busy', `b${i}`);
    void r.query('other', 'o1');
    void r.query('other', 'o2');
    await settle();
    for (const n of ['b0', 'b1', 'o1', 'b2', 'o2', 'b3', 'b4']) await r.end(n);
    expect(r.started).toEqual(['b0', 'b1', 'o1', 'b2', 'o2', 'b3', 'b4', 'b5']);
  });

  it('refuses a client over its share at once, synchronously, with -32429 naming the limit; others are unaffected', async () => {
    const a = new QueryAdmission({ maxRunning: 1, maxPerClient: 3 });
    const r = recorder(a);
    for (let i = 0; i < 3; i++) void r.query('greedy', `g${i}`);
    let refused: unknown;
    try {
      a.slot('greedy');
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(RpcError);
    expect((refused as RpcError).code).toBe(TOO_MANY_QUERIES);
    expect((refused as RpcError).message).toMatch(/at most 3 queries in flight per client \(rpcMaxQueriesPerClient\)/);
    await expect(r.query('greedy', 'g3')).rejects.toThrow(/at most 3 queries/);
    void r.query('polite', 'p0');
    expect(a.stats()).toMatchObject({ admitted: 4, refused: 2 });
    await settle();
    await r.end('g0');
    await r.end('g1');
    expect(r.started).toEqual(['g0', 'g1', 'p0']); // round-robin: greedy's g2 waits for the polite client's turn
    // A place freed is a place again.
    void r.query('greedy', 'g4');
    await r.end('p0');
    await r.end('g2');
    await r.end('g4');
    expect(r.started).toEqual(['g0', 'g1', 'p0', 'g2', 'g4']);
    expect(a.stats()).toMatchObject({ admitted: 0, running: 0 });
  });

  it('a query aborted while waiting never runs and frees its place; aborted before asking, it is not admitted', async () => {
    const a = new QueryAdmission({ maxRunning: 1, maxPerClient: 2 });
    const r = recorder(a);
    void r.query('c', 'first');
    const gone = new AbortController();
    const waiting = r.query('c', 'gone', gone.signal);
    await settle();
    expect(a.stats()).toMatchObject({ admitted: 2, running: 1 });
    gone.abort(new Error('unsubscribed'));
    await expect(waiting).rejects.toThrow('unsubscribed');
    expect(a.stats()).toMatchObject({ admitted: 1, cancelled: 1 });
    void r.query('c', 'next'); // the freed place is usable (maxPerClient 2)
    await r.end('first');
    expect(r.started).toEqual(['first', 'next']);
    await r.end('next');
    const before = new AbortController();
    before.abort(new Error('already gone'));
    expect(() => a.slot('c', before.signal)).toThrow('already gone');
    expect(a.stats()).toMatchObject({ admitted: 0, running: 0, run: 2, cancelled: 1 });
  });

  it('an abort after the query started changes nothing: it runs to its end and holds its place until then', async () => {
    const a = new QueryAdmission({ maxRunning: 1, maxPerClient: 5 });
    const r = recorder(a);
    const stop = new AbortController();
    const running = r.query('c', 'running', stop.signal);
    void r.query('c', 'after');
    await settle();
    stop.abort();
    await settle();
    expect(r.started).toEqual(['running']);
    await r.end('running');
    await running;
    expect(r.started).toEqual(['running', 'after']);
    await r.end('after');
  });

  it('rejects bounds below 1', () => {
    expect(() => new QueryAdmission({ maxRunning: 0, maxPerClient: 1 })).toThrow(/at least 1/);
  });
});

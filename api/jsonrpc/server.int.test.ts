/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// The HTTP transport and the JSON-RPC envelope of behaviour.md, auth, /health and -32007, over HTTP
// against real embedded ClickHouse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, setHeads, insertBlocks, type TestStore } from '../../test/support/jsonrpc/store.js';
import { ADDR_A, HEADS, PROGRAM, loadWorld, serve, type Served } from '../../test/support/jsonrpc/world.js';

let store: TestStore;
let s: Served;
let tip: bigint | undefined;

beforeAll(async () => {
  store = await openTestStore();
  const db = await store.database('server_world');
  await loadWorld(store.ch, db);
  s = await serve(store.ch, db, { chainTip: () => tip, maxBatch: 5, maxBodyBytes: 2048 });
});
afterAll(async () => {
  await s?.server.close();
  await store?.close();
});

const req = (method: string, params?: unknown, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

describe('transport', () => {
  it('answers POST / with application/json (charset optional), HTTP 200 even for errors', async () => {
    const ok = await s.post(JSON.stringify(req('getBlockHeight')));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(ok.text)).toEqual({ jsonrpc: '2.0', result: expect.any(Number), id: 1 });
    expect(ok.text.startsWith('{"jsonrpc":"2.0","result":')).toBe(true);
    const cs = await s.post(JSON.stringify(req('nope')), { 'content-type': 'application/json; charset=utf-8' });
    expect(cs.status).toBe(200);
    expect(JSON.parse(cs.text)).toEqual({ jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 1 });
  });
  it('answers 415 for another content type, 405 for another method, 200 with CORS for OPTIONS', async () => {
    expect((await s.post(JSON.stringify(req('getBlockHeight')), { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await s.post(JSON.stringify(req('getBlockHeight')), {})).status).toBe(415);
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const r = await fetch(s.url, { method });
      expect(r.status, method).toBe(405);
    }
    const o = await fetch(s.url, { method: 'OPTIONS' });
    expect(o.status).toBe(200);
    expect(o.headers.get('access-control-allow-origin')).toBe('*');
    expect(o.headers.get('access-control-allow-methods')).toContain('POST');
  });
  it('answers 413 for a body over the limit', async () => {
    const big = JSON.stringify(req('getBlockHeight', [{ pad: 'x'.repeat(3000) }]));
    expect((await s.post(big)).status).toBe(413);
    const r = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(big));
          c.close();
        },
      }),
    });
    expect(r.status).toBe(413);
  });
  it('GET /health answers ok', async () => {
    const r = await fetch(`${s.url}health`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('ok');
  });
});

describe('envelope', () => {
  it('echoes number, string and null ids', async () => {
    for (const id of [7, 'abc', null, 1.5]) {
      const r = await s.post(JSON.stringify(req('getBlockHeight', undefined, id)));
      expect(JSON.parse(r.text).id).toEqual(id);
    }
  });
  it('parse error: -32700 with id null', async () => {
    const r = await s.post('{"jsonrpc":"2.0",');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
  });
  it('invalid requests: -32600 Invalid request', async () => {
    const bad = [
      '{"jsonrpc":"1.0","id":1,"method":"getBlockHeight"}',
      '{"id":1,"method":"getBlockHeight"}',
      '{"jsonrpc":"2.0","id":1,"method":5}',
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"2.0","id":1,"method":"getBlockHeight","params":"x"}',
      '{"jsonrpc":"2.0","id":1,"method":"getBlockHeight","extra":1}',
      '{"jsonrpc":"2.0","id":{},"method":"getBlockHeight"}',
      '5',
      '"x"',
      'null',
      'true',
    ];
    for (const body of bad) {
      const r = JSON.parse((await s.post(body)).text);
      expect(r.error, body).toMatchObject({ code: -32600, message: 'Invalid request' });
      expect(r.jsonrpc).toBe('2.0');
    }
    expect(JSON.parse((await s.post(bad[0]!)).text).id).toBe(1);
    expect(JSON.parse((await s.post(bad[6]!)).text).id).toBeNull();
  });
  it('params as an object: -32602', async () => {
    const r = JSON.parse((await s.post(JSON.stringify(req('getBlockHeight', { commitment: 'processed' })))).text);
    expect(r.error).toMatchObject({ code: -32602, message: 'Invalid params' });
  });
  it('notifications get no answer (204), alone or in a batch', async () => {
    const n = await s.post(JSON.stringify({ jsonrpc: '2.0', method: 'getBlockHeight' }));
    expect(n.status).toBe(204);
    expect(n.text).toBe('');
    const b = await s.post(JSON.stringify([{ jsonrpc: '2.0', method: 'getBlockHeight' }, req('getBlockHeight', undefined, 3)]));
    const arr = JSON.parse(b.text);
    expect(arr).toHaveLength(1);
    expect(arr[0].id).toBe(3);
    expect((await s.post(JSON.stringify([{ jsonrpc: '2.0', method: 'x' }]))).status).toBe(204);
  });
  it('batches are answered in order; errors stay per entry', async () => {
    const r = JSON.parse(
      (
        await s.post(
          JSON.stringify([
            req('getBlockHeight', undefined, 'a'),
            req('nope', [], 'b'),
            5,
            req('getBlocks', [1000, 1002], 'c'),
            req('getBlockHeight', [{ commitment: 'x' }], 'd'),
          ]),
        )
      ).text,
    );
    expect(r.map((x: any) => x.id)).toEqual(['a', 'b', null, 'c', 'd']);
    expect(r[0].result).toEqual(expect.any(Number));
    expect(r[1].error.code).toBe(-32601);
    expect(r[2].error).toMatchObject({ code: -32600, message: 'Invalid request' });
    expect(r[3].result).toEqual([1000, 1001, 1002]);
    expect(r[4].error.code).toBe(-32602);
  });
  it('an empty batch and a batch over the limit: one -32600', async () => {
    expect(JSON.parse((await s.post('[]')).text)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request' },
      id: null,
    });
    const six = Array.from({ length: 6 }, (_, i) => req('getBlockHeight', undefined, i));
    const r = JSON.parse((await s.post(JSON.stringify(six))).text);
    expect(r).toMatchObject({ error: { code: -32600, message: 'Invalid request' }, id: null });
    expect(r.error.data).toContain('at most 5');
  });
});

describe('-32007 while bootstrapping or syncing', () => {
  const calls: [string, unknown[], string][] = [
    ['getProgramAccounts', [PROGRAM], 'Account information unavailable'],
    ['getSignaturesForAddress', [ADDR_A], 'Signature information unavailable'],
    ['getBlocksWithLimit', [1000, 5], 'Block information unavailable'],
    ['getBlocks', [1000, 1005], 'Block information unavailable'],
    ['getRecentPerformanceSamples', [], 'Performance samples unavailable'],
    ['getBlockHeight', [], 'Block height not available'],
    ['getLeaderSchedule', [], 'Schedule information unavailable'],
  ];
  it('every method answers its message when the views trail Kafka by more than maxSlotLag; /health says behind', async () => {
    tip = BigInt(HEADS.processed + 151);
    for (const [method, params, message] of calls) {
      expect((await s.call(method, params)).body.error, method).toEqual({ code: -32007, message });
    }
    expect(await (await fetch(`${s.url}health`)).text()).toBe('behind');
    tip = BigInt(HEADS.processed + 150);
    for (const [method, params] of calls) expect((await s.call(method, params)).body.result, method).toBeDefined();
    expect(await (await fetch(`${s.url}health`)).text()).toBe('ok');
    tip = undefined;
  });
  it('bad params are still -32602 while behind', async () => {
    tip = BigInt(HEADS.processed + 1000);
    expect((await s.call('getBlockHeight', [{ commitment: 'x' }])).body.error.code).toBe(-32602);
    tip = undefined;
  });
  it('every method answers its message while the views hold no finalized block', async () => {
    const db = await store.database('server_empty');
    const e = await serve(store.ch, db);
    try {
      for (const [method, params, message] of calls) {
        expect((await e.call(method, params)).body.error, method).toEqual({ code: -32007, message });
      }
      expect(await (await fetch(`${e.url}health`)).text()).toBe('behind');
      // processed and confirmed alone are still bootstrapping
      await insertBlocks(store.ch, db, [{ slot: 5, blockHeight: 5, blockTime: 1 }]);
      await setHeads(store.ch, db, { processed: 5, confirmed: 5 });
      expect((await e.call('getBlockHeight', [{ commitment: 'processed' }])).body.error.code).toBe(-32007);
      await setHeads(store.ch, db, { finalized: 5 });
      expect((await e.call('getBlockHeight', [])).body.result).toBe(5);
      // a head whose block row is missing falls back to the newest block below it
      await setHeads(store.ch, db, { processed: 7 });
      expect((await e.call('getBlockHeight', [{ commitment: 'processed' }])).body.result).toBe(5);
      expect(await (await fetch(`${e.url}health`)).text()).toBe('ok');
    } finally {
      await e.server.close();
    }
  });
  it('/health answers unknown when the views cannot be read', async () => {
    const e = await serve(store.ch, 'no_such_database');
    try {
      const r = await fetch(`${e.url}health`);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe('unknown');
      expect((await e.call('getBlockHeight')).body.error).toEqual({ code: -32603, message: 'Internal error' });
    } finally {
      await e.server.close();
    }
  });
});

describe('auth', () => {
  let a: Served;
  beforeAll(async () => {
    a = await serve(store.ch, 'server_world', { authToken: 's3cret' });
  });
  afterAll(async () => a?.server.close());
  const body = JSON.stringify(req('getBlockHeight'));
  it('401 without or with a wrong token; Bearer and x-token both work; /health stays open', async () => {
    expect((await a.post(body)).status).toBe(401);
    expect((await a.post(body, { 'content-type': 'application/json', authorization: 'Bearer nope' })).status).toBe(401);
    expect((await a.post(body, { 'content-type': 'application/json', authorization: 'Bearer s3cret' })).status).toBe(200);
    expect((await a.post(body, { 'content-type': 'application/json', 'x-token': 's3cret' })).status).toBe(200);
    expect((await a.post(body, { 'content-type': 'application/json', 'x-token': 's3cre' })).status).toBe(401);
    expect((await fetch(`${a.url}health`)).status).toBe(200);
  });
});

describe('the status page routes', () => {
  let st: Served;
  let plain: Served;
  beforeAll(async () => {
    const status = { page: '<!doctype html><title>status</title>', snapshot: () => Promise.resolve({ chain: { tip: '7' } }) };
    st = await serve(store.ch, 'server_world', { authToken: 's3cret', status });
    plain = await serve(store.ch, 'server_world', {});
  });
  afterAll(async () => {
    await st?.server.close();
    await plain?.server.close();
  });
  it('/status serves the page; /status.json the snapshot behind the token (header or ?token=)', async () => {
    const page = await fetch(`${st.url}status`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toBe('<!doctype html><title>status</title>');
    const noToken = await fetch(`${st.url}status.json`);
    expect(noToken.status).toBe(401);
    // The same answer as a JSON-RPC request without a key (api/solana-json/access-denial.ts).
    expect((JSON.parse(await noToken.text()) as { error: { code: number } }).error.code).toBe(-32401);
    expect((await fetch(`${st.url}status.json?token=nope`)).status).toBe(401);
    const viaQuery = await fetch(`${st.url}status.json?token=s3cret`);
    expect(viaQuery.status).toBe(200);
    expect(await viaQuery.json()).toEqual({ chain: { tip: '7' } });
    expect((await fetch(`${st.url}status.json`, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
  });
  it('are absent (404) when the wiring gives no status source', async () => {
    expect((await fetch(`${plain.url}status`)).status).toBe(404);
    expect((await fetch(`${plain.url}status.json`)).status).toBe(404);
  });
});

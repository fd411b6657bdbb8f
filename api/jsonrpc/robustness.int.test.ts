// A few thousand malformed, random and oversized requests and batches (seeded, so a failure replays):
// the server never crashes, never answers 5xx, and every answer has the shape behaviour.md gives it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test/support/jsonrpc/store.js';
import { ADDR_A, PROGRAM, loadWorld, serve, type Served } from '../../test/support/jsonrpc/world.js';
import { seededRandom } from '../../test/support/harness/random.js';
import { capturedLog } from '../../test/support/harness/captured-log.js';
import { nestedArrayText } from '../../test/support/jsonrpc/hostile-json.js';

let store: TestStore;
let s: Served;
const MAX_BODY = 50 * 1024;
const MAX_BATCH = 100;

beforeAll(async () => {
  store = await openTestStore();
  const db = await store.database('robust_world');
  await loadWorld(store.ch, db);
  s = await serve(store.ch, db, { maxBodyBytes: MAX_BODY, maxBatch: MAX_BATCH, stateTtlMs: 200 });
});
afterAll(async () => {
  await s?.server.close();
  await store?.close();
});

const METHODS = [
  'getProgramAccounts',
  'getSignaturesForAddress',
  'getBlocksWithLimit',
  'getBlocks',
  'getRecentPerformanceSamples',
  'getBlockHeight',
  'getLeaderSchedule',
  'getAccountInfo',
  'getMultipleAccounts',
  'getBalance',
  'getSignatureStatuses',
  'getBlockTime',
  'getLatestBlockhash',
  'isBlockhashValid',
  'getTokenAccountsByOwner',
  'getTokenAccountBalance',
  'getHealth',
  'getSlot',
  'sendTransaction',
  '',
  'rpc.x',
  '__proto__',
  'constructor',
  'toString',
];
// -32001/-32004 (getBlockTime of a cleaned-up or unavailable slot) and -32005 (getHealth) are Agave's own codes;
// -32429: this one client over its share of the views' queries (admission.ts), possible with 16 batches at a time;
// -32020: a random `before`/`until` signature that names no transaction (Agave 4.0's answer, issue 32).
const CODES = new Set([-32700, -32600, -32601, -32602, -32001, -32004, -32005, -32007, -32016, -32020, -32429]);

function generator(seed: number) {
  const r = seededRandom(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(a: readonly T[]): T => a[int(a.length)]!;
  const scalars = [
    0,
    -1,
    1,
    1.5,
    2 ** 53,
    2 ** 64,
    1e308,
    -0,
    '',
    'x',
    'finalized',
    'processed',
    true,
    false,
    null,
    PROGRAM,
    ADDR_A,
    '1'.repeat(200),
    '\u0000\ud800',
    1000,
    1010,
    500_001,
  ];
  const value = (depth: number): unknown => {
    const k = int(depth > 3 ? 1 : 6);
    if (k === 0 || k === 1) return pick(scalars);
    if (k === 2) return Array.from({ length: int(5) }, () => value(depth + 1));
    const keys = [
      'commitment',
      'limit',
      'before',
      'until',
      'encoding',
      'dataSlice',
      'filters',
      'memcmp',
      'dataSize',
      'offset',
      'bytes',
      'length',
      'identity',
      'withContext',
      'minContextSlot',
      'mint',
      'programId',
      'searchTransactionHistory',
      '__proto__',
      'constructor',
      'x',
    ];
    const o: Record<string, unknown> = {};
    for (let i = 0; i < int(4); i++) o[pick(keys)] = value(depth + 1);
    return o;
  };
  const request = (): unknown => {
    const o: Record<string, unknown> = {};
    if (r() < 0.9) o.jsonrpc = r() < 0.9 ? '2.0' : pick(scalars);
    if (r() < 0.85) o.id = r() < 0.8 ? int(1000) : pick(scalars);
    if (r() < 0.95) o.method = r() < 0.9 ? pick(METHODS) : pick(scalars);
    if (r() < 0.8) o.params = r() < 0.8 ? Array.from({ length: int(4) }, () => value(1)) : value(1);
    if (r() < 0.03) o.extra = 1;
    return r() < 0.05 ? value(0) : o;
  };
  /** [body, content type] */
  return (): [string, string] => {
    const kind = int(20);
    if (kind === 0) return [Buffer.from(Array.from({ length: int(300) }, () => int(256))).toString('latin1'), 'application/json'];
    if (kind === 1) {
      // truncated JSON
      const t = JSON.stringify(request());
      return [t.slice(0, int(t.length)), 'application/json'];
    }
    if (kind === 2)
      return [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBlockHeight', params: ['x'.repeat(MAX_BODY)] }), 'application/json'];
    if (kind === 3) return [JSON.stringify(request()), pick(['text/plain', 'application/x-www-form-urlencoded', ''])];
    if (kind === 4) return ['['.repeat(int(5000)) + ']'.repeat(int(5000)), 'application/json'];
    if (kind <= 8) return [JSON.stringify(Array.from({ length: int(MAX_BATCH + 20) }, request)), 'application/json; charset=utf-8'];
    return [JSON.stringify(request()), 'application/json'];
  };
}

/**
 * What is wrong with one answer's shape, or undefined. Plain checks, asserted once per response: the ~45,000 answers
 * (batches of up to 120) at seven `expect` calls each spent ~4 CPU s in vitest's assertion bookkeeping.
 */
function responseProblem(x: unknown): string | undefined {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return 'not an object';
  const o = x as Record<string, unknown>;
  if (o.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if (!('id' in o)) return 'no id';
  if (!(o.id === null || typeof o.id === 'number' || typeof o.id === 'string')) return 'an id neither null, a number nor a string';
  if ('result' in o === 'error' in o) return 'not exactly one of result and error';
  if ('error' in o) {
    const e = o.error as { code: number; message: string };
    if (!CODES.has(e.code)) return `error code ${e.code} not among behaviour.md's`;
    if (typeof e.message !== 'string') return 'an error message that is not a string';
  }
  return undefined;
}

function checkResponses(answers: readonly unknown[]): void {
  const wrong = answers.flatMap((a) => {
    const problem = responseProblem(a);
    return problem === undefined ? [] : [`${problem}: ${JSON.stringify(a)?.slice(0, 300)}`];
  });
  if (wrong.length > 0) expect(wrong).toEqual([]);
}

describe('robustness', () => {
  it('survives 3000 random requests and batches, answering each as behaviour.md says', async () => {
    const next = generator(20240601);
    const statuses = new Map<number, number>();
    let i = 0;
    const worker = async () => {
      while (i < 3000) {
        i++;
        const [body, type] = next();
        const headers: Record<string, string> = type === '' ? {} : { 'content-type': type };
        const res = await fetch(s.url, { method: 'POST', headers, body });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        // Plain checks, asserted when one fails (as responseProblem: `expect` per check was most of the JS CPU).
        const status = res.status;
        const wrong =
          ![200, 204, 413, 415].includes(status) ||
          (status === 413 && Buffer.byteLength(body) <= MAX_BODY) ||
          (status === 415 && type.startsWith('application/json')) ||
          (status === 204 && text !== '') ||
          (status === 200 && !/^application\/json/.test(res.headers.get('content-type') ?? ''));
        if (wrong) {
          expect({ status, type, contentType: res.headers.get('content-type'), text: text.slice(0, 200) }, body.slice(0, 200)).toEqual(
            'a 200 (JSON), 204 (empty), 413 (over the body limit) or 415 (not JSON) answer',
          );
        }
        if (status !== 200) continue;
        const answer = JSON.parse(text) as unknown;
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          parsed = undefined;
        }
        if (Array.isArray(answer)) {
          const p = parsed as unknown[];
          if (!Array.isArray(parsed) || p.length === 0 || p.length > MAX_BATCH) {
            expect({ answered: 'a batch', to: body.slice(0, 200) }).toEqual({ answered: `a batch of 1 to ${MAX_BATCH} entries` });
          }
          // one answer per entry that is not a notification
          const notifications = p.filter(
            (e) =>
              typeof e === 'object' &&
              e !== null &&
              !Array.isArray(e) &&
              !('id' in e) &&
              (e as Record<string, unknown>).jsonrpc === '2.0' &&
              typeof (e as Record<string, unknown>).method === 'string' &&
              Object.keys(e).every((k) => ['jsonrpc', 'method', 'params'].includes(k)) &&
              ((e as Record<string, unknown>).params === undefined || typeof (e as Record<string, unknown>).params === 'object'),
          );
          if (answer.length !== p.length - notifications.length) expect(answer.length).toBe(p.length - notifications.length);
          checkResponses(answer);
        } else {
          checkResponses([answer]);
          const code = (answer as { error?: { code: number } }).error?.code;
          if (parsed === undefined && code !== -32700) expect(code, body.slice(0, 200)).toBe(-32700);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    // every kind of answer happened, and the server still answers normally
    expect(statuses.get(200)).toBeGreaterThan(1000);
    expect(statuses.get(413)).toBeGreaterThan(10);
    expect(statuses.get(415)).toBeGreaterThan(10);
    const after = await s.call('getBlockHeight');
    expect(after.body.result).toEqual(expect.any(Number));
  });

  it('survives requests that break HTTP itself', async () => {
    const { connect } = await import('node:net');
    const port = s.server.port;
    const raw = (payload: string) =>
      new Promise<string>((resolve) => {
        const sock = connect(port, '127.0.0.1', () => sock.end(payload));
        let out = '';
        sock.on('data', (d) => (out += d.toString()));
        sock.on('close', () => resolve(out));
        sock.on('error', () => resolve(out));
      });
    expect(await raw('GARBAGE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw('POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"jsonrpc"')).not.toMatch(
      /^HTTP\/1\.1 5/,
    );
    expect(await raw(`POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${10 ** 9}\r\n\r\n{}`)).toMatch(
      /^HTTP\/1\.1 413/,
    );
    expect((await s.call('getBlockHeight')).body.result).toEqual(expect.any(Number));
  });
});

describe('deeply nested JSON (issue 18, item 8)', () => {
  const SIG = '5'.repeat(88);
  const at = (depth: number): Record<string, [method: string, params: string, param: string]> => ({
    'getBlock transactionDetails': ['getBlock', `[1,{"transactionDetails":${nestedArrayText(depth)}}]`, 'transactionDetails'],
    'getBlock maxSupportedTransactionVersion': [
      'getBlock',
      `[1,{"maxSupportedTransactionVersion":${nestedArrayText(depth)}}]`,
      'maxSupportedTransactionVersion',
    ],
    'getTransaction maxSupportedTransactionVersion': [
      'getTransaction',
      `["${SIG}",{"maxSupportedTransactionVersion":${nestedArrayText(depth)}}]`,
      'maxSupportedTransactionVersion',
    ],
    'getProgramAccounts memcmp encoding': [
      'getProgramAccounts',
      `["${PROGRAM}",{"filters":[{"memcmp":{"offset":0,"bytes":"1","encoding":${nestedArrayText(depth)}}}]}]`,
      'filters[0].memcmp.encoding',
    ],
  });
  const body = (method: string, params: string) => `{"jsonrpc":"2.0","id":7,"method":"${method}","params":${params}}`;

  it('12,000 levels (24 KB): -32700 naming the depth limit, no error log; 100 levels: -32602 naming the parameter', async () => {
    const captured = capturedLog();
    const db = await store.database('robust_world');
    const t = await serve(store.ch, db, { maxBodyBytes: MAX_BODY, log: captured.log });
    try {
      for (const [name, [method, params]] of Object.entries(at(12_000))) {
        const text = body(method, params);
        expect(text.length, name).toBeGreaterThan(24_000);
        const r = await t.post(text);
        expect(r.status, name).toBe(200);
        expect(JSON.parse(r.text), name).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32700,
            message: 'Parse error',
            data: "JSON nested more than 127 levels deep (the limit of Agave's parser, serde_json's recursion limit)",
          },
        });
      }
      for (const [name, [method, params, param]] of Object.entries(at(100))) {
        const r = JSON.parse((await t.post(body(method, params))).text);
        expect(r.error.code, name).toBe(-32602);
        expect(r.error.data, name).toMatch(new RegExp(`^${param.replace(/[[\].]/g, '\\$&')}: `));
        expect(r.error.data.length, name).toBeLessThan(300);
      }
      expect(captured.errors()).toEqual([]);
    } finally {
      await t.server.close();
    }
  });
});

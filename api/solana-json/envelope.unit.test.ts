import { describe, expect, it } from 'vitest';
import { classify, errorResponse, parseBody, resultResponse } from './envelope.js';
import { invalidParams } from './errors.js';

describe('classify', () => {
  it('calls, notifications and invalid requests', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'm', params: [1] })).toEqual({ kind: 'call', id: 1, method: 'm', params: [1] });
    expect(classify({ jsonrpc: '2.0', id: null, method: 'm' })).toEqual({ kind: 'call', id: null, method: 'm', params: undefined });
    expect(classify({ jsonrpc: '2.0', id: 'a', method: 'm', params: null })).toMatchObject({ kind: 'call', id: 'a' });
    expect(classify({ jsonrpc: '2.0', method: 'm' })).toEqual({ kind: 'notification', method: 'm', params: undefined });
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'm', params: { a: 1 } })).toMatchObject({ kind: 'call' });
  });
  it.each([
    [5, null],
    [[1], null],
    [null, null],
    [{ jsonrpc: '1.0', id: 3, method: 'm' }, 3],
    [{ id: 3, method: 'm' }, 3],
    [{ jsonrpc: '2.0', id: 3 }, 3],
    [{ jsonrpc: '2.0', id: 3, method: 1 }, 3],
    [{ jsonrpc: '2.0', id: 3, method: 'm', params: 'x' }, 3],
    [{ jsonrpc: '2.0', id: 3, method: 'm', other: 1 }, 3],
    [{ jsonrpc: '2.0', id: [1], method: 'm' }, null],
    [{ jsonrpc: '2.0', id: true, method: 'm' }, null],
    [{ jsonrpc: '2.0', method: 'm', params: 5 }, null],
  ])('invalid: %j (id %j)', (raw, id) => {
    const e = classify(raw);
    expect(e.kind).toBe('invalid');
    if (e.kind === 'invalid') {
      expect(e.id).toBe(id);
      expect(e.error.code).toBe(-32600);
      expect(e.error.message).toBe('Invalid request');
    }
  });
});

describe('parseBody', () => {
  it('JSON nested deeper than Agave accepts: -32700 naming the depth limit, before parsing', () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"getBlock","params":[1,{"transactionDetails":${'['.repeat(6_000)}${']'.repeat(6_000)}}]}`;
    expect(parseBody(deep, 10)).toEqual({
      kind: 'fail',
      response: {
        jsonrpc: '2.0',
        error: {
          code: -32700,
          message: 'Parse error',
          data: "JSON nested more than 127 levels deep (the limit of Agave's parser, serde_json's recursion limit)",
        },
        id: null,
      },
    });
    expect(parseBody(`[${deep}]`, 10)).toMatchObject({ kind: 'fail', response: { error: { code: -32700 } } });
    const ok = `{"jsonrpc":"2.0","id":1,"method":"m","params":${'['.repeat(126)}${']'.repeat(126)}}`;
    expect(parseBody(ok, 10)).toMatchObject({ kind: 'single', entry: { kind: 'call' } });
  });
  it('parse errors, empty and oversized batches fail whole', () => {
    expect(parseBody('{', 10)).toEqual({
      kind: 'fail',
      response: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null },
    });
    expect(parseBody('[]', 10)).toMatchObject({ kind: 'fail', response: { error: { code: -32600 }, id: null } });
    expect(parseBody(JSON.stringify(Array(11).fill({})), 10)).toMatchObject({ kind: 'fail', response: { error: { code: -32600 } } });
    expect(parseBody(JSON.stringify(Array(10).fill({})), 10)).toMatchObject({ kind: 'batch' });
  });
  it('single and batch', () => {
    expect(parseBody('{"jsonrpc":"2.0","id":1,"method":"m"}', 1)).toMatchObject({ kind: 'single', entry: { kind: 'call' } });
    const b = parseBody('[{"jsonrpc":"2.0","id":1,"method":"m"}, 3]', 5);
    expect(b.kind === 'batch' && b.entries.map((e) => e.kind)).toEqual(['call', 'invalid']);
  });
});

describe('responses', () => {
  it('have Agave member order and omit absent data', () => {
    expect(Object.keys(resultResponse(1, 5))).toEqual(['jsonrpc', 'result', 'id']);
    expect(errorResponse(2, invalidParams('why'))).toEqual({
      jsonrpc: '2.0',
      error: { code: -32602, message: 'Invalid params', data: 'why' },
      id: 2,
    });
    expect(errorResponse(2, { code: -1, message: 'm', data: undefined } as never).error).toEqual({ code: -1, message: 'm' });
  });
});

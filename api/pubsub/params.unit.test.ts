// PubSub params: Agave's rules and error messages (rpc/src/rpc_pubsub.rs), and what each request becomes.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { Commitment } from '../filters/index.js';
import { RpcError } from '../solana-json/errors.js';
import { parseSubscribe, parseUnsubscribe } from './params.js';

const key = bs58.encode(Buffer.alloc(32, 1));
const sig = bs58.encode(Buffer.alloc(64, 2));
// bs58 decodes to plain Uint8Arrays.
const K = new Uint8Array(32).fill(1);
const S = new Uint8Array(64).fill(2);

function error(f: () => unknown): { code: number; message: string; data?: unknown } {
  try {
    f();
  } catch (e) {
    if (e instanceof RpcError) return { code: e.code, message: e.message, ...(e.data === undefined ? {} : { data: e.data }) };
    throw e;
  }
  throw new Error('expected an RpcError');
}

describe('parseSubscribe', () => {
  it('accountSubscribe: commitment default finalized, encoding default binary, dataSlice', () => {
    const r = parseSubscribe('account', [key]);
    expect(r.request).toEqual({ kind: 'account', pubkey: K, commitment: Commitment.finalized });
    expect(r.view).toEqual({ encoding: 'binary', dataSlice: undefined });
    const c = parseSubscribe('account', [
      key,
      { commitment: 'processed', encoding: 'base64+zstd', dataSlice: { offset: 1, length: 2 }, minContextSlot: 5 },
    ]);
    expect(c.request).toMatchObject({ commitment: Commitment.processed });
    expect(c.view).toEqual({ encoding: 'base64+zstd', dataSlice: { offset: 1, length: 2 } });
  });

  it('snapshot (issue 23): accountSubscribe and programSubscribe take it as true or false; off by default; anything else is -32602 naming it', () => {
    expect(parseSubscribe('account', [key]).snapshot).toBe(false);
    expect(parseSubscribe('account', [key, { snapshot: true }]).snapshot).toBe(true);
    expect(parseSubscribe('program', [key, { snapshot: true, commitment: 'confirmed' }]).snapshot).toBe(true);
    expect(parseSubscribe('program', [key, { snapshot: false }]).snapshot).toBe(false);
    expect(error(() => parseSubscribe('program', [key, { snapshot: 'yes' }]))).toEqual({
      code: -32602,
      message: 'Invalid params',
      data: 'snapshot: expected true or false, got "yes"',
    });
  });

  it("Agave's messages for keys that do not parse", () => {
    expect(error(() => parseSubscribe('account', ['nope']))).toEqual({ code: -32602, message: 'Invalid Request: Invalid pubkey provided' });
    expect(error(() => parseSubscribe('program', [bs58.encode(Buffer.alloc(31, 1))]))).toEqual({
      code: -32602,
      message: 'Invalid Request: Invalid pubkey provided',
    });
    expect(error(() => parseSubscribe('signature', [key]))).toEqual({
      code: -32602,
      message: 'Invalid Request: Invalid signature provided',
    });
    expect(error(() => parseSubscribe('logs', [{ mentions: ['0OIl'] }]))).toEqual({
      code: -32602,
      message: 'Invalid Request: Invalid mentions provided',
    });
    expect(error(() => parseSubscribe('logs', [{ mentions: [key, key] }]))).toEqual({
      code: -32602,
      message: 'Invalid Request: Only 1 address supported',
    });
    expect(error(() => parseSubscribe('logs', [{ mentions: [] }]))).toEqual({
      code: -32602,
      message: 'Invalid Request: Only 1 address supported',
    });
  });

  it('wrong shapes are Invalid params naming the parameter', () => {
    expect(error(() => parseSubscribe('account', [42]))).toMatchObject({
      code: -32602,
      message: 'Invalid params',
      data: expect.stringContaining('pubkey'),
    });
    expect(error(() => parseSubscribe('account', []))).toMatchObject({ code: -32602, message: 'Invalid params' });
    expect(error(() => parseSubscribe('account', [key, { commitment: 'soon' }]))).toMatchObject({
      code: -32602,
      data: expect.stringContaining('commitment'),
    });
    expect(error(() => parseSubscribe('account', [key, { encoding: 'hex' }]))).toMatchObject({
      code: -32602,
      data: expect.stringContaining('encoding'),
    });
    expect(error(() => parseSubscribe('logs', ['some']))).toMatchObject({ code: -32602, data: expect.stringContaining('allWithVotes') });
    expect(error(() => parseSubscribe('slot', [1]))).toMatchObject({ code: -32602, message: 'Invalid params' });
    expect(error(() => parseSubscribe('signature', [sig, { enableReceivedNotification: 'yes' }]))).toMatchObject({
      code: -32602,
      data: expect.stringContaining('enableReceivedNotification'),
    });
  });

  it('programSubscribe: Agave filter rules through getProgramAccounts’ parser, PubSub encodings', () => {
    const r = parseSubscribe('program', [
      key,
      { encoding: 'binary', commitment: 'confirmed', filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: key } }] },
    ]);
    expect(r.request).toEqual({
      kind: 'program',
      program: K,
      filters: [
        { kind: 'dataSize', size: 165n },
        { kind: 'memcmp', offset: 32n, bytes: K },
      ],
      commitment: Commitment.confirmed,
    });
    expect(r.view!.encoding).toBe('binary');
    expect(
      error(() =>
        parseSubscribe('program', [
          key,
          { filters: [{ dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }] },
        ]),
      ),
    ).toMatchObject({ code: -32602, data: expect.stringContaining('Too many filters') });
    expect(error(() => parseSubscribe('program', [key, { filters: [{ tokenAccountState: null }] }]))).toMatchObject({ code: -32602 });
  });

  it('logs: all, allWithVotes, mentions; signature with enableReceivedNotification', () => {
    expect(parseSubscribe('logs', ['all']).request).toEqual({
      kind: 'logs',
      mentions: undefined,
      votes: false,
      commitment: Commitment.finalized,
    });
    expect(parseSubscribe('logs', ['allWithVotes', { commitment: 'processed' }]).request).toMatchObject({
      votes: true,
      commitment: Commitment.processed,
    });
    expect(parseSubscribe('logs', [{ mentions: [key] }]).request).toMatchObject({ mentions: K });
    expect(parseSubscribe('signature', [sig, { commitment: 'confirmed', enableReceivedNotification: true }]).request).toEqual({
      kind: 'signature',
      signature: S,
      commitment: Commitment.confirmed,
    });
    expect(parseSubscribe('slot', []).request).toEqual({ kind: 'slot' });
    expect(parseSubscribe('root', undefined).request).toEqual({ kind: 'root' });
  });
});

describe('parseUnsubscribe', () => {
  it('one subscription id', () => {
    expect(parseUnsubscribe([7])).toBe(7);
    expect(error(() => parseUnsubscribe(['7']))).toMatchObject({ code: -32602, message: 'Invalid params' });
    expect(error(() => parseUnsubscribe([]))).toMatchObject({ code: -32602 });
    expect(error(() => parseUnsubscribe([1, 2]))).toMatchObject({ code: -32602 });
  });
});

// blockSubscribe's and transactionSubscribe's params: Agave's defaults and messages (rpc_pubsub.rs
// block_subscribe), Helius's filter and options with its 50,000-address limit, and what each request becomes.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { RpcError } from '../solana-json/errors.js';
import { parseSubscribe } from './params.js';
import { MAX_TRANSACTION_FILTER_KEYS } from './stream-params.js';

const key = bs58.encode(Buffer.alloc(32, 1));
const K = new Uint8Array(32).fill(1);
const sig = bs58.encode(Buffer.alloc(64, 2));

function error(f: () => unknown): { code: number; message: string; data?: unknown } {
  try {
    f();
  } catch (e) {
    if (e instanceof RpcError) return { code: e.code, message: e.message, ...(e.data === undefined ? {} : { data: e.data }) };
    throw e;
  }
  throw new Error('expected an RpcError');
}

describe('blockSubscribe params', () => {
  it("Agave's defaults: finalized, base64, full, no rewards, no version", () => {
    const r = parseSubscribe('block', ['all']);
    expect(r.request).toEqual({ kind: 'block', mentions: undefined, commitment: 'finalized' });
    expect(r.options).toEqual({ encoding: 'base64', transactionDetails: 'full', rewards: false, maxSupportedVersion: undefined });
  });

  it('mentionsAccountOrProgram and every option', () => {
    const r = parseSubscribe('block', [
      { mentionsAccountOrProgram: key },
      {
        commitment: 'confirmed',
        encoding: 'jsonParsed',
        transactionDetails: 'accounts',
        showRewards: true,
        maxSupportedTransactionVersion: 0,
        other: 1,
      },
    ]);
    expect(r.request).toEqual({ kind: 'block', mentions: K, commitment: 'confirmed' });
    expect(r.options).toEqual({ encoding: 'jsonParsed', transactionDetails: 'accounts', rewards: true, maxSupportedVersion: 0 });
  });

  it("Agave's errors: below confirmed, a bad key; invalid filter and options name the parameter", () => {
    expect(error(() => parseSubscribe('block', ['all', { commitment: 'processed' }]))).toEqual({
      code: -32602,
      message: 'Method does not support commitment below `confirmed`',
    });
    expect(error(() => parseSubscribe('block', [{ mentionsAccountOrProgram: 'nope' }]))).toEqual({
      code: -32602,
      message: 'Invalid Request: Invalid mentions_account_or_program provided',
    });
    expect(error(() => parseSubscribe('block', ['everything']))).toMatchObject({ code: -32602, data: expect.stringContaining('filter') });
    expect(error(() => parseSubscribe('block', [{ mentions: [key] }]))).toMatchObject({
      code: -32602,
      data: expect.stringContaining('filter'),
    });
    expect(error(() => parseSubscribe('block', ['all', { transactionDetails: 'most' }]))).toMatchObject({
      code: -32602,
      data: expect.stringContaining('transactionDetails'),
    });
    expect(error(() => parseSubscribe('block', ['all', { encoding: 'hex' }]))).toMatchObject({
      code: -32602,
      data: expect.stringContaining('encoding'),
    });
    expect(error(() => parseSubscribe('block', ['all', { maxSupportedTransactionVersion: 256 }]))).toMatchObject({
      code: -32602,
      data: expect.stringContaining('maxSupportedTransactionVersion'),
    });
  });
});

describe('transactionSubscribe params', () => {
  it('the filter becomes a transaction filter; options default finalized, json, full, no rewards', () => {
    const r = parseSubscribe('transaction', [{ vote: false, failed: true, signature: sig, accountInclude: [key], accountRequired: [key] }]);
    expect(r.request).toEqual({
      kind: 'transaction',
      vote: false,
      failed: true,
      signature: new Uint8Array(64).fill(2),
      accountInclude: [K],
      accountExclude: [],
      accountRequired: [K],
      commitment: 'finalized',
    });
    expect(r.options).toEqual({ encoding: 'json', transactionDetails: 'full', rewards: false, maxSupportedVersion: undefined });
    const o = parseSubscribe('transaction', [
      {},
      {
        commitment: 'processed',
        encoding: 'base58',
        transactionDetails: 'signatures',
        showRewards: true,
        maxSupportedTransactionVersion: 0,
      },
    ]);
    expect(o.request).toMatchObject({ commitment: 'processed' });
    expect(o.options).toEqual({ encoding: 'base58', transactionDetails: 'signatures', rewards: true, maxSupportedVersion: 0 });
  });

  it('50,000 addresses per list are taken; one more is refused naming the limit', () => {
    const many = Array.from({ length: MAX_TRANSACTION_FILTER_KEYS }, () => key);
    expect(
      (parseSubscribe('transaction', [{ accountExclude: many }]).request as { accountExclude: readonly unknown[] }).accountExclude,
    ).toHaveLength(50_000);
    for (const member of ['accountInclude', 'accountExclude', 'accountRequired']) {
      expect(error(() => parseSubscribe('transaction', [{ [member]: [...many, key] }]))).toEqual({
        code: -32602,
        message: 'Invalid params',
        data: `filter.${member}: at most 50000 addresses, got 50001`,
      });
    }
  });

  it('unknown members, bad keys and unknown option values are refused naming them', () => {
    expect(error(() => parseSubscribe('transaction', [{ accountsInclude: [key] }]))).toMatchObject({
      code: -32602,
      data: expect.stringContaining('unknown member "accountsInclude"'),
    });
    expect(error(() => parseSubscribe('transaction', [{}, { encodings: 'base64' }]))).toMatchObject({
      data: expect.stringContaining('options: unknown member "encodings"'),
    });
    expect(error(() => parseSubscribe('transaction', [{ accountInclude: [key, 'nope'] }]))).toMatchObject({
      data: expect.stringContaining('filter.accountInclude[1]'),
    });
    expect(error(() => parseSubscribe('transaction', [{ signature: key }]))).toMatchObject({
      data: expect.stringContaining('filter.signature'),
    });
    expect(error(() => parseSubscribe('transaction', [{}, { encoding: 'binary' }]))).toMatchObject({
      data: expect.stringContaining('options.encoding'),
    });
    expect(error(() => parseSubscribe('transaction', [{}, { transactionDetails: 'some' }]))).toMatchObject({
      data: expect.stringContaining('transactionDetails'),
    });
    expect(error(() => parseSubscribe('transaction', [{ vote: 'yes' }]))).toMatchObject({
      code: -32602,
      data: expect.stringContaining('vote'),
    });
    expect(error(() => parseSubscribe('transaction', ['all']))).toMatchObject({ code: -32602, data: expect.stringContaining('filter') });
  });
});

describe('slotsUpdatesSubscribe and voteSubscribe', () => {
  it('take no params', () => {
    expect(parseSubscribe('slotsUpdates', []).request).toEqual({ kind: 'slotsUpdates' });
    expect(parseSubscribe('vote', undefined).request).toEqual({ kind: 'vote' });
    expect(error(() => parseSubscribe('vote', [1]))).toMatchObject({ code: -32602 });
    expect(error(() => parseSubscribe('slotsUpdates', [{}]))).toMatchObject({ code: -32602 });
  });
});

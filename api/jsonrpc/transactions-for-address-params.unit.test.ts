// getTransactionsForAddress's params: defaults, every member's rule and its -32602 naming the member.
import { describe, expect, it } from 'vitest';
import { rpcErrorOf } from '../../test/support/jsonrpc/rpc-error.js';
import { parseGetTransactionsForAddress } from './transactions-for-address-params.js';

const ADDRESS = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SIG = '1'.repeat(64);
const parse = (config?: unknown) => parseGetTransactionsForAddress(config === undefined ? [ADDRESS] : [ADDRESS, config]);
const error = (config: unknown) => rpcErrorOf(() => parse(config));

describe('parseGetTransactionsForAddress', () => {
  it('defaults: signatures, desc, 1000, finalized, json, every filter open', () => {
    expect(parse()).toEqual({
      address: ADDRESS,
      details: 'signatures',
      order: 'desc',
      limit: 1000,
      after: undefined,
      encoding: 'json',
      maxSupportedVersion: undefined,
      slots: { min: undefined, max: undefined },
      blockTime: { min: undefined, max: undefined },
      signatures: {},
      status: 'any',
      tokenAccounts: 'none',
      commitment: 'finalized',
      minContextSlot: undefined,
    });
    expect(parse(null).limit).toBe(1000);
  });

  it('takes every member the SDK sends', () => {
    const p = parse({
      transactionDetails: 'full',
      sortOrder: 'asc',
      limit: 100,
      paginationToken: '355:12',
      commitment: 'confirmed',
      minContextSlot: 7,
      encoding: 'jsonParsed',
      maxSupportedTransactionVersion: 0,
      filters: { status: 'failed', tokenAccounts: 'balanceChanged', signature: { gt: SIG } },
    });
    expect(p).toMatchObject({
      details: 'full',
      order: 'asc',
      limit: 100,
      after: { slot: 355n, position: 12n },
      commitment: 'confirmed',
      minContextSlot: 7n,
      encoding: 'jsonParsed',
      maxSupportedVersion: 0,
      status: 'failed',
      tokenAccounts: 'balanceChanged',
      signatures: { gt: SIG },
    });
    expect(parse({ paginationToken: null }).after).toBeUndefined();
  });

  it('limit: 1..1000 in both modes, whole numbers only', () => {
    expect(parse({ limit: 1 }).limit).toBe(1);
    expect(parse({ transactionDetails: 'full', limit: 1000 }).limit).toBe(1000);
    for (const limit of [0, 1001, -1, 2.5, '10', true]) expect(error({ limit }).data, String(limit)).toMatch(/^limit: /);
  });

  it('slot and blockTime bounds become inclusive ranges; the tighter bound wins; eq pins both ends', () => {
    expect(parse({ filters: { slot: { gt: 10, gte: 5, lt: 20, lte: 30 } } }).slots).toEqual({ min: 11n, max: 19n });
    expect(parse({ filters: { slot: { eq: 12, gte: 3 } } }).slots).toEqual({ min: 12n, max: 12n });
    expect(parse({ filters: { slot: { lt: 0 } } }).slots).toEqual({ min: undefined, max: -1n });
    expect(parse({ filters: { blockTime: { gte: 100, lt: 200 } } }).blockTime).toEqual({ min: 100n, max: 199n });
    expect(parse({ filters: { blockTime: { eq: -5 } } }).blockTime).toEqual({ min: -5n, max: -5n });
    expect(parse({ filters: { slot: null, blockTime: { gt: null } } }).slots).toEqual({ min: undefined, max: undefined });
  });

  it('invalid values answer -32602 naming the member', () => {
    const cases: [unknown, RegExp][] = [
      [{ transactionDetails: 'accounts' }, /transactionDetails: "accounts" is not offered/],
      [{ transactionDetails: 'none' }, /transactionDetails: expected one of signatures, full/],
      [{ sortOrder: 'newest' }, /sortOrder: expected one of desc, asc/],
      [{ paginationToken: 'abc' }, /paginationToken: expected "<slot>:<position>"/],
      [{ paginationToken: 5 }, /paginationToken/],
      [{ paginationToken: '1:4294967296' }, /paginationToken: slot or position out of range/],
      [{ paginationToken: '18446744073709551616:0' }, /paginationToken: slot or position out of range/],
      [{ paginationToken: '-1:0' }, /paginationToken/],
      [{ encoding: 'xml' }, /encoding/],
      [{ maxSupportedTransactionVersion: 'v0' }, /maxSupportedTransactionVersion/],
      [{ filters: [] }, /filters: expected an object/],
      [{ filters: { tokenAccount: 'all' } }, /filters\.tokenAccount: unknown member/],
      [{ filters: { slot: { gte: -1 } } }, /filters\.slot\.gte: expected a non-negative whole number/],
      [{ filters: { slot: { from: 3 } } }, /filters\.slot\.from: unknown member; expected gte, gt, lte, lt, eq/],
      [{ filters: { slot: 5 } }, /filters\.slot: expected an object/],
      [{ filters: { blockTime: { lt: 1.5 } } }, /filters\.blockTime\.lt: expected a whole number of unix seconds/],
      [{ filters: { signature: { gt: 'abc' } } }, /filters\.signature\.gt: invalid signature/],
      [{ filters: { signature: { eq: SIG } } }, /filters\.signature\.eq: unknown member/],
      [{ filters: { status: 'ok' } }, /filters\.status: expected one of any, succeeded, failed/],
      [{ filters: { tokenAccounts: true } }, /filters\.tokenAccounts: expected one of none, balanceChanged, all/],
      [{ minContextSlot: -3 }, /minContextSlot/],
      ['config', /config: expected a config object/],
    ];
    for (const [config, want] of cases) {
      const e = error(config);
      expect(e.code, JSON.stringify(config)).toBe(-32602);
      expect(e.data, JSON.stringify(config)).toMatch(want);
    }
    expect(error({ commitment: 'processed' }).message).toMatch(/commitment below `confirmed`/);
    expect(rpcErrorOf(() => parseGetTransactionsForAddress([])).data).toMatch(/at least 1/);
    expect(rpcErrorOf(() => parseGetTransactionsForAddress(['nope'])).data).toMatch(/^address: /);
    expect(rpcErrorOf(() => parseGetTransactionsForAddress([ADDRESS, {}, {}])).data).toMatch(/at most 2/);
  });
});

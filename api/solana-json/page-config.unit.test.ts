// The paging members of getProgramAccountsV2 / getTokenAccountsByOwnerV2, and the V2 parsers built on the V1 ones.
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { rpcErrorOf } from '../../test/support/jsonrpc/rpc-error.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, parsePageConfig } from './page-config.js';
import { parseGetProgramAccountsV2 } from '../jsonrpc/methods/getProgramAccountsV2.js';
import { parseGetTokenAccountsByOwnerV2 } from '../jsonrpc/methods/getTokenAccountsByOwnerV2.js';

const KEY = bs58.encode(Buffer.alloc(32, 9));
const MINT = bs58.encode(Buffer.alloc(32, 7));

const invalid = (f: () => unknown, member: string) => {
  const e = rpcErrorOf(f);
  expect(e.code).toBe(-32602);
  expect(String(e.data)).toContain(member);
};

describe('parsePageConfig', () => {
  it('defaults: a first page of 1,000, no changedSinceSlot (absent, null and 0 alike)', () => {
    expect(parsePageConfig({})).toEqual({ limit: DEFAULT_PAGE_LIMIT, after: undefined, changedSinceSlot: undefined });
    expect(parsePageConfig({ limit: null, paginationKey: null, changedSinceSlot: null })).toEqual(parsePageConfig({}));
    expect(parsePageConfig({ changedSinceSlot: 0 }).changedSinceSlot).toBeUndefined();
  });

  it('takes limit 1..10,000, a 32-byte base-58 key as the cursor bytes, and a whole changedSinceSlot', () => {
    expect(parsePageConfig({ limit: 1 }).limit).toBe(1);
    expect(parsePageConfig({ limit: MAX_PAGE_LIMIT }).limit).toBe(10_000);
    expect(Buffer.from(parsePageConfig({ paginationKey: KEY }).after!)).toEqual(Buffer.alloc(32, 9));
    expect(parsePageConfig({ changedSinceSlot: 123 }).changedSinceSlot).toBe(123n);
  });

  it('answers -32602 naming the member for anything else', () => {
    for (const limit of [0, -1, 10_001, 1.5, '10', true, {}]) invalid(() => parsePageConfig({ limit }), 'limit');
    for (const paginationKey of ['', 'not base58!', bs58.encode(Buffer.alloc(31, 1)), bs58.encode(Buffer.alloc(33, 1)), 7, {}])
      invalid(() => parsePageConfig({ paginationKey }), 'paginationKey');
    for (const changedSinceSlot of [-1, 2.5, '5', 2 ** 60]) invalid(() => parsePageConfig({ changedSinceSlot }), 'changedSinceSlot');
  });
});

describe('the V2 parsers', () => {
  it("getProgramAccountsV2 takes getProgramAccounts' params and the paging members", () => {
    const p = parseGetProgramAccountsV2([
      KEY,
      { encoding: 'base58', filters: [{ dataSize: 8 }], limit: 5, paginationKey: KEY, withContext: true },
    ]);
    expect(p).toMatchObject({ program: KEY, encoding: 'base58', withContext: true, commitment: 'finalized', page: { limit: 5 } });
    expect(p.filters).toEqual([{ kind: 'dataSize', size: 8n }]);
    invalid(() => parseGetProgramAccountsV2([KEY, { filters: Array(5).fill({ dataSize: 1 }) }]), 'filters');
    invalid(() => parseGetProgramAccountsV2([KEY, { encoding: 'binary' }]), 'encoding');
    invalid(() => parseGetProgramAccountsV2(['x']), 'programId');
  });

  it('getTokenAccountsByOwnerV2 requires the mint or programId filter, defaults to base64 and has no legacy binary', () => {
    const p = parseGetTokenAccountsByOwnerV2([KEY, { mint: MINT }, { limit: 2 }]);
    expect(p).toMatchObject({
      owner: KEY,
      filter: { kind: 'mint', mint: MINT },
      encoding: 'base64',
      withContext: false,
      page: { limit: 2 },
    });
    expect(parseGetTokenAccountsByOwnerV2([KEY, { mint: MINT }, { withContext: true }]).withContext).toBe(true);
    invalid(() => parseGetTokenAccountsByOwnerV2([KEY]), 'expected at least 2');
    invalid(() => parseGetTokenAccountsByOwnerV2([KEY, {}]), 'filter');
    invalid(() => parseGetTokenAccountsByOwnerV2([KEY, { mint: MINT }, { encoding: 'binary' }]), 'encoding');
    invalid(() => parseGetTokenAccountsByOwnerV2([KEY, { mint: MINT }, { limit: 0 }]), 'limit');
  });
});

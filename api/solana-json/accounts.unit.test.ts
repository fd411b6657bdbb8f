// encodeAccount: Agave's UiAccount for every encoding, its base58 limit after slicing, and the jsonParsed
// fallback to base64 where no parser applies.
import bs58 from 'bs58';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PROGRAM } from '../../schemas/programs.js';
import { encodeAccount, type AccountRow } from './accounts.js';
import { RpcError } from './errors.js';
import { toJson } from './json.js';
import { zstdReady } from './zstd.js';

const row = (data: Buffer, owner = '11111111111111111111111111111111'): AccountRow => ({
  pubkey: bs58.encode(Buffer.alloc(32, 1)),
  owner,
  lamports: '18446744073709551615',
  executable: 0,
  rent_epoch: '361',
  space: data.length,
  data: data.toString('base64'),
});
const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => i % 256));
const json = (v: unknown) => JSON.parse(toJson(v));

beforeAll(() => zstdReady());

describe('encodeAccount', () => {
  it('binary is a bare base58 string; base58 and base64 are [data, encoding]; u64s exact', () => {
    const r = row(bytes(10));
    expect(encodeAccount(r, 'binary', undefined)).toMatchObject({
      data: bs58.encode(bytes(10)),
      owner: r.owner,
      executable: false,
      space: 10,
    });
    expect(toJson(encodeAccount(r, 'base64', undefined))).toContain('"lamports":18446744073709551615');
    expect(json(encodeAccount(r, 'base58', undefined)).data).toEqual([bs58.encode(bytes(10)), 'base58']);
    expect(json(encodeAccount(r, 'base64', { offset: 8, length: 10 })).data).toEqual([bytes(10).subarray(8).toString('base64'), 'base64']);
    expect(json(encodeAccount(r, 'base64', { offset: 50, length: 10 })).data).toEqual(['', 'base64']);
    expect(json(encodeAccount(r, 'base64+zstd', undefined)).data[1]).toBe('base64+zstd');
  });
  it("binary and base58 over 128 bytes after slicing are Agave's -32600; a slice within the limit passes", () => {
    const big = row(bytes(200));
    for (const enc of ['binary', 'base58'] as const) {
      let e: unknown;
      try {
        encodeAccount(big, enc, undefined);
      } catch (x) {
        e = x;
      }
      expect(e).toBeInstanceOf(RpcError);
      expect((e as RpcError).code).toBe(-32600);
      expect(() => encodeAccount(big, enc, { offset: 0, length: 128 })).not.toThrow();
      expect(() => encodeAccount(big, enc, { offset: 72, length: 500 })).not.toThrow();
    }
  });
  it("jsonParsed: token-program data parsed; without a parser (or the mint's decimals) base64 of the sliced data", () => {
    const mint = Buffer.alloc(82);
    mint[44] = 4;
    mint[45] = 1;
    expect(json(encodeAccount(row(mint, TOKEN_PROGRAM), 'jsonParsed', { offset: 0, length: 1 })).data.parsed.info.decimals).toBe(4);
    expect(json(encodeAccount(row(bytes(10)), 'jsonParsed', { offset: 2, length: 2 })).data).toEqual([
      bytes(10).subarray(2, 4).toString('base64'),
      'base64',
    ]);
    const account = Buffer.alloc(165);
    account[108] = 1;
    expect(json(encodeAccount(row(account, TOKEN_PROGRAM), 'jsonParsed', undefined)).data[1]).toBe('base64');
    const decimals = new Map([[bs58.encode(Buffer.alloc(32)), 3]]);
    expect(json(encodeAccount(row(account, TOKEN_PROGRAM), 'jsonParsed', undefined, decimals)).data.parsed.type).toBe('account');
  });
});

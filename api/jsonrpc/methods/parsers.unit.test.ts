/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// The params parsers and pure shaping of the seven methods.
import { describe, expect, it } from 'vitest';
import { rpcErrorOf } from '../../../test/support/jsonrpc/rpc-error.js';
import bs58 from 'bs58';
import { parseGetBlockHeight } from './getBlockHeight.js';
import { parseGetBlocks } from './getBlocks.js';
import { parseGetBlocksWithLimit } from './getBlocksWithLimit.js';
import { expandSchedule, parseGetLeaderSchedule, scheduleResult } from './getLeaderSchedule.js';
import { accountItemsJson, parseGetProgramAccounts, shapeAccount } from './getProgramAccounts.js';
import { programAccountsSql } from '../../views/program-accounts.js';
import { parseGetRecentPerformanceSamples } from './getRecentPerformanceSamples.js';
import { parseGetSignaturesForAddress } from './getSignaturesForAddress.js';
import { zstdReady } from '../../solana-json/zstd.js';
import { toJson } from '../../solana-json/json.js';
import { TOKEN_PROGRAM } from '../../../schemas/programs.js';

const KEY = '11111111111111111111111111111111';
const KEY2 = TOKEN_PROGRAM;
const SIG = '1'.repeat(64);

const err = rpcErrorOf;

describe('getBlockHeight', () => {
  it('parses an optional config', () => {
    expect(parseGetBlockHeight(undefined)).toEqual({ commitment: 'finalized', minContextSlot: undefined });
    expect(parseGetBlockHeight([{ commitment: 'processed', minContextSlot: 3 }])).toEqual({ commitment: 'processed', minContextSlot: 3n });
    expect(err(() => parseGetBlockHeight([1])).data).toMatch(/config/);
  });
});

describe('getBlocks', () => {
  it('start, optional end or config, optional config', () => {
    expect(parseGetBlocks([5])).toMatchObject({ start: 5n, end: undefined, commitment: 'finalized' });
    expect(parseGetBlocks([5, 9])).toMatchObject({ start: 5n, end: 9n });
    expect(parseGetBlocks([5, { commitment: 'confirmed' }])).toMatchObject({ end: undefined, commitment: 'confirmed' });
    expect(parseGetBlocks([5, null, { commitment: 'confirmed' }])).toMatchObject({ end: undefined, commitment: 'confirmed' });
  });
  it('rejects with interface.md messages', () => {
    expect(err(() => parseGetBlocks([9, 9]))).toMatchObject({
      code: -32602,
      message: 'Invalid param: startSlot must be less than endSlot',
    });
    expect(err(() => parseGetBlocks([5, 9, { commitment: 'processed' }])).message).toBe(
      'Method does not support commitment below `confirmed`',
    );
    expect(err(() => parseGetBlocks([5, {}, {}])).data).toMatch(/endSlot/);
    expect(err(() => parseGetBlocks(['5'])).data).toMatch(/startSlot/);
    expect(err(() => parseGetBlocks([5, -9])).data).toMatch(/endSlot/);
  });
});

describe('getBlocksWithLimit', () => {
  it('start and limit', () => {
    expect(parseGetBlocksWithLimit([5, 500_000])).toMatchObject({ start: 5n, limit: 500_000n });
    expect(err(() => parseGetBlocksWithLimit([5, 0])).message).toBe('Invalid param: limit must be positive');
    expect(err(() => parseGetBlocksWithLimit([5, -0.5])).message).toBe('Invalid param: limit must be positive');
    expect(err(() => parseGetBlocksWithLimit([5, 500_001])).message).toBe('Invalid param: limit too large');
    expect(err(() => parseGetBlocksWithLimit([5, '3'])).data).toMatch(/limit/);
    expect(err(() => parseGetBlocksWithLimit([5, 1.5])).data).toMatch(/limit/);
    expect(err(() => parseGetBlocksWithLimit([5])).data).toMatch(/at least 2/);
  });
});

describe('getSignaturesForAddress', () => {
  it('defaults and members', () => {
    expect(parseGetSignaturesForAddress([KEY])).toEqual({
      address: KEY,
      limit: 1000,
      before: undefined,
      until: undefined,
      commitment: 'finalized',
      minContextSlot: undefined,
    });
    expect(parseGetSignaturesForAddress([KEY, { limit: 1, before: SIG, until: SIG, commitment: 'confirmed' }])).toMatchObject({
      limit: 1,
      before: SIG,
      until: SIG,
      commitment: 'confirmed',
    });
  });
  it('rejects', () => {
    expect(err(() => parseGetSignaturesForAddress([KEY, { limit: 0 }])).data).toMatch(/limit: Invalid limit; max 1000/);
    expect(err(() => parseGetSignaturesForAddress([KEY, { limit: 1001 }])).data).toMatch(/limit/);
    expect(err(() => parseGetSignaturesForAddress([KEY, { before: KEY }])).data).toMatch(/before/);
    expect(err(() => parseGetSignaturesForAddress([KEY, { until: 5 }])).data).toMatch(/until/);
    expect(err(() => parseGetSignaturesForAddress(['x'])).data).toMatch(/address/);
    expect(err(() => parseGetSignaturesForAddress([KEY, { commitment: 'processed' }])).message).toBe(
      'Method does not support commitment below `confirmed`',
    );
  });
});

describe('getRecentPerformanceSamples', () => {
  it('limit 0..720, default 720', () => {
    expect(parseGetRecentPerformanceSamples([])).toEqual({ limit: 720 });
    expect(parseGetRecentPerformanceSamples([0])).toEqual({ limit: 0 });
    expect(err(() => parseGetRecentPerformanceSamples([721])).data).toMatch(/limit: Invalid limit; max 720/);
    expect(err(() => parseGetRecentPerformanceSamples([{}])).data).toMatch(/limit/);
  });
});

describe('getLeaderSchedule', () => {
  it('slot, null or config first', () => {
    expect(parseGetLeaderSchedule([])).toMatchObject({ slot: undefined, identity: undefined, withContext: false });
    expect(parseGetLeaderSchedule([7])).toMatchObject({ slot: 7n });
    expect(parseGetLeaderSchedule([null, { identity: KEY }])).toMatchObject({ slot: undefined, identity: KEY });
    expect(parseGetLeaderSchedule([{ identity: KEY, withContext: true }])).toMatchObject({ identity: KEY, withContext: true });
    expect(err(() => parseGetLeaderSchedule([{}, {}])).data).toMatch(/slot/);
    expect(err(() => parseGetLeaderSchedule([null, { identity: 'x' }])).data).toMatch(/identity/);
  });
  it('expands the compact schedule to relative indices', () => {
    const s = expandSchedule({
      epoch: 1n,
      firstSlot: 100n,
      slotsPerEpoch: 10n,
      slotsPerLeader: 4,
      identities: ['A', 'B'],
      schedule: [0, 1, 0],
    });
    expect(Object.fromEntries(s)).toEqual({ A: [0, 1, 2, 3, 8, 9], B: [4, 5, 6, 7] });
    expect(scheduleResult(s, 'B')).toEqual({ B: [4, 5, 6, 7] });
    expect(scheduleResult(s, 'C')).toEqual({});
  });
});

describe('getProgramAccounts', () => {
  it('defaults and members', () => {
    expect(parseGetProgramAccounts([KEY])).toEqual({
      program: KEY,
      encoding: 'base64',
      dataSlice: undefined,
      filters: [],
      withContext: false,
      commitment: 'finalized',
      minContextSlot: undefined,
    });
    const p = parseGetProgramAccounts([
      KEY,
      {
        encoding: 'base58',
        dataSlice: { offset: 1, length: 2 },
        withContext: true,
        filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: KEY2 } }, { memcmp: { offset: 0, bytes: 'AQI=', encoding: 'base64' } }],
      },
    ]);
    expect(p.dataSlice).toEqual({ offset: 1, length: 2 });
    expect(p.filters.map((f) => (f.kind === 'memcmp' ? { ...f, bytes: [...f.bytes] } : f))).toEqual([
      { kind: 'dataSize', size: 165n },
      { kind: 'memcmp', offset: 32n, bytes: [...bs58.decode(KEY2)] },
      { kind: 'memcmp', offset: 0n, bytes: [1, 2] },
    ]);
  });
  it('rejects with the member named', () => {
    expect(err(() => parseGetProgramAccounts([KEY, { filters: Array(5).fill({ dataSize: 1 }) }])).data).toMatch(
      /Too many filters provided; max 4/,
    );
    expect(err(() => parseGetProgramAccounts([KEY, { filters: [{ dataSize: 1, memcmp: {} }] }])).data).toMatch(
      /filters\[0\]: expected exactly one/,
    );
    expect(
      err(() => parseGetProgramAccounts([KEY, { filters: [{ memcmp: { offset: 0, bytes: bs58.encode(Buffer.alloc(129, 1)) } }] }])).data,
    ).toMatch(/at most 128/);
    expect(
      err(() => parseGetProgramAccounts([KEY, { filters: [{ memcmp: { offset: 0, bytes: 'A$==', encoding: 'base64' } }] }])).data,
    ).toMatch(/filters\[0\]\.memcmp\.bytes/);
    expect(err(() => parseGetProgramAccounts([KEY, { encoding: 'json' }])).data).toMatch(/encoding/);
    expect(err(() => parseGetProgramAccounts([KEY, { dataSlice: { length: 1 } }])).data).toMatch(/dataSlice\.offset/);
  });
  it('builds SQL whose values are all placeholders', () => {
    const filters = [
      { kind: 'dataSize' as const, size: 3n },
      { kind: 'memcmp' as const, offset: 4n, bytes: Uint8Array.from([0xab, 0x27]) },
    ];
    const q = programAccountsSql({ db: 'd', program: KEY, slot: 9n, filters }, { limit: false });
    expect(q.sql).toContain('space = {ds0:UInt64}');
    expect(q.sql).toContain('unhex({mb1:String})');
    expect(q.sql).not.toContain('ab27');
    expect(q.sql).not.toContain(KEY);
    expect(q.params(undefined)).toMatchObject({ ds0: 3n, mo1: 4n, ml1: 2, mb1: 'ab27', slot: 9n, program: KEY, after: '' });
  });
  it('shapes accounts in each encoding', async () => {
    await zstdReady();
    const row = {
      pubkey: KEY,
      owner: KEY2,
      lamports: '18446744073709551615',
      executable: 1,
      rent_epoch: '18446744073709551615',
      space: 3,
      data: Buffer.from([1, 2, 3]).toString('base64'),
    };
    expect(toJson(shapeAccount(row, 'base64', undefined))).toBe(
      `{"pubkey":"${KEY}","account":{"lamports":18446744073709551615,"data":["AQID","base64"],"owner":"${KEY2}","executable":true,"rentEpoch":18446744073709551615,"space":3}}`,
    );
    expect((shapeAccount(row, 'jsonParsed', { offset: 1, length: 1 }) as any).account.data).toEqual(['Ag==', 'base64']);
    expect((shapeAccount(row, 'base58', { offset: 5, length: 1 }) as any).account.data).toEqual(['', 'base58']);
    expect((shapeAccount(row, 'base64+zstd', undefined) as any).account.data[1]).toBe('base64+zstd');
    const big = { ...row, data: Buffer.alloc(129).toString('base64') };
    expect(err(() => shapeAccount(big, 'base58', undefined))).toMatchObject({ code: -32600 });
    expect((shapeAccount(big, 'base58', { offset: 1, length: 200 }) as any).account.data[1]).toBe('base58');
  });
  it('writes a list of accounts as text exactly as toJson writes their shapes, in every encoding and for odd values', async () => {
    await zstdReady();
    const rows = [
      {
        pubkey: KEY,
        owner: KEY2,
        lamports: '18446744073709551615',
        executable: 1,
        rent_epoch: '18446744073709551615',
        space: 3,
        data: 'AQID',
      },
      { pubkey: KEY2, owner: KEY, lamports: '0', executable: false, rent_epoch: '361', space: 0, data: '' },
      // Values the views never hold, still written as toJson writes them: a string needing escapes, digits with a
      // leading zero, a number where digits are expected.
      {
        pubkey: 'a"b\\c',
        owner: 'o\u0001',
        lamports: '007',
        executable: true,
        rent_epoch: 5 as unknown as string,
        space: '4' as unknown as number,
        data: 'AQIDBA==',
      },
    ];
    const slices = [undefined, { offset: 1, length: 2 }, { offset: 9, length: 1 }];
    for (const encoding of ['base64', 'base58', 'base64+zstd', 'jsonParsed'] as const)
      for (const slice of slices) {
        const want = toJson(rows.map((r) => shapeAccount(r, encoding, slice)));
        expect(`[${accountItemsJson(rows, encoding, slice)}]`).toBe(want);
        expect(JSON.parse(want)).toHaveLength(3);
      }
    expect(accountItemsJson([], 'base64', undefined)).toBe('');
  });
});

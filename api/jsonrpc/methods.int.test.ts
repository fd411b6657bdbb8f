/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// Every method over HTTP against real embedded ClickHouse filled with the fixture chain (test/support/jsonrpc/world.ts):
// happy paths at each commitment, paging, skipped slots, encodings, filters, and every error row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { decompress } from '@bokuweb/zstd-wasm';
import { zstdReady } from '../solana-json/zstd.js';
import { insertBlocks, openTestStore, setHeads, key, type TestStore } from '../../test/support/jsonrpc/store.js';
import {
  ACC,
  ADDR_A,
  ADDR_B,
  ADDR_NONE,
  EPOCH,
  EPOCH_SCHEDULE,
  ERR_CUSTOM,
  FIRST,
  FORKED,
  HEADS,
  LAST,
  MINT_1,
  MINT_2,
  OTHER_PROGRAM,
  PROGRAM,
  SKIPPED,
  VALIDATORS,
  loadWorld,
  serve,
  type Served,
  type World,
} from '../../test/support/jsonrpc/world.js';

let store: TestStore;
let world: World;
let s: Served;

beforeAll(async () => {
  store = await openTestStore();
  const db = await store.database('methods_world');
  world = await loadWorld(store.ch, db);
  s = await serve(store.ch, db);
  // The product's one load of the WebAssembly module, never a second init(): that instantiates the module again and
  // swaps its memory under the functions already bound to the first instance, so a compress or decompress after it
  // reads the wrong memory (`Failed to compress with code -10` / `-72`, seen in a full run).
  await zstdReady();
});
afterAll(async () => {
  await s?.server.close();
  await store?.close();
});

const result = async (method: string, params?: unknown): Promise<any> => {
  const r = await s.call(method, params);
  expect(r.status).toBe(200);
  if (r.body.error) throw new Error(`${method} answered ${JSON.stringify(r.body.error)}`);
  return r.body.result;
};
const error = async (method: string, params?: unknown): Promise<{ code: number; message: string; data?: any }> => {
  const r = await s.call(method, params);
  expect(r.status).toBe(200);
  expect(r.body.result).toBeUndefined();
  return r.body.error;
};
const invalidParams = { code: -32602, message: 'Invalid params' };

const producedSlots = (w: World, upTo: number): number[] =>
  w.blocks
    .map((b) => Number(b.slot))
    .filter((x) => x <= upTo && x !== FORKED)
    .sort((a, b) => a - b);

describe('getBlockHeight', () => {
  const heightAt = (slot: number) => Number(world.blocks.find((b) => Number(b.slot) === slot)!.blockHeight);
  it('answers the block height of the newest block at each commitment, finalized by default', async () => {
    expect(await result('getBlockHeight')).toBe(heightAt(HEADS.finalized));
    expect(await result('getBlockHeight', [{ commitment: 'finalized' }])).toBe(heightAt(HEADS.finalized));
    expect(await result('getBlockHeight', [{ commitment: 'confirmed' }])).toBe(heightAt(HEADS.confirmed));
    expect(await result('getBlockHeight', [{ commitment: 'processed' }])).toBe(heightAt(HEADS.processed));
    // heights trail slots because of skipped slots
    expect(heightAt(HEADS.processed)).toBeLessThan(HEADS.processed);
  });
  it('accepts the legacy aliases', async () => {
    expect(await result('getBlockHeight', [{ commitment: 'recent' }])).toBe(heightAt(HEADS.processed));
    expect(await result('getBlockHeight', [{ commitment: 'single' }])).toBe(heightAt(HEADS.confirmed));
    expect(await result('getBlockHeight', [{ commitment: 'singleGossip' }])).toBe(heightAt(HEADS.confirmed));
    expect(await result('getBlockHeight', [{ commitment: 'root' }])).toBe(heightAt(HEADS.finalized));
    expect(await result('getBlockHeight', [{ commitment: 'max' }])).toBe(heightAt(HEADS.finalized));
  });
  it('rejects bad commitment, bad config and too many params', async () => {
    const e = await error('getBlockHeight', [{ commitment: 'fast' }]);
    expect(e).toMatchObject(invalidParams);
    expect(e.data).toContain('commitment');
    expect(await error('getBlockHeight', ['finalized'])).toMatchObject(invalidParams);
    expect(await error('getBlockHeight', [{}, {}])).toMatchObject(invalidParams);
    expect(await error('getBlockHeight', { commitment: 'finalized' })).toMatchObject(invalidParams);
  });
  it('answers -32016 with the context slot below minContextSlot', async () => {
    expect(await error('getBlockHeight', [{ minContextSlot: HEADS.finalized + 1 }])).toEqual({
      code: -32016,
      message: 'Minimum context slot has not been reached',
      data: { contextSlot: HEADS.finalized },
    });
    expect(await result('getBlockHeight', [{ minContextSlot: HEADS.finalized + 1, commitment: 'processed' }])).toBeTypeOf('number');
  });
});

describe('getBlocks', () => {
  it('lists produced slots in the inclusive range, skipping skipped and forked slots', async () => {
    expect(await result('getBlocks', [1000, 1012])).toEqual([1000, 1001, 1002, 1004, 1005, 1006, 1007, 1008, 1009, 1012]);
    expect(await result('getBlocks', [1085, 1095, { commitment: 'confirmed' }])).toEqual([]);
  });
  it('stops at the newest slot of the commitment; end omitted means that slot', async () => {
    expect(await result('getBlocks', [FIRST])).toEqual(producedSlots(world, HEADS.finalized));
    expect(await result('getBlocks', [FIRST, { commitment: 'confirmed' }])).toEqual(producedSlots(world, HEADS.confirmed));
    expect(await result('getBlocks', [FIRST, null, { commitment: 'confirmed' }])).toEqual(producedSlots(world, HEADS.confirmed));
    expect(await result('getBlocks', [1055, 1100])).toEqual(producedSlots(world, HEADS.finalized).filter((x) => x >= 1055));
    expect(await result('getBlocks', [1075, 1100, { commitment: 'confirmed' }])).toEqual([1075, 1076, 1077, 1078, 1079, 1080]);
    expect(await result('getBlocks', [HEADS.finalized + 5])).toEqual([]);
  });
  it('rejects processed, a start not below the end, a too large range, and bad slots', async () => {
    expect(await error('getBlocks', [FIRST, 1010, { commitment: 'processed' }])).toEqual({
      code: -32602,
      message: 'Method does not support commitment below `confirmed`',
    });
    expect(await error('getBlocks', [1010, 1010])).toEqual({ code: -32602, message: 'Invalid param: startSlot must be less than endSlot' });
    expect(await error('getBlocks', [1010, 1005])).toEqual({ code: -32602, message: 'Invalid param: startSlot must be less than endSlot' });
    expect(await error('getBlocks', [-1, 1005])).toMatchObject(invalidParams);
    expect(await error('getBlocks', ['1000', 1005])).toMatchObject(invalidParams);
    expect(await error('getBlocks', [])).toMatchObject(invalidParams);
  });
  it('answers -32007 for a start older than the oldest block held', async () => {
    expect(await error('getBlocks', [FIRST - 1, 1010])).toEqual({ code: -32007, message: 'Block information unavailable' });
  });
});

describe('getBlocks over a long chain', () => {
  it('answers Invalid param: slot range too large past 500,000 slots (after clamping to the head)', async () => {
    const db = await store.database('methods_long');
    await insertBlocks(store.ch, db, [
      { slot: 1000, blockHeight: 1, blockTime: 1 },
      { slot: 501_000, blockHeight: 2, blockTime: 2 },
      { slot: 501_001, blockHeight: 3, blockTime: 3 },
      { slot: 700_000, blockHeight: 4, blockTime: 4 },
    ]);
    await setHeads(store.ch, db, { processed: 700_000, confirmed: 700_000, finalized: 501_001 });
    const l = await serve(store.ch, db);
    try {
      const tooLarge = { code: -32602, message: 'Invalid param: slot range too large' };
      expect((await l.call('getBlocks', [1000, 501_001])).body.error).toEqual(tooLarge);
      expect((await l.call('getBlocks', [1000])).body.error).toEqual(tooLarge);
      expect((await l.call('getBlocks', [1000, 501_000])).body.result).toEqual([1000, 501_000]);
      // the end is clamped to the finalized head first, so a far end alone is not too large
      expect((await l.call('getBlocks', [1000, 10_000_000])).body.error).toEqual(tooLarge);
      expect((await l.call('getBlocks', [501_000, 10_000_000])).body.result).toEqual([501_000, 501_001]);
      expect((await l.call('getBlocks', [501_000, 10_000_000, { commitment: 'confirmed' }])).body.result).toEqual([
        501_000, 501_001, 700_000,
      ]);
      expect((await l.call('getBlocksWithLimit', [1000, 500_000])).body.result).toEqual([1000, 501_000, 501_001]);
    } finally {
      await l.server.close();
    }
  });
});

describe('getBlocksWithLimit', () => {
  it('lists at most limit produced slots from start, ascending, skipped slots left out', async () => {
    expect(await result('getBlocksWithLimit', [1001, 5])).toEqual([1001, 1002, 1004, 1005, 1006]);
    expect(await result('getBlocksWithLimit', [1008, 4, { commitment: 'confirmed' }])).toEqual([1008, 1009, 1012, 1013]);
    expect(await result('getBlocksWithLimit', [1086, 10, { commitment: 'confirmed' }])).toEqual([]);
    expect(await result('getBlocksWithLimit', [1058, 3])).toEqual([1058, 1059, 1060]);
  });
  it('answers differently per commitment', async () => {
    const fin = await result('getBlocksWithLimit', [1055, 100]);
    const conf = await result('getBlocksWithLimit', [1055, 100, { commitment: 'confirmed' }]);
    expect(fin.at(-1)).toBe(HEADS.finalized);
    expect(conf.at(-1)).toBe(HEADS.confirmed);
  });
  it('keeps the limit when a forked block sits in the window', async () => {
    expect(await result('getBlocksWithLimit', [1055, 4])).toEqual([1055, 1056, 1058, 1059]);
    expect(await result('getBlocksWithLimit', [1057, 1])).toEqual([1058]);
    expect(await result('getBlocks', [1055, 1058])).toEqual([1055, 1056, 1058]);
  });
  it('answers the messages of interface.md for bad limits', async () => {
    expect(await error('getBlocksWithLimit', [FIRST, 0])).toEqual({ code: -32602, message: 'Invalid param: limit must be positive' });
    expect(await error('getBlocksWithLimit', [FIRST, -3])).toEqual({ code: -32602, message: 'Invalid param: limit must be positive' });
    expect(await error('getBlocksWithLimit', [FIRST, 500_001])).toEqual({ code: -32602, message: 'Invalid param: limit too large' });
    expect(await result('getBlocksWithLimit', [FIRST, 500_000])).toEqual(producedSlots(world, HEADS.finalized));
    expect(await error('getBlocksWithLimit', [FIRST, 'ten'])).toMatchObject(invalidParams);
    expect(await error('getBlocksWithLimit', [FIRST])).toMatchObject(invalidParams);
    expect(await error('getBlocksWithLimit', [FIRST, 1, { commitment: 'recent' }])).toEqual({
      code: -32602,
      message: 'Method does not support commitment below `confirmed`',
    });
  });
  it('answers -32007 for a start older than the oldest block held', async () => {
    expect(await error('getBlocksWithLimit', [5, 10])).toEqual({ code: -32007, message: 'Block information unavailable' });
  });
});

describe('getSignaturesForAddress', () => {
  const expected = (address: string, maxSlot: number) => {
    const seen = new Set<string>();
    return world.txs
      .filter((t) => t.addresses.includes(address) && Number(t.slot) <= maxSlot && !seen.has(t.signature) && seen.add(t.signature))
      .sort((a, b) => Number(b.slot) - Number(a.slot) || b.position - a.position);
  };
  it('lists newest first with Agave members, up to the finalized slot by default', async () => {
    const all = await result('getSignaturesForAddress', [ADDR_A]);
    const want = expected(ADDR_A, HEADS.finalized);
    expect(want.length).toBeGreaterThan(100);
    expect(all.map((r: any) => r.signature)).toEqual(want.slice(0, 1000).map((t) => t.signature));
    const withErr = all.find((r: any) => r.err !== null);
    expect(withErr.err).toEqual(JSON.parse(ERR_CUSTOM));
    const t0 = want[0]!;
    expect(all[0]).toEqual({
      signature: t0.signature,
      slot: Number(t0.slot),
      err: t0.err ? JSON.parse(t0.err) : null,
      memo: t0.memo ?? null,
      blockTime: t0.blockTime,
      confirmationStatus: 'finalized',
      transactionIndex: t0.position,
    });
    expect(all.some((r: any) => r.memo !== null && r.memo.startsWith('[5] hello'))).toBe(true);
    // Slot 1040's transactions were stored without a time of their own (a yellowstone source's pieces): the block's.
    const time1040 = Number(world.blocks.find((b) => Number(b.slot) === 1040)!.blockTime);
    expect(all.filter((r: any) => r.slot === 1040).map((r: any) => r.blockTime)).toEqual([time1040, time1040]);
  });
  it('includes confirmed slots at confirmed, marked by their status now', async () => {
    const conf = await result('getSignaturesForAddress', [ADDR_A, { commitment: 'confirmed', limit: 100 }]);
    expect(conf[0].slot).toBe(HEADS.confirmed);
    expect(conf[0].confirmationStatus).toBe('confirmed');
    expect(conf.find((r: any) => r.slot <= HEADS.finalized).confirmationStatus).toBe('finalized');
  });
  it('pages with before across many slots and inside one slot, without gaps or repeats', async () => {
    const want = expected(ADDR_A, HEADS.finalized).map((t) => t.signature);
    const got: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await result('getSignaturesForAddress', [ADDR_A, { limit: 7, ...(before ? { before } : {}) }]);
      if (page.length === 0) break;
      got.push(...page.map((r: any) => r.signature));
      before = page.at(-1).signature;
    }
    expect(got).toEqual(want);
    // inside slot 1020 (30 transactions): before one in the middle gives the rest of the slot first
    const in1020 = expected(ADDR_A, HEADS.finalized).filter((t) => t.slot === 1020);
    const page = await result('getSignaturesForAddress', [ADDR_A, { limit: 5, before: in1020[10]!.signature }]);
    expect(page.map((r: any) => r.signature)).toEqual(in1020.slice(11, 16).map((t) => t.signature));
  });
  it('stops before until (exclusive); an unknown until or before is -32020 (Agave 4.0)', async () => {
    const want = expected(ADDR_A, HEADS.finalized);
    const r = await result('getSignaturesForAddress', [ADDR_A, { until: want[4]!.signature }]);
    expect(r.map((x: any) => x.signature)).toEqual(want.slice(0, 4).map((t) => t.signature));
    const both = await result('getSignaturesForAddress', [ADDR_A, { before: want[2]!.signature, until: want[6]!.signature }]);
    expect(both.map((x: any) => x.signature)).toEqual(want.slice(3, 6).map((t) => t.signature));
    const unknown = bs58.encode(Buffer.alloc(64, 200));
    const notFound = { code: -32020, message: `Transaction ${unknown} not found` };
    expect(await error('getSignaturesForAddress', [ADDR_A, { until: unknown, limit: 3 }])).toMatchObject(notFound);
    expect(await error('getSignaturesForAddress', [ADDR_A, { before: unknown }])).toMatchObject(notFound);
  });
  it('finds lookup-loaded addresses and answers [] for an address without transactions', async () => {
    const b = await result('getSignaturesForAddress', [ADDR_B]);
    expect(b.map((x: any) => x.signature)).toEqual(expected(ADDR_B, HEADS.finalized).map((t) => t.signature));
    expect(await result('getSignaturesForAddress', [ADDR_NONE])).toEqual([]);
  });
  it('rejects bad address, signature, limit and processed', async () => {
    for (const params of [
      ['not-base58!'],
      [key(1).slice(0, 20)],
      [42],
      [ADDR_A, { limit: 0 }],
      [ADDR_A, { limit: 1001 }],
      [ADDR_A, { limit: 'x' }],
      [ADDR_A, { before: 'abc' }],
      [ADDR_A, { until: ADDR_B }],
      [ADDR_A, 'config'],
      [],
      [ADDR_A, {}, {}],
    ]) {
      const e = await error('getSignaturesForAddress', params);
      expect(e, JSON.stringify(params)).toMatchObject(invalidParams);
      expect(typeof e.data).toBe('string');
    }
    expect((await error('getSignaturesForAddress', [ADDR_A, { limit: 1001 }])).data).toContain('limit');
    expect(await error('getSignaturesForAddress', [ADDR_A, { commitment: 'processed' }])).toEqual({
      code: -32602,
      message: 'Method does not support commitment below `confirmed`',
    });
  });
});

describe('getProgramAccounts', () => {
  const pubkeys = (r: any[]) => r.map((x) => x.pubkey);
  const byteSorted = (keys: string[]) => [...keys].sort((a, b) => Buffer.compare(Buffer.from(bs58.decode(a)), Buffer.from(bs58.decode(b))));
  it('gives the state at each commitment: changes, closures, owner changes and new accounts', async () => {
    const fin = await result('getProgramAccounts', [PROGRAM]);
    expect(pubkeys(fin)).toEqual(byteSorted([ACC.changing, ACC.closed, ACC.moved, ACC.big, ACC.small]));
    const conf = await result('getProgramAccounts', [PROGRAM, { commitment: 'confirmed' }]);
    expect(pubkeys(conf)).toEqual(byteSorted([ACC.changing, ACC.moved, ACC.big, ACC.small]));
    const proc = await result('getProgramAccounts', [PROGRAM, { commitment: 'processed' }]);
    expect(pubkeys(proc)).toEqual(byteSorted([ACC.changing, ACC.big, ACC.small, ACC.late]));
    expect(pubkeys(await result('getProgramAccounts', [OTHER_PROGRAM, { commitment: 'processed' }]))).toEqual(
      byteSorted([ACC.moved, ACC.other]),
    );
    expect(pubkeys(await result('getProgramAccounts', [OTHER_PROGRAM]))).toEqual([ACC.other]);
    const changedFin = fin.find((x: any) => x.pubkey === ACC.changing).account;
    const changedConf = conf.find((x: any) => x.pubkey === ACC.changing).account;
    expect(changedFin.lamports).toBe(2_039_280);
    expect(changedConf.lamports).toBe(3_000_000); // write_version 5 beats 4 in the same slot
    expect(Buffer.from(changedConf.data[0], 'base64').subarray(0, 32)).toEqual(Buffer.from(bs58.decode(MINT_2)));
  });
  it('writes Agave account entries with exact u64 numbers', async () => {
    const raw = await s.post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getProgramAccounts', params: [PROGRAM, { dataSlice: { offset: 0, length: 0 } }] }),
    );
    expect(raw.text).toContain(
      `{"pubkey":"${ACC.big}","account":{"lamports":1152921504606846977,"data":["","base64"],"owner":"${PROGRAM}","executable":true,"rentEpoch":18446744073709551615,"space":200}}`,
    );
    expect(raw.text).toContain(`"rentEpoch":361,"space":10`);
  });
  it('encodes data as base64 (default), base58, base64+zstd, and jsonParsed as base64', async () => {
    const small = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const find = (r: any[]) => r.find((x) => x.pubkey === ACC.small).account.data;
    expect(find(await result('getProgramAccounts', [PROGRAM]))).toEqual([small.toString('base64'), 'base64']);
    expect(find(await result('getProgramAccounts', [PROGRAM, { encoding: 'base64' }]))).toEqual([small.toString('base64'), 'base64']);
    expect(find(await result('getProgramAccounts', [PROGRAM, { encoding: 'jsonParsed' }]))).toEqual([small.toString('base64'), 'base64']);
    const zs = find(await result('getProgramAccounts', [PROGRAM, { encoding: 'base64+zstd' }]));
    expect(zs[1]).toBe('base64+zstd');
    expect(Buffer.from(decompress(Buffer.from(zs[0], 'base64')))).toEqual(small);
    const b58 = await result('getProgramAccounts', [PROGRAM, { encoding: 'base58', filters: [{ dataSize: 10 }] }]);
    expect(b58).toHaveLength(1);
    expect(b58[0].account.data).toEqual([bs58.encode(small), 'base58']);
  });
  it('refuses base58 over 128 bytes after slicing with -32600, and allows it once sliced', async () => {
    expect(await error('getProgramAccounts', [PROGRAM, { encoding: 'base58' }])).toEqual({
      code: -32600,
      message: 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.',
    });
    const sliced = await result('getProgramAccounts', [PROGRAM, { encoding: 'base58', dataSlice: { offset: 0, length: 128 } }]);
    const big = sliced.find((x: any) => x.pubkey === ACC.big).account;
    expect(Buffer.from(bs58.decode(big.data[0]))).toEqual(Buffer.from(Uint8Array.from({ length: 128 }, (_, i) => i)));
    expect(big.space).toBe(200);
  });
  it('slices data; a slice past the end is empty', async () => {
    const r = await result('getProgramAccounts', [PROGRAM, { dataSlice: { offset: 195, length: 10 } }]);
    const big = r.find((x: any) => x.pubkey === ACC.big).account.data[0];
    expect(Buffer.from(big, 'base64')).toEqual(Buffer.from([195, 196, 197, 198, 199]));
    expect(r.find((x: any) => x.pubkey === ACC.small).account.data).toEqual(['', 'base64']);
    const zs = await result('getProgramAccounts', [PROGRAM, { encoding: 'base64+zstd', dataSlice: { offset: 2, length: 3 } }]);
    const small = zs.find((x: any) => x.pubkey === ACC.small).account.data[0];
    expect(Buffer.from(decompress(Buffer.from(small, 'base64')))).toEqual(Buffer.from([3, 4, 5]));
  });
  it('filters by memcmp (base58 and base64) and dataSize, all of which must pass', async () => {
    const mint1 = await result('getProgramAccounts', [PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: MINT_1 } }] }]);
    expect(pubkeys(mint1)).toEqual(byteSorted([ACC.changing, ACC.closed, ACC.moved]));
    const mint1b64 = await result('getProgramAccounts', [
      PROGRAM,
      { filters: [{ memcmp: { offset: 0, bytes: Buffer.from(bs58.decode(MINT_1)).toString('base64'), encoding: 'base64' } }] },
    ]);
    expect(pubkeys(mint1b64)).toEqual(pubkeys(mint1));
    const owner = await result('getProgramAccounts', [
      PROGRAM,
      { filters: [{ memcmp: { offset: 0, bytes: MINT_1 } }, { memcmp: { offset: 32, bytes: ADDR_A } }, { dataSize: 165 }] },
    ]);
    expect(pubkeys(owner)).toEqual(byteSorted([ACC.changing, ACC.moved]));
    // the state at confirmed decides: ACC.changing moved to MINT_2
    const conf = await result('getProgramAccounts', [
      PROGRAM,
      { commitment: 'confirmed', filters: [{ memcmp: { offset: 0, bytes: MINT_2 } }] },
    ]);
    expect(pubkeys(conf)).toEqual([ACC.changing]);
    // past the end of the data: no match, not an error
    expect(await result('getProgramAccounts', [PROGRAM, { filters: [{ memcmp: { offset: 9, bytes: bs58.encode([10, 11]) } }] }])).toEqual(
      [],
    );
    expect(
      pubkeys(await result('getProgramAccounts', [PROGRAM, { filters: [{ memcmp: { offset: 9, bytes: bs58.encode([10]) } }] }])),
    ).toEqual([ACC.small]);
    expect(pubkeys(await result('getProgramAccounts', [PROGRAM, { filters: [{ dataSize: 200 }] }]))).toEqual([ACC.big]);
    expect(await result('getProgramAccounts', [PROGRAM, { filters: [{ dataSize: 1 }] }])).toEqual([]);
  });
  it('wraps with context when asked', async () => {
    const r = await result('getProgramAccounts', [PROGRAM, { withContext: true, commitment: 'confirmed', filters: [{ dataSize: 10 }] }]);
    expect(r.context).toEqual({ slot: HEADS.confirmed, apiVersion: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(pubkeys(r.value)).toEqual([ACC.small]);
  });
  it('answers [] for a program that owns nothing', async () => {
    expect(await result('getProgramAccounts', [key(99, 30)])).toEqual([]);
  });
  it('rejects bad program ids, configs, encodings, slices and filters with readable data', async () => {
    const cases: [unknown[], string][] = [
      [['xyz'], 'programId'],
      [[PROGRAM.slice(0, 30)], 'programId'],
      [[PROGRAM, { encoding: 'binary' }], 'encoding'],
      [[PROGRAM, { encoding: 5 }], 'encoding'],
      [[PROGRAM, { dataSlice: { offset: 1 } }], 'dataSlice.length'],
      [[PROGRAM, { dataSlice: 3 }], 'dataSlice'],
      [[PROGRAM, { filters: {} }], 'filters'],
      [[PROGRAM, { filters: [{ dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }] }], 'filters'],
      [[PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: '0OIl' } }] }], 'filters[0].memcmp.bytes'],
      [[PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: 'a'.repeat(176) } }] }], 'filters[0].memcmp.bytes'],
      [
        [PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: Buffer.alloc(129).toString('base64'), encoding: 'base64' } }] }],
        'filters[0].memcmp.bytes',
      ],
      [[PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: 'AQ', encoding: 'base32' } }] }], 'filters[0].memcmp.encoding'],
      [[PROGRAM, { filters: [{ memcmp: { bytes: 'AQ' } }] }], 'filters[0].memcmp.offset'],
      [[PROGRAM, { filters: [{ memcmp: { offset: -1, bytes: '2' } }] }], 'filters[0].memcmp.offset'],
      [[PROGRAM, { filters: [{ tokenAccountState: {} }] }], 'filters[0]'],
      [[PROGRAM, { filters: [{ dataSize: 'x' }] }], 'filters[0].dataSize'],
      [[PROGRAM, { commitment: 'none' }], 'commitment'],
      [[PROGRAM, { withContext: 'yes' }], 'withContext'],
      [[PROGRAM, { minContextSlot: -5 }], 'minContextSlot'],
      [[], 'parameter'],
    ];
    for (const [params, what] of cases) {
      const e = await error('getProgramAccounts', params);
      expect(e, JSON.stringify(params)).toMatchObject(invalidParams);
      expect(e.data, JSON.stringify(params)).toContain(what);
    }
    // four filters are allowed; unknown config members are ignored (Agave)
    expect(
      await result('getProgramAccounts', [
        PROGRAM,
        { sortResults: true, filters: [{ dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }, { dataSize: 1 }] },
      ]),
    ).toEqual([]);
  });
  it('answers -32016 below minContextSlot', async () => {
    expect(await error('getProgramAccounts', [PROGRAM, { commitment: 'confirmed', minContextSlot: 5000 }])).toEqual({
      code: -32016,
      message: 'Minimum context slot has not been reached',
      data: { contextSlot: HEADS.confirmed },
    });
  });
});

describe('getLeaderSchedule', () => {
  const expectedSchedule = () => {
    const out: Record<string, number[]> = {};
    EPOCH_SCHEDULE.forEach((v, i) => {
      const id = VALIDATORS[v]!;
      (out[id] ??= []).push(...[0, 1, 2, 3].map((k) => i * EPOCH.slotsPerLeader + k));
    });
    return out;
  };
  it('gives the epoch schedule with slot indices relative to the epoch start', async () => {
    const r = await result('getLeaderSchedule');
    expect(r).toEqual(expectedSchedule());
    expect(Object.values(r).flat().length).toBe(EPOCH.slotsPerEpoch);
    expect(await result('getLeaderSchedule', [EPOCH.firstSlot])).toEqual(expectedSchedule());
    expect(await result('getLeaderSchedule', [EPOCH.firstSlot + EPOCH.slotsPerEpoch - 1, { commitment: 'processed' }])).toEqual(
      expectedSchedule(),
    );
    expect(await result('getLeaderSchedule', [null, { commitment: 'confirmed' }])).toEqual(expectedSchedule());
  });
  it('restricts to an identity; {} when it leads nothing; null for an unknown epoch', async () => {
    expect(await result('getLeaderSchedule', [{ identity: VALIDATORS[2] }])).toEqual({
      [VALIDATORS[2]!]: expectedSchedule()[VALIDATORS[2]!],
    });
    expect(await result('getLeaderSchedule', [1000, { identity: VALIDATORS[0] }])).toEqual({
      [VALIDATORS[0]!]: expectedSchedule()[VALIDATORS[0]!],
    });
    expect(await result('getLeaderSchedule', [null, { identity: key(77, 60) }])).toEqual({});
    expect(await result('getLeaderSchedule', [EPOCH.firstSlot + EPOCH.slotsPerEpoch])).toBeNull();
    expect(await result('getLeaderSchedule', [5])).toBeNull();
  });
  it('wraps with context when asked', async () => {
    const r = await result('getLeaderSchedule', [null, { withContext: true, identity: VALIDATORS[1] }]);
    expect(r.context.slot).toBe(HEADS.finalized);
    expect(Object.keys(r.value)).toEqual([VALIDATORS[1]]);
    expect((await result('getLeaderSchedule', [5, { withContext: true }])).value).toBeNull();
  });
  it('rejects bad slots and identities', async () => {
    for (const params of [['x'], [-1], [1.5], [null, { identity: 'bad' }], [{ identity: 7 }], [1, 2], [{}, {}], [1, {}, 3]]) {
      expect(await error('getLeaderSchedule', params), JSON.stringify(params)).toMatchObject(invalidParams);
    }
    expect((await error('getLeaderSchedule', [null, { identity: 'bad' }])).data).toContain('identity');
  });
});

describe('getRecentPerformanceSamples', () => {
  let p: Served;
  beforeAll(async () => {
    const db = await store.database('methods_samples');
    // Windows of block time [0,60) [60,120) [120,180) [180,240) (+ T0): slots jump over skipped ranges.
    const T0 = 1_700_000_040; // a multiple of 60
    const rows = [
      { slot: 10, t: T0 + 0, tx: 100, votes: 60 },
      { slot: 11, t: T0 + 1, tx: 50, votes: 30 },
      { slot: 40, t: T0 + 59, tx: 7, votes: 7 },
      { slot: 45, t: T0 + 60, tx: 10, votes: 1 },
      { slot: 130, t: T0 + 119, tx: 20, votes: 0 },
      { slot: 200, t: T0 + 150, tx: 5, votes: 5 },
      { slot: 260, t: T0 + 185, tx: 3, votes: 1 }, // the window still filling: not a sample yet
    ];
    await insertBlocks(
      store.ch,
      db,
      rows.map((r, i) => ({ slot: r.slot, blockHeight: i, blockTime: r.t, transactionCount: r.tx, voteTransactionCount: r.votes })),
    );
    await insertBlocks(store.ch, db, [{ slot: 150, blockHeight: 99, blockTime: null, transactionCount: 1000 }]);
    await setHeads(store.ch, db, { processed: 260, confirmed: 260, finalized: 200 });
    p = await serve(store.ch, db);
  });
  afterAll(async () => p?.server.close());
  const samples = async (params?: unknown) => (await p.call('getRecentPerformanceSamples', params)).body;
  it('gives complete 60 s windows newest first with Agave members and arithmetic', async () => {
    const r = (await samples()).result;
    expect(r).toEqual([
      { slot: 200, numTransactions: 5, numSlots: 70, samplePeriodSecs: 60, numNonVoteTransaction: 0, numNonVoteTransactions: 0 },
      { slot: 130, numTransactions: 30, numSlots: 90, samplePeriodSecs: 60, numNonVoteTransaction: 29, numNonVoteTransactions: 29 },
      { slot: 40, numTransactions: 157, numSlots: 31, samplePeriodSecs: 60, numNonVoteTransaction: 60, numNonVoteTransactions: 60 },
    ]);
  });
  it('honours limit 0..720 and rejects more or garbage', async () => {
    expect((await samples([1])).result.map((x: any) => x.slot)).toEqual([200]);
    expect((await samples([0])).result).toEqual([]);
    expect((await samples([720])).result).toHaveLength(3);
    expect((await samples([null])).result).toHaveLength(3);
    for (const bad of [[721], [-1], ['5'], [1.5], [{}], [1, 2]]) {
      const e = (await samples(bad)).error;
      expect(e, JSON.stringify(bad)).toMatchObject(invalidParams);
    }
    expect((await samples([721])).error.data).toContain('limit');
  });
});

describe('skipped slots are in the fixture', () => {
  it('has the skipped and forked slots the assertions rely on', () => {
    expect(SKIPPED.every((x) => x > FIRST && x < LAST)).toBe(true);
    expect(world.blocks.some((b) => Number(b.slot) === FORKED)).toBe(true);
  });
});

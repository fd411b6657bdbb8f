// The params parsers and pure shaping of the read-side methods of issue 13.
import { describe, expect, it } from 'vitest';
import { rpcErrorOf } from '../../../test/support/jsonrpc/rpc-error.js';
import bs58 from 'bs58';
import { toJson } from '../../solana-json/json.js';
import { parseNoParams } from '../../solana-json/params.js';
import { parseGetAccountInfo } from './getAccountInfo.js';
import { parseGetBalance } from './getBalance.js';
import { parseGetBlockTime } from './getBlockTime.js';
import { parseGetLatestBlockhash } from './getLatestBlockhash.js';
import { parseGetMultipleAccounts } from './getMultipleAccounts.js';
import { parseGetSignatureStatuses, shapeStatus } from './getSignatureStatuses.js';
import { visible } from '../../views/signature-statuses.js';
import { parseGetSlot } from './getSlot.js';
import { parseGetTokenAccountBalance } from './getTokenAccountBalance.js';
import { parseGetTokenAccountsByOwner } from './getTokenAccountsByOwner.js';
import { parseIsBlockhashValid } from './isBlockhashValid.js';

const KEY = '11111111111111111111111111111111';
const MINT = bs58.encode(Buffer.alloc(32, 7));
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SIG = '1'.repeat(64);

const err = rpcErrorOf;
const invalid = (f: () => unknown) => {
  const e = err(f);
  expect(e.code).toBe(-32602);
  return e;
};

describe('getSlot, getLatestBlockhash', () => {
  it('take an optional context config', () => {
    for (const parse of [parseGetSlot, parseGetLatestBlockhash]) {
      expect(parse(undefined)).toEqual({ commitment: 'finalized', minContextSlot: undefined });
      expect(parse([{ commitment: 'singleGossip', minContextSlot: 9 }])).toEqual({ commitment: 'confirmed', minContextSlot: 9n });
      expect(invalid(() => parse([{ commitment: 'fast' }])).data).toMatch(/commitment/);
      expect(invalid(() => parse([{}, {}])).message).toBe('Invalid params');
    }
  });
});

describe('getBalance', () => {
  it('a pubkey and an optional context config', () => {
    expect(parseGetBalance([KEY, { commitment: 'processed' }])).toEqual({
      pubkey: KEY,
      commitment: 'processed',
      minContextSlot: undefined,
    });
    expect(invalid(() => parseGetBalance(['nope'])).data).toMatch(/pubkey/);
    expect(invalid(() => parseGetBalance([])).data).toMatch(/at least 1/);
  });
});

describe('getAccountInfo and getMultipleAccounts', () => {
  it("default to Agave's encodings: binary for one account, base64 for several", () => {
    expect(parseGetAccountInfo([KEY])).toMatchObject({ pubkey: KEY, encoding: 'binary', dataSlice: undefined, commitment: 'finalized' });
    expect(parseGetMultipleAccounts([[KEY, MINT]])).toMatchObject({ pubkeys: [KEY, MINT], encoding: 'base64' });
  });
  it('accept every Agave encoding and a dataSlice with both members', () => {
    for (const encoding of ['binary', 'base58', 'base64', 'base64+zstd', 'jsonParsed']) {
      expect(parseGetAccountInfo([KEY, { encoding }]).encoding).toBe(encoding);
    }
    expect(parseGetAccountInfo([KEY, { dataSlice: { offset: 1, length: 2 }, minContextSlot: 4 }])).toMatchObject({
      dataSlice: { offset: 1, length: 2 },
      minContextSlot: 4n,
    });
    expect(invalid(() => parseGetAccountInfo([KEY, { encoding: 'hex' }])).data).toMatch(/encoding/);
    expect(invalid(() => parseGetAccountInfo([KEY, { dataSlice: { offset: 1 } }])).data).toMatch(/dataSlice.length/);
  });
  it("getMultipleAccounts: at most 100 keys, counted before the keys are checked (Agave's order and message)", () => {
    expect(parseGetMultipleAccounts([Array(100).fill(KEY)]).pubkeys).toHaveLength(100);
    const e = invalid(() => parseGetMultipleAccounts([Array(101).fill('bad')]));
    expect(e.message).toBe('Too many inputs provided; max 100');
    expect(e.data).toBeUndefined();
    expect(invalid(() => parseGetMultipleAccounts([[KEY, 'bad']])).data).toMatch(/pubkeys\[1\]/);
    expect(invalid(() => parseGetMultipleAccounts([KEY])).data).toMatch(/array/);
  });
});

describe('getSignatureStatuses', () => {
  it('up to 256 signatures and searchTransactionHistory', () => {
    expect(parseGetSignatureStatuses([[SIG]])).toEqual({ signatures: [SIG], searchTransactionHistory: false });
    expect(parseGetSignatureStatuses([[SIG], { searchTransactionHistory: true }]).searchTransactionHistory).toBe(true);
    expect(parseGetSignatureStatuses([Array(256).fill(SIG)]).signatures).toHaveLength(256);
    expect(invalid(() => parseGetSignatureStatuses([Array(257).fill(SIG)])).message).toBe('Too many inputs provided; max 256');
    expect(invalid(() => parseGetSignatureStatuses([[KEY]])).data).toMatch(/signatures\[0\]/);
    expect(invalid(() => parseGetSignatureStatuses([[SIG], { searchTransactionHistory: 'yes' }])).data).toMatch(/searchTransactionHistory/);
  });
  const heads = { processed: 1000n, confirmed: 990n, finalized: 960n };
  it("shapes Agave's TransactionStatus: null confirmations once finalized, a count while confirmed, 0 while processed", () => {
    expect(JSON.parse(toJson(shapeStatus(950n, null, heads, [])))).toEqual({
      slot: 950,
      confirmations: null,
      status: { Ok: null },
      err: null,
      confirmationStatus: 'finalized',
    });
    const err = '{"InstructionError":[0,{"Custom":1}]}';
    expect(JSON.parse(toJson(shapeStatus(980n, err, heads, [970n, 980n, 985n, 990n])))).toEqual({
      slot: 980,
      confirmations: 3,
      status: { Err: JSON.parse(err) },
      err: JSON.parse(err),
      confirmationStatus: 'confirmed',
    });
    expect(shapeStatus(995n, null, heads, [])).toMatchObject({ confirmations: 0, confirmationStatus: 'processed' });
    const many = Array.from({ length: 40 }, (_, i) => 961n + BigInt(i));
    expect(shapeStatus(961n, null, heads, many)).toMatchObject({ confirmations: 31 });
  });
  it('sees the status cache window (300 rooted slots and after) unless searchTransactionHistory reaches rooted history', () => {
    expect(visible(661n, heads, false)).toBe(true);
    expect(visible(660n, heads, false)).toBe(false);
    expect(visible(5n, heads, true)).toBe(true);
    expect(visible(999n, heads, false)).toBe(true);
  });
});

describe('getBlockTime, isBlockhashValid', () => {
  it('getBlockTime takes exactly one slot', () => {
    expect(parseGetBlockTime([7])).toEqual({ slot: 7n });
    expect(invalid(() => parseGetBlockTime([])).data).toMatch(/at least 1/);
    expect(invalid(() => parseGetBlockTime([-1])).data).toMatch(/slot/);
    expect(invalid(() => parseGetBlockTime([1, {}])).data).toMatch(/at most 1/);
  });
  it('isBlockhashValid takes a 32-byte base58 hash and a context config', () => {
    expect(parseIsBlockhashValid([KEY, { commitment: 'processed' }])).toEqual({
      blockhash: KEY,
      commitment: 'processed',
      minContextSlot: undefined,
    });
    expect(invalid(() => parseIsBlockhashValid([SIG])).data).toMatch(/blockhash/);
    expect(invalid(() => parseIsBlockhashValid([5])).data).toMatch(/blockhash/);
  });
});

describe('token methods', () => {
  it('getTokenAccountsByOwner: owner, exactly one of mint or programId, account config (binary by default)', () => {
    expect(parseGetTokenAccountsByOwner([KEY, { mint: MINT }])).toMatchObject({
      owner: KEY,
      filter: { kind: 'mint', mint: MINT },
      encoding: 'binary',
    });
    expect(parseGetTokenAccountsByOwner([KEY, { programId: TOKEN }, { encoding: 'jsonParsed' }])).toMatchObject({
      filter: { kind: 'programId', program: TOKEN },
      encoding: 'jsonParsed',
    });
    expect(invalid(() => parseGetTokenAccountsByOwner([KEY])).data).toMatch(/at least 2/);
    expect(invalid(() => parseGetTokenAccountsByOwner([KEY, {}])).data).toMatch(/exactly one/);
    expect(invalid(() => parseGetTokenAccountsByOwner([KEY, { mint: MINT, programId: TOKEN }])).data).toMatch(/exactly one/);
    expect(invalid(() => parseGetTokenAccountsByOwner([KEY, { mint: 'x' }])).data).toMatch(/filter.mint/);
  });
  it('getTokenAccountBalance: a pubkey and a commitment config', () => {
    expect(parseGetTokenAccountBalance([KEY, { commitment: 'confirmed' }])).toEqual({ pubkey: KEY, commitment: 'confirmed' });
    expect(invalid(() => parseGetTokenAccountBalance([KEY, 'confirmed'])).data).toMatch(/config/);
  });
});

describe('methods without parameters', () => {
  it('accept none, null or [] and refuse anything else', () => {
    const parse = parseNoParams('getHealth');
    expect(parse(undefined)).toBeNull();
    expect(parse([])).toBeNull();
    expect(parse(null)).toBeNull();
    expect(invalid(() => parse([1])).data).toMatch(/getHealth takes no parameters/);
    expect(invalid(() => parse({})).data).toMatch(/positional/);
  });
});

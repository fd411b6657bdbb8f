// As-of account reads: the `slot` member as each of the six account methods parses it, and the slot a read
// answers at with its errors (not reached, below minContextSlot, older than the history held).
import { describe, expect, it } from 'vitest';
import { rpcErrorOf } from '../../test/support/jsonrpc/rpc-error.js';
import { toJson } from '../solana-json/json.js';
import type { ViewsState } from '../views/state.js';
import { newestWritesSql, parseAsOf, readSlot } from './as-of.js';
import { parseGetAccountInfo } from './methods/getAccountInfo.js';
import { parseGetBalance } from './methods/getBalance.js';
import { parseGetMultipleAccounts } from './methods/getMultipleAccounts.js';
import { parseGetProgramAccounts } from './methods/getProgramAccounts.js';
import { parseGetTokenAccountBalance } from './methods/getTokenAccountBalance.js';
import { parseGetTokenAccountsByOwner } from './methods/getTokenAccountsByOwner.js';

const KEY = '11111111111111111111111111111111';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

/** Each method's params with `config` at its config position. */
const PARSERS: Record<string, (config: unknown) => { asOfSlot: bigint | undefined }> = {
  getAccountInfo: (c) => parseGetAccountInfo([KEY, c]),
  getMultipleAccounts: (c) => parseGetMultipleAccounts([[KEY], c]),
  getBalance: (c) => parseGetBalance([KEY, c]),
  getProgramAccounts: (c) => parseGetProgramAccounts([KEY, c]),
  getTokenAccountsByOwner: (c) => parseGetTokenAccountsByOwner([KEY, { programId: TOKEN }, c]),
  getTokenAccountBalance: (c) => parseGetTokenAccountBalance([KEY, c]),
};

describe('the `slot` config member', () => {
  it('parses as a whole non-negative number, absent or null meaning the context slot', () => {
    expect(parseAsOf({})).toEqual({ asOfSlot: undefined });
    expect(parseAsOf({ slot: null })).toEqual({ asOfSlot: undefined });
    expect(parseAsOf({ slot: 0 })).toEqual({ asOfSlot: 0n });
    expect(parseAsOf({ slot: 123_456_789 })).toEqual({ asOfSlot: 123_456_789n });
  });

  it.each([[-1], [1.5], ['12'], [true], [{}], [2 ** 53]])('rejects %j with -32602 naming `slot`', (bad) => {
    const e = rpcErrorOf(() => parseAsOf({ slot: bad }));
    expect(e.code).toBe(-32602);
    expect(e.message).toBe('Invalid params');
    expect(String(e.data)).toMatch(/^slot: /);
  });

  it.each(Object.keys(PARSERS))('%s takes it beside its other members, and rejects a bad one', (name) => {
    const parse = PARSERS[name]!;
    expect(parse(undefined).asOfSlot).toBeUndefined();
    expect(parse({ commitment: 'confirmed', slot: 42 })).toMatchObject({ asOfSlot: 42n, commitment: 'confirmed' });
    const e = rpcErrorOf(() => parse({ slot: -3 }));
    expect([e.code, String(e.data)]).toEqual([-32602, 'slot: expected a non-negative whole number, got -3']);
  });
});

const state = (heads: { processed: number; confirmed: number; finalized: number }, oldestBlock?: number): ViewsState => ({
  head: { processed: BigInt(heads.processed), confirmed: BigInt(heads.confirmed), finalized: BigInt(heads.finalized) },
  height: { processed: undefined, confirmed: undefined, finalized: undefined },
  oldestBlock: oldestBlock === undefined ? undefined : BigInt(oldestBlock),
});
const S = state({ processed: 140, confirmed: 130, finalized: 120 }, 100);
const read = (p: { commitment?: 'processed' | 'confirmed' | 'finalized'; minContextSlot?: number; asOfSlot?: number }, st = S) =>
  readSlot('Account information unavailable', st, {
    commitment: p.commitment ?? 'finalized',
    minContextSlot: p.minContextSlot === undefined ? undefined : BigInt(p.minContextSlot),
    asOfSlot: p.asOfSlot === undefined ? undefined : BigInt(p.asOfSlot),
  });
const errorOf = (f: () => unknown) => {
  const e = rpcErrorOf(f);
  return JSON.parse(toJson({ code: e.code, message: e.message, data: e.data })) as unknown;
};

describe('readSlot', () => {
  it("without `slot` answers at the commitment's context slot, after minContextSlot", () => {
    expect(read({})).toBe(120n);
    expect(read({ commitment: 'processed' })).toBe(140n);
    expect(read({ commitment: 'confirmed', minContextSlot: 130 })).toBe(130n);
    expect(errorOf(() => read({ commitment: 'confirmed', minContextSlot: 131 }))).toEqual({
      code: -32016,
      message: 'Minimum context slot has not been reached',
      data: { contextSlot: 130 },
    });
  });

  it('answers at `slot` anywhere from the oldest block held to the context slot, both included', () => {
    for (const at of [100, 101, 119, 120]) expect(read({ asOfSlot: at })).toBe(BigInt(at));
    expect(read({ commitment: 'processed', asOfSlot: 140 })).toBe(140n);
    expect(read({ asOfSlot: 110, minContextSlot: 110 })).toBe(110n);
  });

  it('refuses a slot the commitment has not reached with -32016 and the context slot (a retry later can succeed)', () => {
    expect(errorOf(() => read({ asOfSlot: 121 }))).toEqual({
      code: -32016,
      message: 'Minimum context slot has not been reached: slot 121 is above the newest finalized slot, 120',
      data: { contextSlot: 120 },
    });
    expect(errorOf(() => read({ commitment: 'confirmed', asOfSlot: 135 }))).toMatchObject({ code: -32016, data: { contextSlot: 130 } });
  });

  it('refuses a slot older than the history held with -32018 naming the oldest slot available', () => {
    expect(errorOf(() => read({ asOfSlot: 99 }))).toEqual({
      code: -32018,
      message: 'Account history not available for slot 99: the oldest slot held is 100',
      data: { oldestSlot: 100 },
    });
    expect(errorOf(() => read({ asOfSlot: 0 }))).toMatchObject({ code: -32018, data: { oldestSlot: 100 } });
  });

  it('with an account history window, refuses a slot before its first slot even where the block is held (-32018 naming it)', () => {
    const windowed: ViewsState = { ...S, accountHistoryFrom: 110n };
    expect(read({ asOfSlot: 110 }, windowed)).toBe(110n);
    expect(errorOf(() => read({ asOfSlot: 105 }, windowed))).toMatchObject({ code: -32018, data: { oldestSlot: 110 } });
    // A window longer than the blocks held: the blocks' bound stays.
    expect(errorOf(() => read({ asOfSlot: 99 }, { ...S, accountHistoryFrom: 50n }))).toMatchObject({
      code: -32018,
      data: { oldestSlot: 100 },
    });
  });

  it('refuses a slot below minContextSlot with -32602 (the request contradicts itself), after minContextSlot itself', () => {
    expect(errorOf(() => read({ asOfSlot: 105, minContextSlot: 110 }))).toEqual({
      code: -32602,
      message: 'Invalid params',
      data: 'slot: 105 is below minContextSlot 110; an answer as of slot 105 has context slot 105',
    });
    expect(errorOf(() => read({ asOfSlot: 105, minContextSlot: 121 }))).toMatchObject({ code: -32016, data: { contextSlot: 120 } });
  });

  it('without views answers -32007 before looking at `slot`', () => {
    const empty: ViewsState = { ...S, head: { processed: undefined, confirmed: undefined, finalized: undefined }, oldestBlock: undefined };
    expect(errorOf(() => read({ asOfSlot: 1 }, empty))).toEqual({ code: -32007, message: 'Account information unavailable' });
  });
});

describe('newestWritesSql', () => {
  it('reads the newest write at or below the slot for the candidates, every value a placeholder', () => {
    const sql = newestWritesSql('{pubkeys:Array(String)}');
    expect(sql).toContain('WHERE pubkey IN {pubkeys:Array(String)} AND slot <= {slot:UInt64}');
    expect(sql).toContain('ORDER BY pubkey, slot DESC, write_version DESC');
    expect(sql).toContain('LIMIT 1 BY pubkey');
    expect(sql).toContain('slot AS write_slot');
    expect(newestWritesSql('({pubkey:String})', 'pubkey, lamports')).toMatch(/SELECT pubkey, lamports, slot AS write_slot\s/);
  });
});

import { describe, expect, it } from 'vitest';
import { RpcError } from './errors.js';
import {
  optionalBool,
  optionalObject,
  optionalString,
  optionalU64,
  parseCommitment,
  parseConfig,
  parseConfirmedCommitment,
  parseContextConfig,
  parsePubkey,
  parseSignature,
  parseU64,
  positional,
} from './params.js';

const fails = (f: () => unknown, data: string | RegExp, message = 'Invalid params') => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RpcError);
    expect((e as RpcError).code).toBe(-32602);
    expect((e as RpcError).message).toBe(message);
    if (message === 'Invalid params') expect(String((e as RpcError).data)).toMatch(data);
    return;
  }
  throw new Error('did not throw');
};

describe('positional', () => {
  it('accepts arrays within bounds; absent or null as none', () => {
    expect(positional([1], 1, 2)).toEqual([1]);
    expect(positional(undefined, 0, 1)).toEqual([]);
    expect(positional(null, 0, 1)).toEqual([]);
  });
  it('rejects objects, too few and too many', () => {
    fails(() => positional({ a: 1 }, 0, 1), /positional array/);
    fails(() => positional([], 1, 2), /at least 1/);
    fails(() => positional(undefined, 1, 2), /at least 1/);
    fails(() => positional([1, 2, 3], 0, 2), /at most 2/);
  });
});

describe('keys and numbers', () => {
  it('pubkeys and signatures by decoded length', () => {
    expect(parsePubkey('11111111111111111111111111111111', 'programId')).toBe('11111111111111111111111111111111');
    fails(() => parsePubkey('1111', 'programId'), /programId: invalid public key.*expected 32/);
    fails(() => parsePubkey('0OIl', 'programId'), /not base58/);
    fails(() => parsePubkey(5, 'address'), /address: expected a base-58/);
    fails(() => parseSignature('11111111111111111111111111111111', 'before'), /before: invalid signature/);
    expect(parseSignature('1'.repeat(64), 'before')).toBe('1'.repeat(64));
  });
  it('u64 as whole non-negative safe numbers', () => {
    expect(parseU64(0, 's')).toBe(0n);
    expect(parseU64(2 ** 53 - 1, 's')).toBe(2n ** 53n - 1n);
    fails(() => parseU64(-1, 'slot'), /slot: expected a non-negative whole number/);
    fails(() => parseU64(1.5, 'slot'), /whole/);
    fails(() => parseU64('1', 'slot'), /slot: expected a non-negative whole number, got "1"$/);
    fails(() => parseU64(2 ** 64, 'slot'), /above 2\^53-1/);
  });
});

describe('config', () => {
  it('objects only; members typed; unknown members ignored', () => {
    expect(parseConfig(null, 'config')).toEqual({});
    expect(parseConfig({ zzz: 1 }, 'config')).toEqual({ zzz: 1 });
    fails(() => parseConfig([], 'config'), /config: expected a config object, got \[\]$/);
    fails(() => parseConfig('finalized', 'config'), /config/);
    expect(optionalString({ a: 'x' }, 'a')).toBe('x');
    fails(() => optionalString({ a: 1 }, 'a'), /a: expected a string/);
    expect(optionalBool({ a: true }, 'a')).toBe(true);
    fails(() => optionalBool({ a: 1 }, 'a'), /a: expected true or false/);
    expect(optionalU64({ a: null }, 'a')).toBeUndefined();
    fails(() => optionalObject({ a: [] }, 'a'), /a: expected an object/);
  });
  it('commitment defaults to finalized and accepts aliases', () => {
    expect(parseCommitment({})).toBe('finalized');
    expect(parseCommitment({ commitment: null })).toBe('finalized');
    const aliases = {
      processed: 'processed',
      recent: 'processed',
      confirmed: 'confirmed',
      single: 'confirmed',
      singleGossip: 'confirmed',
      finalized: 'finalized',
      root: 'finalized',
      max: 'finalized',
    };
    for (const [k, v] of Object.entries(aliases)) expect(parseCommitment({ commitment: k })).toBe(v);
    fails(() => parseCommitment({ commitment: 'toString' }), /commitment/);
    fails(() => parseCommitment({ commitment: 1 }), /commitment/);
  });
  it('confirmed-only methods reject processed with Agave message', () => {
    expect(parseConfirmedCommitment({ commitment: 'single' })).toBe('confirmed');
    fails(() => parseConfirmedCommitment({ commitment: 'recent' }), '', 'Method does not support commitment below `confirmed`');
    expect(parseContextConfig({ minContextSlot: 5 })).toEqual({ commitment: 'finalized', minContextSlot: 5n });
  });
});

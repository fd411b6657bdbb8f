import { describe, expect, it } from 'vitest';
import { RawJson, toJson, u64Json } from './json.js';

describe('toJson', () => {
  it('writes bigint as exact JSON numbers', () => {
    expect(toJson({ rentEpoch: 18446744073709551615n, lamports: 2n ** 60n + 1n, slot: 5n })).toBe(
      '{"rentEpoch":18446744073709551615,"lamports":1152921504606846977,"slot":5}',
    );
    expect(toJson([u64Json(18446744073709551615n), u64Json(7n)])).toBe('[18446744073709551615,7]');
  });
  it('matches JSON.stringify for plain values, undefined members and non-finite numbers', () => {
    const v = { a: [1, 'x"\n\u2028', null, true, undefined, { b: undefined, c: -0.5 }], d: undefined, e: NaN, 'k"ey': {} };
    expect(toJson(v)).toBe(JSON.stringify(v));
  });
  it('writes RawJson verbatim, and never touches client strings that look like markers', () => {
    expect(toJson({ err: new RawJson('{"InstructionError":[0,{"Custom":6002}]}') })).toBe(
      '{"err":{"InstructionError":[0,{"Custom":6002}]}}',
    );
    const text = toJson({ memo: '\u0000abcdefabcdef0', n: new RawJson('1') });
    expect(JSON.parse(text)).toEqual({ memo: '\u0000abcdefabcdef0', n: 1 });
  });
  it('RawJson outside toJson stands for its value', () => {
    expect(JSON.stringify({ a: new RawJson('[1,2]') })).toBe('{"a":[1,2]}');
  });
  it('u64Json keeps safe integers as numbers', () => {
    expect(u64Json(2n ** 53n - 1n)).toBe(2 ** 53 - 1);
    expect(u64Json(2n ** 53n)).toBeInstanceOf(RawJson);
  });
});

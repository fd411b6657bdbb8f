import { describe, expect, it } from 'vitest';
import { parseJsonExact, quoteLongIntegers } from './rpc-json.js';

describe('parseJsonExact', () => {
  it('keeps integers beyond 2^53 exact as decimal strings, small ones as numbers', () => {
    expect(parseJsonExact('{"a":18446744073709551615,"b":[9007199254740993,-9223372036854775808],"c":5000}')).toEqual({
      a: '18446744073709551615',
      b: ['9007199254740993', '-9223372036854775808'],
      c: 5000,
    });
  });

  it('leaves strings, fractions and exponents alone', () => {
    const text =
      '{"log":"Program log: amount 12345678901234567890, \\"q\\" 1234567890123456789","x":1.2345678901234567,"y":1e+25,"z":[1234567890123456.5]}';
    expect(quoteLongIntegers(text)).toBe(text);
    expect(parseJsonExact(text)).toEqual(JSON.parse(text));
  });
});

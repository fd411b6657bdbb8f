import { describe, expect, it } from 'vitest';
import { nestedArray } from '../test/support/jsonrpc/hostile-json.js';
import { describeValue } from './describe-value.js';

describe('describeValue', () => {
  it('small values as JSON', () => {
    expect(describeValue('full')).toBe('"full"');
    expect(describeValue(1.5)).toBe('1.5');
    expect(describeValue(null)).toBe('null');
    expect(describeValue(true)).toBe('true');
    expect(describeValue(undefined)).toBe('nothing');
    expect(describeValue([])).toBe('[]');
    expect(describeValue({})).toBe('{}');
    expect(describeValue([1, 'a', { b: [null] }])).toBe('[1,"a",{"b":[null]}]');
    expect(describeValue({ a: 1, b: [2, 3] })).toBe('{"a":1,"b":[2,3]}');
  });

  it('a value nested 100,000 levels deep: a cut preview, no stack overflow (JSON.stringify overflows)', () => {
    const v = nestedArray(100_000);
    expect(() => JSON.stringify(v)).toThrow(RangeError);
    expect(describeValue(v)).toBe(`${'['.repeat(100)}…`);
  });

  it('never longer than the bound plus the ellipsis, whatever the value', () => {
    const huge = 'x'.repeat(1_000_000);
    expect(describeValue(huge)).toBe(`"${'x'.repeat(99)}…`);
    expect(describeValue(Array(100_000).fill(7)).length).toBe(101);
    expect(describeValue(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))).length).toBe(101);
    expect(describeValue({ [huge]: huge }).length).toBe(101);
    expect(describeValue([huge, huge], 10)).toBe('["xxxxxxxx…');
  });
});

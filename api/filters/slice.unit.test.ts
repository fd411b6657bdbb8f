import { describe, expect, it } from 'vitest';
import { applyDataSlices } from './slice.js';

const data = Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
const run = (...s: Array<[number, number]>) => [
  ...applyDataSlices(
    data,
    s.map(([offset, length]) => ({ offset, length })),
  ),
];

describe('applyDataSlices', () => {
  it('no slices: the full data', () => {
    expect(run()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
  it('one slice: that range', () => {
    expect(run([2, 3])).toEqual([2, 3, 4]);
  });
  it('several slices: concatenated in order', () => {
    expect(run([0, 2], [5, 1], [8, 2])).toEqual([0, 1, 5, 8, 9]);
  });
  it('a slice running past the end is cut at the end', () => {
    expect(run([7, 100])).toEqual([7, 8, 9]);
    expect(run([0, 1], [9, 5])).toEqual([0, 9]);
  });
  it('a slice starting at or past the end contributes nothing', () => {
    expect(run([10, 4])).toEqual([]);
    expect(run([1, 1], [50, 4])).toEqual([1]);
    expect(run([Infinity, Infinity])).toEqual([]);
  });
  it('a zero-length slice contributes nothing', () => {
    expect(run([3, 0])).toEqual([]);
    expect(run([3, 0], [4, 1])).toEqual([4]);
  });
  it('accepts a plain Uint8Array with an offset into its buffer and returns a Buffer', () => {
    const backing = new Uint8Array([99, 99, 1, 2, 3]);
    const view = backing.subarray(2);
    const out = applyDataSlices(view, [{ offset: 1, length: 5 }]);
    expect(Buffer.isBuffer(out)).toBe(true);
    expect([...out]).toEqual([2, 3]);
  });
});

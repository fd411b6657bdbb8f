import { describe, expect, it } from 'vitest';
import { firstDifference, type ReadRecord } from './read-topics.js';

const rec = (offset: number, key: string, value: string): ReadRecord => ({
  offset: BigInt(offset),
  key: Buffer.from(key),
  value: Buffer.from(value),
});

describe('firstDifference', () => {
  const want = { slots: [[rec(0, 'a', 'x'), rec(1, 'b', 'y')], [rec(0, 'c', 'z')]] };

  it('is undefined for equal keys and values, whatever the offsets (transaction markers shift them)', () => {
    expect(firstDifference({ slots: [[rec(5, 'a', 'x'), rec(7, 'b', 'y')], [rec(1, 'c', 'z')]] }, want)).toBeUndefined();
  });

  it('names the topic, partition and index of the first differing record', () => {
    expect(firstDifference({ slots: [[rec(0, 'a', 'x'), rec(1, 'b', 'Y!')], [rec(0, 'c', 'z')]] }, want)).toMatch(
      /^slots\[0\] index 1 \(offsets 1 \/ 1\): .*value 2 B, expected .*value 1 B$/,
    );
  });

  it('reports missing and extra records and partitions', () => {
    expect(firstDifference({ slots: [[rec(0, 'a', 'x')], [rec(0, 'c', 'z')]] }, want)).toBe(
      'slots[0]: 1 records, expected 2 (first missing or extra at index 1)',
    );
    expect(firstDifference({ slots: [[rec(0, 'a', 'x'), rec(1, 'b', 'y')]] }, want)).toBe('slots: 1 partitions, expected 2');
    expect(firstDifference({ ...want, epochs: [[rec(0, 'e', 'e')]] }, want)).toBe('epochs: 1 partitions, expected 0');
  });
});

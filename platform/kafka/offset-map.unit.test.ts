import { describe, expect, it } from 'vitest';
import { OffsetMap, tpKey } from './offset-map.js';

describe('tpKey', () => {
  it('tells apart topic-partitions whose plain concatenations collide', () => {
    const keys = [tpKey('a', 11), tpKey('a1', 1), tpKey('a:1', 1), tpKey('a', 1)];
    expect(new Set(keys).size).toBe(keys.length);
    expect(tpKey('t', 3)).toBe(tpKey('t', 3));
  });
});

describe('OffsetMap', () => {
  it('holds an offset per topic-partition, the last set winning', () => {
    const m = new OffsetMap().set('a', 0, 5n).set('a', 1, 7n).set('b', 0, 1n).set('a', 0, 6n);
    expect(m.get('a', 0)).toBe(6n);
    expect(m.get('a', 2)).toBeUndefined();
    expect(m.get('c', 0)).toBeUndefined();
    expect(m.has('b', 0)).toBe(true);
    expect(m.has('b', 1)).toBe(false);
    expect(m.size).toBe(3);
  });

  it('iterates triples and values topic by topic in insertion order', () => {
    const m = OffsetMap.of([
      ['b', 1, 2n],
      ['a', 0, 1n],
      ['b', 0, 3n],
    ]);
    expect([...m]).toEqual([
      ['b', 1, 2n],
      ['b', 0, 3n],
      ['a', 0, 1n],
    ]);
    expect([...m.values()]).toEqual([2n, 3n, 1n]);
    expect([...m.topics()]).toEqual(['b', 'a']);
    expect([...m.partitions('b')]).toEqual([
      [1, 2n],
      [0, 3n],
    ]);
    expect([...m.partitions('z')]).toEqual([]);
  });

  it('forgets a deleted topic-partition, and the topic with its last partition', () => {
    const m = OffsetMap.of([
      ['a', 0, 1n],
      ['a', 1, 2n],
    ]);
    expect(m.delete('a', 0)).toBe(true);
    expect(m.delete('a', 0)).toBe(false);
    expect(m.delete('b', 0)).toBe(false);
    expect([...m.topics()]).toEqual(['a']);
    m.delete('a', 1);
    expect(m.size).toBe(0);
    expect([...m.topics()]).toEqual([]);
  });

  it('copies deeply: the copy moves independently', () => {
    const m = OffsetMap.of([['a', 0, 1n]]);
    const c = m.copy();
    c.set('a', 0, 9n).set('a', 1, 2n);
    expect([...m]).toEqual([['a', 0, 1n]]);
    expect([...c]).toEqual([
      ['a', 0, 9n],
      ['a', 1, 2n],
    ]);
  });
});

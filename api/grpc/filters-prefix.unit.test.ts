import { describe, expect, it } from 'vitest';
import { encodeFiltersPrefix, PrefixCache } from './filters-prefix.js';

describe('PrefixCache', () => {
  it('gives each list of names its own prefix, the cached one while the names stay the same', () => {
    const cache = new PrefixCache();
    const seen: Buffer[] = [];
    // Alternating and near-equal lists: [] vs [''], a name split in two, a longer list sharing a start.
    for (const names of [['a'], ['a'], [], [''], [''], ['a', 'b'], ['a', 'b'], ['ab'], ['a', 'b', 'c'], ['a']]) {
      const prefix = cache.get(names);
      expect(prefix).toEqual(encodeFiltersPrefix(names));
      seen.push(prefix);
    }
    expect(seen[1]).toBe(seen[0]); // same names: the cached buffer, not a new encoding
    expect(seen[4]).toBe(seen[3]);
    expect(seen[6]).toBe(seen[5]);
    expect(seen[9]).not.toBe(seen[0]);
  });

  it('keeps its own copy of the names (a caller may reuse its array)', () => {
    const cache = new PrefixCache();
    const names = ['x'];
    cache.get(names);
    names[0] = 'y';
    expect(cache.get(names)).toEqual(encodeFiltersPrefix(['y']));
  });
});

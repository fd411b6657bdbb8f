import { describe, expect, it } from 'vitest';
import { toTabSeparated, tsvField } from './tab-separated.js';

describe('TabSeparated', () => {
  it('escapes what would split a field or a row, and marks NULL', () => {
    expect(tsvField('a\tb\nc\\d\re')).toBe('a\\tb\\nc\\\\d\\re');
    expect(tsvField('plain')).toBe('plain');
    expect(tsvField(null)).toBe('\\N');
    expect(tsvField(undefined)).toBe('\\N');
    // A string that reads like NULL stays a string: its backslash is escaped.
    expect(tsvField('\\N')).toBe('\\\\N');
  });

  it('writes booleans, numbers and u64 strings as ClickHouse reads them', () => {
    expect(tsvField(true)).toBe('1');
    expect(tsvField(false)).toBe('0');
    expect(tsvField(42)).toBe('42');
    expect(tsvField(18446744073709551615n)).toBe('18446744073709551615');
    expect(tsvField('18446744073709551615')).toBe('18446744073709551615');
    expect(() => tsvField(Number.NaN)).toThrow(/not a finite number/);
  });

  it('writes arrays with quoted, escaped strings', () => {
    expect(tsvField(['a', "b'c", 'd\\e\tf'])).toBe("['a','b\\'c','d\\\\e\\tf']");
    expect(tsvField([1, 2, 3])).toBe('[1,2,3]');
    expect(tsvField([])).toBe('[]');
  });

  it('lays rows out in column order, one line each', () => {
    const rows = [
      { a: 'x', b: 1, c: null },
      { a: 'y\nz', b: 2, c: 'q' },
    ];
    expect(toTabSeparated(rows, ['c', 'a', 'b']).toString()).toBe('\\N\tx\t1\nq\ty\\nz\t2\n');
    expect(toTabSeparated([], ['a']).length).toBe(0);
  });

  it('writes plain columns as they are and still marks their NULLs', () => {
    const rows = [
      { k: 'abc', t: 'a\tb' },
      { k: null, t: null },
    ];
    expect(toTabSeparated(rows, ['k', 't'], new Set(['k'] as const)).toString()).toBe('abc\ta\\tb\n\\N\t\\N\n');
  });

  it('encodes text as UTF-8', () => {
    expect(toTabSeparated([{ m: 'héllo ✓' }], ['m'])).toEqual(Buffer.from('héllo ✓\n', 'utf8'));
  });
});

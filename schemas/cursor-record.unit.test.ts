import { describe, expect, it } from 'vitest';
import { cursorNameError, decodeCursorRecord, encodeCursorRecord } from './cursor-record.js';

describe('cursor records', () => {
  it('round-trip a position, u64 slots included; no value is a deletion', () => {
    const p = { name: 'bot:1', slot: 18_446_744_073_709_551_615n, updatedAtMs: 1_700_000_000_000 };
    const { key, value } = encodeCursorRecord(p);
    expect(key.toString()).toBe('bot:1');
    expect(decodeCursorRecord(key, value)).toEqual(p);
    expect(decodeCursorRecord(key, null)).toBeUndefined();
  });

  it('refuses values that are not positions, naming the cursor', () => {
    const key = Buffer.from('c');
    expect(() => decodeCursorRecord(key, Buffer.from('{"slot":"-1","updatedAtMs":1}'))).toThrow(/cursor record c: slot -1 is not a u64/);
    expect(() => decodeCursorRecord(key, Buffer.from('{"slot":"1"}'))).toThrow(/cursor record c: updatedAtMs undefined/);
    expect(() => decodeCursorRecord(key, Buffer.from('not json'))).toThrow();
  });

  it('names: 1-128 of A-Z a-z 0-9 . _ : -', () => {
    expect(cursorNameError('a.B_c:d-1')).toBeUndefined();
    expect(cursorNameError('x'.repeat(128))).toBeUndefined();
    for (const bad of ['', 'x'.repeat(129), 'a b', 'a/b', 'é']) expect(cursorNameError(bad)).toMatch(/cursor name must be/);
  });
});

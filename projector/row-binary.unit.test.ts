import { describe, expect, it } from 'vitest';
import { rowBinaryRows } from './row-binary.js';

describe('rowBinaryRows', () => {
  it('given u64 values on both sides of 2^53, when written, then each is its exact little-endian bytes', () => {
    for (const slot of ['0', '2570', '9007199254740991', '9007199254740993', '18446744073709551615']) {
      const body = rowBinaryRows('slot_status', [{ slot, status: 7 }]);
      expect(body.length, slot).toBe(9);
      expect(body.readBigUInt64LE(0), slot).toBe(BigInt(slot));
      expect(body[8]).toBe(7);
    }
  });

  it('given a nullable Int64 and free text, when written, then NULL is one byte and text is its UTF-8 bytes after its length', () => {
    const row = { signature: 's', slot: '1', position: 2, err: null, memo: 'é\n', block_time: '-1', is_vote: true, fee: '5' };
    const body = rowBinaryRows('transactions', [row]);
    const want = Buffer.concat([
      Buffer.from([1, 0x73]),
      Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]),
      Buffer.from([2, 0, 0, 0]),
      Buffer.from([1]),
      Buffer.from([0, 3, 0xc3, 0xa9, 0x0a]),
      Buffer.from([0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      Buffer.from([1]),
      Buffer.from([5, 0, 0, 0, 0, 0, 0, 0]),
    ]);
    expect(body.toString('hex')).toBe(want.toString('hex'));
  });

  it('given a value that is not a decimal or out of range, when written, then it fails saying which value', () => {
    expect(() => rowBinaryRows('slot_status', [{ slot: 'abc', status: 1 }])).toThrow(/"abc" is not a decimal UInt64/);
    expect(() => rowBinaryRows('slot_status', [{ slot: '18446744073709551616', status: 1 }])).toThrow(RangeError);
    expect(() => rowBinaryRows('transaction_index', [{ signature: 's', slot: '1', position: -1 }])).toThrow(/-1 is not a UInt32/);
  });
});

import { describe, expect, it } from 'vitest';
import { ByteError, ByteReader } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';

const bytes = (...b: number[]): Buffer => Buffer.from(b);
/** The ByteError `run` throws (fails the test when it throws none or another). */
function errorOf(run: () => unknown): ByteError {
  try {
    run();
  } catch (err) {
    if (err instanceof ByteError) return err;
    throw err;
  }
  throw new Error('no ByteError thrown');
}

describe('ByteWriter and ByteReader', () => {
  it('round-trip every primitive, little-endian, at its extremes', () => {
    const key = Buffer.alloc(32, 7);
    const w = new ByteWriter(4) // grows past its first buffer
      .u8(255)
      .bool(true)
      .optionBool(false)
      .u16(0xfffe)
      .u32(0xffff_fffe)
      .u64(0xffff_ffff_ffff_fffen)
      .i64(-2n)
      .u128((1n << 128n) - 2n)
      .i128(-(1n << 127n))
      .pubkey(key)
      .shortU16(0x3fff)
      .string('héllo, longer than eight')
      .string('buy')
      .bincodeString('seed')
      .u32(3)
      .bytes(bytes(1, 2, 3));
    const r = new ByteReader(w.done());
    expect([r.u8(), r.bool(), r.bool(), r.u16(), r.u32()]).toEqual([255, true, false, 0xfffe, 0xffff_fffe]);
    expect([r.u64(), r.i64(), r.u128(), r.i128()]).toEqual([0xffff_ffff_ffff_fffen, -2n, (1n << 128n) - 2n, -(1n << 127n)]);
    const k = r.pubkey();
    expect(k.equals(key)).toBe(true);
    expect([r.shortU16(), r.string(), r.string(), r.bincodeString(), r.borshBytes()]).toEqual([
      0x3fff,
      'héllo, longer than eight',
      'buy',
      'seed',
      bytes(1, 2, 3),
    ]);
    expect(r.done).toBe(true);
    expect(r.remaining).toBe(0);
  });

  it('writes integers little-endian, compact-u16 as Solana does, and copies or views as asked', () => {
    expect(new ByteWriter().u32(0x01020304).u16(0x0506).done()).toEqual(bytes(4, 3, 2, 1, 6, 5));
    expect(new ByteWriter().shortU16(0).shortU16(0x7f).shortU16(0x80).shortU16(0xffff).done()).toEqual(
      bytes(0, 0x7f, 0x80, 0x01, 0xff, 0xff, 0x03),
    );
    const src = bytes(1, 2, 3, 4);
    const r = new ByteReader(src, 1);
    const copy = r.copy(1, 'one');
    const view = r.view(1, 'two');
    src[1] = 9;
    src[2] = 8;
    expect([copy[0], view[0], r.pos]).toEqual([2, 8, 3]);
    expect(r.reset(bytes(0x96, 0x01)).varint()).toBe(150n);
    expect(r.reset(bytes(0x80, 0x01)).leb32()).toBe(128);
    expect(r.reset(bytes(1, 2)).option()).toBe(true);
  });

  it('refuses a read past the end (`truncated`), naming what and where, and moves nothing', () => {
    const r = new ByteReader(bytes(1, 2, 3));
    r.u16('head');
    expect(errorOf(() => r.u32('account key count'))).toMatchObject({
      kind: 'truncated',
      offset: 2,
      message: 'truncated at byte 2: expected 4 bytes of account key count',
    });
    expect(r.pos).toBe(2);
    r.u8();
    expect(errorOf(() => r.u8('message header')).message).toBe('truncated at byte 3: expected message header');
    expect(errorOf(() => new ByteReader(bytes(5, 0, 0, 0, 1)).string('name')).message).toBe(
      'truncated at byte 4: expected 5 bytes of name',
    );
    expect(errorOf(() => new ByteReader(new ByteWriter().u64(1n << 40n).done()).bincodeString('seed')).kind).toBe('truncated');
    expect(errorOf(() => new ByteReader(bytes(0xff, 0xff, 0xff, 0xff)).count(0xffff_ffff, 1, 'vec')).kind).toBe('truncated');
  });

  it('refuses malformed values (`invalid`): bool and option bytes, compact-u16 forms, UTF-8, long varints', () => {
    const invalid = (run: () => unknown): string => {
      const e = errorOf(run);
      expect(e.kind).toBe('invalid');
      return e.message;
    };
    expect(invalid(() => new ByteReader(bytes(2)).bool('flag'))).toBe('flag: bool byte 2 at byte 0 (only 0 or 1)');
    expect(invalid(() => new ByteReader(bytes(2)).option('root'))).toBe('root: option tag 2 at byte 0 (only 0 or 1)');
    expect(invalid(() => new ByteReader(bytes(0x80, 0x00)).shortU16('count'))).toBe('non-canonical compact-u16 for count at byte 1');
    expect(invalid(() => new ByteReader(bytes(0xff, 0xff, 0x04)).shortU16('count'))).toBe('compact-u16 overflow for count');
    expect(invalid(() => new ByteReader(bytes(0x80, 0x80, 0x80, 0x01)).shortU16('count'))).toBe(
      'compact-u16 longer than 3 bytes for count',
    );
    expect(invalid(() => new ByteReader(bytes(2, 0, 0, 0, 0xc3, 0x28)).string('name'))).toBe('name at byte 4 is not valid UTF-8');
    expect(invalid(() => new ByteReader(Buffer.alloc(11, 0x80)).varint('offset'))).toMatch(/longer than 10 bytes/);
    expect(invalid(() => new ByteReader(Buffer.alloc(6, 0x80)).leb32('length'))).toMatch(/longer than 5 bytes/);
    // bincode strings keep the readers' old leniency: invalid UTF-8 becomes U+FFFD.
    expect(new ByteReader(new ByteWriter().u64(1n).u8(0xff).done()).bincodeString()).toBe('\ufffd');
  });

  it('refuses values a writer cannot hold (`out-of-range`), naming them', () => {
    expect(errorOf(() => new ByteWriter().shortU16(0x10000))).toMatchObject({
      kind: 'out-of-range',
      message: 'compact-u16 out of range: 65536',
    });
    expect(errorOf(() => new ByteWriter().pubkey(Buffer.alloc(31), 'owner')).message).toBe('owner: expected 32 bytes, got 31');
    expect(errorOf(() => new ByteWriter().u128(-1n)).message).toBe('-1 is not a u128');
    expect(errorOf(() => new ByteWriter().i128(1n << 127n)).kind).toBe('out-of-range');
    expect(() => new ByteWriter().u8(256)).toThrow(RangeError);
    expect(() => new ByteWriter().u64(-1n)).toThrow(RangeError);
  });
});

// The one strict decoder of outside base58/base64 text: each kind of bad input gets its kind and reason, and
// what Node's or bs58's own decoders would let through (stray bits, characters outside the alphabet) does not.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { decodeBase58, decodeBase58Exact, decodeBase64, maxBase58Chars, type Decoded } from './decode-input.js';

const key = Buffer.alloc(32, 7);
/** The decoded bytes as numbers (base64 gives a Buffer, base58 a Uint8Array), or the failure. */
const out = (d: Decoded): number[] | Decoded => (d.ok ? [...d.bytes] : d);

describe('decodeBase58Exact', () => {
  it('gives the bytes of a text of the expected size, the all-zero key included', () => {
    expect(out(decodeBase58Exact(bs58.encode(key), 32))).toEqual([...key]);
    expect(out(decodeBase58Exact('1'.repeat(32), 32))).toEqual(new Array(32).fill(0));
  });

  it.each([
    ['', 32, 'empty', 'empty string'],
    ['0OIl', 32, 'alphabet', 'not base58'],
    ['abc!', 32, 'alphabet', 'not base58'],
    ['xyz', 32, 'size', 'decodes to 3 bytes, expected 32'],
    [bs58.encode(key), 64, 'size', 'decodes to 32 bytes, expected 64'],
    ['2'.repeat(46), 32, 'too-long', 'longer than 45 characters'],
  ])('refuses %j as %i bytes: %s', (text, size, kind, reason) => {
    expect(decodeBase58Exact(text, size)).toMatchObject({ ok: false, kind, reason });
  });

  it('reports the decoded size of a valid text of the wrong size', () => {
    expect(decodeBase58Exact(bs58.encode(Buffer.alloc(31, 1)), 32)).toMatchObject({ kind: 'size', decodedBytes: 31 });
  });

  it('bounds the length: no text longer than the bound decodes to the size', () => {
    for (const size of [32, 64]) {
      const longest = bs58.encode(Buffer.alloc(size, 0xff));
      expect(longest.length).toBeLessThanOrEqual(maxBase58Chars(size));
      expect(bs58.decode('2' + '1'.repeat(maxBase58Chars(size))).length).toBeGreaterThan(size);
    }
  });
});

describe('decodeBase58', () => {
  it('decodes any length, the empty text to no bytes', () => {
    expect(out(decodeBase58(''))).toEqual([]);
    expect(out(decodeBase58(bs58.encode([1, 2, 3])))).toEqual([1, 2, 3]);
  });

  it('refuses characters outside the alphabet', () => {
    expect(decodeBase58('abc0')).toMatchObject({ ok: false, kind: 'alphabet', reason: 'not base58' });
  });
});

describe('decodeBase64', () => {
  it('decodes canonical text, padded or not', () => {
    expect(out(decodeBase64('AQID'))).toEqual([1, 2, 3]);
    expect(out(decodeBase64('AQ=='))).toEqual([1]);
    expect(out(decodeBase64('AQ'))).toEqual([1]);
    expect(out(decodeBase64(''))).toEqual([]);
  });

  it.each([
    ['abc!', 'alphabet', 'not base64 (standard alphabet A-Z a-z 0-9 + /)'],
    ['ab-_', 'alphabet', 'not base64 (standard alphabet A-Z a-z 0-9 + /)'],
    ['AQ=', 'padding', 'bad base64 padding'],
    ['AQIDB', 'length', 'bad base64 length'],
    ['AB==', 'trailing-bits', 'non-canonical base64 (trailing bits set)'],
    ['AQJ', 'trailing-bits', 'non-canonical base64 (trailing bits set)'],
  ])('refuses %j: %s', (text, kind, reason) => {
    expect(decodeBase64(text)).toMatchObject({ ok: false, kind, reason });
  });

  it('requires whole groups of four when padded', () => {
    expect(decodeBase64('AQ', { padded: true })).toMatchObject({ ok: false, kind: 'padding' });
    expect(out(decodeBase64('AQ==', { padded: true }))).toEqual([1]);
    expect(out(decodeBase64('AQID', { padded: true }))).toEqual([1, 2, 3]);
  });
});

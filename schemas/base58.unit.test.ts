import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { base58, base58Key, keyFromBase58 } from './base58.js';

describe('base58', () => {
  it('matches bs58 on edge cases', () => {
    for (const b of [
      [],
      [0],
      [0, 0],
      [0, 0, 1],
      [1],
      [255],
      [57],
      [58],
      [0, 255, 255],
      Array(32).fill(0),
      Array(32).fill(255),
      Array(64).fill(255),
    ]) {
      expect(base58(Uint8Array.from(b))).toBe(bs58.encode(Uint8Array.from(b)));
    }
  });

  it('matches bs58 on random keys and signatures of every length up to 80 bytes', () => {
    for (let len = 0; len <= 80; len++) {
      for (let i = 0; i < 50; i++) {
        const b = randomBytes(len);
        if (i % 5 === 0 && len > 2) b[0] = 0;
        expect(base58(b)).toBe(bs58.encode(b));
      }
    }
  });

  it('remembers keys both ways: the same text and bytes as bs58, decoded once and shared for a repeated key', () => {
    let decodes = 0;
    const decode = (t: string): Uint8Array => (decodes++, bs58.decode(t));
    for (let i = 0; i < 50; i++) {
      const key = randomBytes(32);
      const text = bs58.encode(key);
      expect(base58Key(key)).toBe(text);
      const first = keyFromBase58(text, decode);
      expect(first.equals(key)).toBe(true);
      expect(keyFromBase58(text, decode)).toBe(first);
    }
    expect(decodes).toBe(50);
  });
});

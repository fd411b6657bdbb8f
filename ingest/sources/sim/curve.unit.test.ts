import { getBase58Decoder, isOffCurveAddress, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { isOnCurve } from './curve.js';
import { deriveKeypair } from './keys.js';
import { rngFor } from './rng.js';

const b58 = getBase58Decoder();

describe('isOnCurve', () => {
  it('agrees with @solana/kit isOffCurveAddress on random bytes (both outcomes occur)', () => {
    const rng = rngFor(1, 'curve-test');
    let on = 0;
    for (let i = 0; i < 2000; i++) {
      const b = rng.bytes(32);
      const mine = isOnCurve(b);
      expect(mine).toBe(!isOffCurveAddress(b58.decode(b) as Address));
      if (mine) on++;
    }
    expect(on).toBeGreaterThan(800);
    expect(on).toBeLessThan(1200);
  });

  it('agrees with kit where x = 0 (y = ±1), with and without the sign bit', () => {
    const one = Buffer.alloc(32);
    one[0] = 1;
    const minusOne = Buffer.from((2n ** 255n - 20n).toString(16).padStart(64, '0'), 'hex').reverse();
    for (const y of [one, minusOne]) {
      for (const sign of [0, 0x80]) {
        const b = Buffer.from(y);
        b[31] = (b[31]! & 0x7f) | sign;
        expect(isOnCurve(b)).toBe(!isOffCurveAddress(b58.decode(b) as Address));
      }
    }
  });

  it('accepts real public keys', () => {
    for (let i = 0; i < 20; i++) expect(isOnCurve(deriveKeypair(1, 'curve', i).publicKey)).toBe(true);
  });

  it('rejects wrong lengths', () => {
    expect(isOnCurve(new Uint8Array(31))).toBe(false);
  });
});

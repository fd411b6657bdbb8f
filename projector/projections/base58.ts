// Base58 (Bitcoin alphabet), the same output as the `bs58` package but faster: the projector encodes
// every signature and key it stores, and bs58's byte-by-digit loop was its largest cost. The number
// is kept in limbs of 58^7 (a limb times 256 plus a carry stays below 2^53, exact in a double), so
// each input byte touches about a seventh as many digits.
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const LIMB = 58 ** 7;
const DIGITS_PER_LIMB = 7;

export function base58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const limbs: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < limbs.length; j++) {
      const x = limbs[j]! * 256 + carry;
      carry = Math.floor(x / LIMB);
      limbs[j] = x - carry * LIMB;
    }
    while (carry > 0) {
      const next = Math.floor(carry / LIMB);
      limbs.push(carry - next * LIMB);
      carry = next;
    }
  }
  let out = '';
  for (let j = 0; j < limbs.length; j++) {
    let limb = limbs[j]!;
    const last = j === limbs.length - 1;
    for (let d = 0; d < DIGITS_PER_LIMB && (!last || limb > 0); d++) {
      const q = Math.floor(limb / 58);
      out = ALPHABET[limb - q * 58] + out;
      limb = q;
    }
  }
  return '1'.repeat(zeros) + out;
}

/** Keys repeat a lot (programs, busy accounts): remember recent encodings, bounded. */
const cache = new Map<string, string>();
const CACHE_MAX = 200_000;

export function base58Key(key: Buffer): string {
  const k = key.toString('latin1');
  let s = cache.get(k);
  if (s === undefined) {
    s = base58(key);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(k, s);
  }
  return s;
}

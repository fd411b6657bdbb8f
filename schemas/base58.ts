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
  // Digits are written into a byte buffer from the end and read out once as a flat string: building
  // the string by prepending made a rope that every later reader (TSV escaping, Buffer writes) flattened.
  const total = zeros + limbs.length * DIGITS_PER_LIMB;
  if (scratch.length < total) scratch = new Uint8Array(total * 2);
  let at = total;
  for (let j = 0; j < limbs.length; j++) {
    let limb = limbs[j]!;
    const last = j === limbs.length - 1;
    for (let d = 0; d < DIGITS_PER_LIMB && (!last || limb > 0); d++) {
      const q = Math.floor(limb / 58);
      scratch[--at] = ALPHABET_CODES[limb - q * 58]!;
      limb = q;
    }
  }
  for (let z = 0; z < zeros; z++) scratch[--at] = ONE;
  return latin1.decode(scratch.subarray(at, total));
}

const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const ONE = '1'.charCodeAt(0);
const latin1 = new TextDecoder('latin1');
let scratch = new Uint8Array(128);

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

/** And back: base58 keys (mints, owners, programs of token balances) decode to bytes once, bounded. The Buffer is
 * shared by every event that names the key: event fields are never written into. */
const decoded = new Map<string, Buffer>();

export function keyFromBase58(text: string, decode: (s: string) => Uint8Array): Buffer {
  let b = decoded.get(text);
  if (b === undefined) {
    b = Buffer.from(decode(text));
    if (decoded.size >= CACHE_MAX) decoded.clear();
    decoded.set(text, b);
  }
  return b;
}

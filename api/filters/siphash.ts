// SipHash-2-4 (Aumasson and Bernstein, 2012) over 64-bit words kept as two uint32 halves, so that hashing a
// key costs no BigInt and no allocation. Used by the cuckoo filter matcher (./cuckoo.ts), whose wire format
// fixes this hash; no npm package in the tree provides it. Checked against the reference test vectors
// (siphash.unit.test.ts).

/** A 64-bit value as two uint32 halves. */
export interface U64 {
  hi: number;
  lo: number;
}

/** A SipHash-2-4 key: k0 and k1 as uint32 halves. */
export interface SipKey {
  readonly k0hi: number;
  readonly k0lo: number;
  readonly k1hi: number;
  readonly k1lo: number;
}

// The state v0..v3 as (hi, lo) pairs: [v0hi, v0lo, v1hi, v1lo, v2hi, v2lo, v3hi, v3lo]. One per module: the
// hash is synchronous and never re-entered.
const v = new Uint32Array(8);

/** v[a] += v[b] (mod 2^64). */
function add(a: number, b: number): void {
  const lo = v[a + 1]! + v[b + 1]!;
  v[a + 1] = lo;
  v[a] = v[a]! + v[b]! + (lo > 0xffffffff ? 1 : 0);
}

/** v[a] = rotl(v[a], n) for 0 < n < 32. */
function rotl(a: number, n: number): void {
  const hi = v[a]!;
  const lo = v[a + 1]!;
  v[a] = (hi << n) | (lo >>> (32 - n));
  v[a + 1] = (lo << n) | (hi >>> (32 - n));
}

/** v[a] = rotl(v[a], 32): the halves swap. */
function swap(a: number): void {
  const hi = v[a]!;
  v[a] = v[a + 1]!;
  v[a + 1] = hi;
}

/** v[a] ^= v[b]. */
function xor(a: number, b: number): void {
  v[a] = v[a]! ^ v[b]!;
  v[a + 1] = v[a + 1]! ^ v[b + 1]!;
}

const V0 = 0;
const V1 = 2;
const V2 = 4;
const V3 = 6;

function round(): void {
  add(V0, V1);
  rotl(V1, 13);
  xor(V1, V0);
  swap(V0);
  add(V2, V3);
  rotl(V3, 16);
  xor(V3, V2);
  add(V0, V3);
  rotl(V3, 21);
  xor(V3, V0);
  add(V2, V1);
  rotl(V1, 17);
  xor(V1, V2);
  swap(V2);
}

/** One message word (little-endian halves): v3 ^= m, two rounds, v0 ^= m. */
function compress(mhi: number, mlo: number): void {
  v[V3] = v[V3]! ^ mhi;
  v[V3 + 1] = v[V3 + 1]! ^ mlo;
  round();
  round();
  v[V0] = v[V0]! ^ mhi;
  v[V0 + 1] = v[V0 + 1]! ^ mlo;
}

const le32 = (b: Uint8Array, i: number): number => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

/** SipHash-2-4 of `msg[0..len)` under `key`, into `out`. */
export function sipHash24(key: SipKey, msg: Uint8Array, len: number, out: U64): void {
  v[V0] = key.k0hi ^ 0x736f6d65;
  v[V0 + 1] = key.k0lo ^ 0x70736575;
  v[V1] = key.k1hi ^ 0x646f7261;
  v[V1 + 1] = key.k1lo ^ 0x6e646f6d;
  v[V2] = key.k0hi ^ 0x6c796765;
  v[V2 + 1] = key.k0lo ^ 0x6e657261;
  v[V3] = key.k1hi ^ 0x74656462;
  v[V3 + 1] = key.k1lo ^ 0x79746573;
  const full = len - (len % 8);
  for (let i = 0; i < full; i += 8) compress(le32(msg, i + 4), le32(msg, i));
  // The last word: the remaining bytes, little-endian, and the length's low byte on top.
  let lo = 0;
  let hi = (len & 0xff) << 24;
  for (let i = full; i < len; i++) {
    const shift = (i - full) * 8;
    if (shift < 32) lo |= msg[i]! << shift;
    else hi |= msg[i]! << (shift - 32);
  }
  compress(hi >>> 0, lo >>> 0);
  v[V2 + 1] = v[V2 + 1]! ^ 0xff;
  round();
  round();
  round();
  round();
  out.hi = (v[V0]! ^ v[V1]! ^ v[V2]! ^ v[V3]!) >>> 0;
  out.lo = (v[V0 + 1]! ^ v[V1 + 1]! ^ v[V2 + 1]! ^ v[V3 + 1]!) >>> 0;
}

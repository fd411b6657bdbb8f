// SipHash-2-4 (Aumasson and Bernstein, 2012) over 64-bit words kept as two uint32 halves in local variables,
// so that hashing a key costs no BigInt and no allocation. Used by the cuckoo filter matcher (./cuckoo.ts),
// whose wire format fixes this hash; no npm package in the tree provides it. Checked against the reference
// test vectors (cuckoo.unit.test.ts).

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

const le32 = (b: Uint8Array, i: number): number => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

/** SipHash-2-4 of `msg[0..len)` under `key`, into `out`. */
export function sipHash24(key: SipKey, msg: Uint8Array, len: number, out: U64): void {
  let v0h = (key.k0hi ^ 0x736f6d65) >>> 0;
  let v0l = (key.k0lo ^ 0x70736575) >>> 0;
  let v1h = (key.k1hi ^ 0x646f7261) >>> 0;
  let v1l = (key.k1lo ^ 0x6e646f6d) >>> 0;
  let v2h = (key.k0hi ^ 0x6c796765) >>> 0;
  let v2l = (key.k0lo ^ 0x6e657261) >>> 0;
  let v3h = (key.k1hi ^ 0x74656462) >>> 0;
  let v3l = (key.k1lo ^ 0x79746573) >>> 0;
  const full = len - (len % 8);
  const words = full / 8;
  // Word w < words: a full message word; w === words: the last word (remaining bytes, length on top);
  // w === words + 1: finalization (v2 ^= 0xff, four rounds). One round body serves all three.
  for (let w = 0; w <= words + 1; w++) {
    let mh = 0;
    let ml = 0;
    let rounds = 2;
    if (w < words) {
      ml = le32(msg, w * 8);
      mh = le32(msg, w * 8 + 4);
    } else if (w === words) {
      mh = (len & 0xff) << 24;
      for (let i = full; i < len; i++) {
        const shift = (i - full) * 8;
        if (shift < 32) ml |= msg[i]! << shift;
        else mh |= msg[i]! << (shift - 32);
      }
      mh >>>= 0;
      ml >>>= 0;
    } else {
      v2l = (v2l ^ 0xff) >>> 0;
      rounds = 4;
    }
    if (w <= words) {
      v3h = (v3h ^ mh) >>> 0;
      v3l = (v3l ^ ml) >>> 0;
    }
    for (let r = 0; r < rounds; r++) {
      let l: number;
      let t: number;
      // v0 += v1; v1 = rotl(v1, 13) ^ v0; v0 = rotl(v0, 32)
      l = v0l + v1l;
      v0h = (v0h + v1h + (l > 0xffffffff ? 1 : 0)) >>> 0;
      v0l = l >>> 0;
      t = v1h;
      v1h = (((v1h << 13) | (v1l >>> 19)) ^ v0h) >>> 0;
      v1l = (((v1l << 13) | (t >>> 19)) ^ v0l) >>> 0;
      t = v0h;
      v0h = v0l;
      v0l = t;
      // v2 += v3; v3 = rotl(v3, 16) ^ v2
      l = v2l + v3l;
      v2h = (v2h + v3h + (l > 0xffffffff ? 1 : 0)) >>> 0;
      v2l = l >>> 0;
      t = v3h;
      v3h = (((v3h << 16) | (v3l >>> 16)) ^ v2h) >>> 0;
      v3l = (((v3l << 16) | (t >>> 16)) ^ v2l) >>> 0;
      // v0 += v3; v3 = rotl(v3, 21) ^ v0
      l = v0l + v3l;
      v0h = (v0h + v3h + (l > 0xffffffff ? 1 : 0)) >>> 0;
      v0l = l >>> 0;
      t = v3h;
      v3h = (((v3h << 21) | (v3l >>> 11)) ^ v0h) >>> 0;
      v3l = (((v3l << 21) | (t >>> 11)) ^ v0l) >>> 0;
      // v2 += v1; v1 = rotl(v1, 17) ^ v2; v2 = rotl(v2, 32)
      l = v2l + v1l;
      v2h = (v2h + v1h + (l > 0xffffffff ? 1 : 0)) >>> 0;
      v2l = l >>> 0;
      t = v1h;
      v1h = (((v1h << 17) | (v1l >>> 15)) ^ v2h) >>> 0;
      v1l = (((v1l << 17) | (t >>> 15)) ^ v2l) >>> 0;
      t = v2h;
      v2h = v2l;
      v2l = t;
    }
    if (w <= words) {
      v0h = (v0h ^ mh) >>> 0;
      v0l = (v0l ^ ml) >>> 0;
    }
  }
  out.hi = (v0h ^ v1h ^ v2h ^ v3h) >>> 0;
  out.lo = (v0l ^ v1l ^ v2l ^ v3l) >>> 0;
}

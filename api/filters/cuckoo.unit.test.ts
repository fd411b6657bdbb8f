// The cuckoo matcher against filters built by the published @triton-one/yellowstone-grpc package's own helper
// (CompressedAccountFilterSet, its native Rust code) and against Yellowstone's golden wire fixture
// (yellowstone-grpc-proto/src/cuckoo/filter.rs, test hash_reuse_preserves_golden_wire_fixture).
import { randomBytes } from 'node:crypto';
import { CompressedAccountFilterSet } from '@triton-one/yellowstone-grpc';
import { describe, expect, it } from 'vitest';
import { CuckooFilterError, CuckooSet, type CuckooFilterMessage } from './cuckoo.js';
import { keyId } from './key-id.js';
import { sipHash24, type U64 } from './siphash.js';

const NO_LIMIT = Number.MAX_SAFE_INTEGER;

describe('sipHash24', () => {
  // Key 00..0f, message 00..(n-1); expected values from `openssl mac SIPHASH` (bytes little-endian, as printed).
  const key = { k0hi: 0x07060504, k0lo: 0x03020100, k1hi: 0x0f0e0d0c, k1lo: 0x0b0a0908 };
  const vectors: [number, string][] = [
    [0, '310E0EDD47DB6F72'],
    [1, 'FD67DC93C539F874'],
    [2, '5A4FA9D909806C0D'],
    [7, '37D1018BF50002AB'],
    [8, '6224939A79F5F593'],
    [9, 'B0E4A90BDF82009E'],
    [15, 'E545BE4961CA29A1'],
    [40, 'D0A704536BA93E0E'],
    [63, '724506EB4C328A95'],
  ];
  it.each(vectors)('reference vector of %i bytes', (n, hex) => {
    const msg = Uint8Array.from({ length: n }, (_, i) => i);
    const out: U64 = { hi: 0, lo: 0 };
    sipHash24(key, msg, n, out);
    const le = Buffer.alloc(8);
    le.writeUInt32LE(out.lo, 0);
    le.writeUInt32LE(out.hi, 4);
    expect(le.toString('hex').toUpperCase()).toBe(hex);
  });
});

describe('CuckooSet', () => {
  it("reads Yellowstone's golden wire fixture: every key it was built from, not [255; 32]", () => {
    // prettier-ignore
    const data = Uint8Array.from([
      98, 225, 76, 119, 190, 148, 14, 101, 11, 41, 217, 3, 119, 174, 0, 0, 66, 89, 195, 68,
      95, 234, 230, 233, 20, 49, 10, 177, 0, 0, 0, 0, 219, 56, 38, 161, 53, 30, 11, 123, 215,
      189, 20, 44, 123, 34, 176, 131, 12, 189, 134, 227, 205, 228, 142, 117, 68, 108, 97,
      147, 203, 29, 222, 218, 104, 255, 204, 10, 145, 239, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 41,
      254, 16, 199, 37, 77, 0, 0, 170, 17, 23, 225, 34, 7, 180, 119, 125, 61, 0, 0, 0, 0, 0,
      0, 199, 228, 152, 62, 183, 114, 0, 0, 209, 244, 248, 9, 104, 65, 230, 66, 0, 0, 0, 0,
      0, 0, 0, 0,
    ]);
    const set = CuckooSet.fromMessage(
      {
        data,
        bucketCount: 16,
        entriesPerBucket: 4,
        fingerprintBits: 16,
        hashSeed: BigInt('0x0123456789abcdef').toString(),
        hashAlgorithm: 0,
      },
      NO_LIMIT,
    );
    // Keys [b; 32] for b in 0..47: some sit in their alternate bucket (b = 31) or were relocated (b = 46).
    for (let b = 0; b < 47; b++) expect(set.has(new Uint8Array(32).fill(b)), `key [${b}; 32]`).toBe(true);
    expect(set.has(new Uint8Array(32).fill(255))).toBe(false);
  });

  it("holds every key of a filter built by the package's CompressedAccountFilterSet, as bytes and as key ids", () => {
    const built = new CompressedAccountFilterSet(5_000);
    const keys = Array.from({ length: 5_000 }, () => randomBytes(32));
    for (const k of keys) expect(built.insert(k)).toBe(true);
    const set = CuckooSet.fromMessage(built.toProto(), NO_LIMIT);
    for (const k of keys) {
      expect(set.has(k)).toBe(true);
      expect(set.has(keyId(k))).toBe(true);
    }
    // False positives stay rare (Yellowstone: < 1% at full load).
    let fp = 0;
    for (let i = 0; i < 5_000; i++) {
      const k = randomBytes(32);
      // The helper's own `contains` is exact (it keeps a HashSet beside the filter): a random key is not in it.
      expect(built.contains(k)).toBe(false);
      if (set.has(k)) fp++;
    }
    expect(fp / 5_000).toBeLessThan(0.01);
  });

  it('base58 keys inserted into the helper match their bytes; a key removed from the helper no longer matches', () => {
    const built = new CompressedAccountFilterSet(100);
    const a = 'So11111111111111111111111111111111111111112';
    const b = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
    built.insert(a);
    built.insert(b);
    built.remove(b);
    const set = CuckooSet.fromMessage(built.toProto(), NO_LIMIT);
    expect(set.has(Buffer.from('069b8857feab8184fb687f634618c035dac439dc1aeb3b5598a0f00000000001', 'hex'))).toBe(true);
    expect(set.has(Buffer.from('06ddf6e1d765a193d9cbe146ceeb79ac1cb485ed5f5b37913a8cf5857eff00a9', 'hex'))).toBe(false);
  });

  it('a lookup in a 10M-key-sized filter costs what it costs in a small one (two hashes, two buckets)', () => {
    const small = CuckooSet.fromMessage(new CompressedAccountFilterSet(1000).toProto(), NO_LIMIT);
    // The size the helper gives 10M keys: 2^22 buckets, 32 MiB (filled with random fingerprints).
    const big = CuckooSet.fromMessage(
      {
        data: randomBytes(2 ** 22 * 8),
        bucketCount: 2 ** 22,
        entriesPerBucket: 4,
        fingerprintBits: 16,
        hashSeed: '8749482375948211745',
        hashAlgorithm: 0,
      },
      NO_LIMIT,
    );
    const probes = Array.from({ length: 50_000 }, () => keyId(randomBytes(32)));
    const time = (s: CuckooSet): number => {
      const t = performance.now();
      for (const p of probes) s.has(p);
      return performance.now() - t;
    };
    time(small);
    time(big); // warm both
    const ratio = Math.min(...[0, 1, 2].map(() => time(big))) / Math.min(...[0, 1, 2].map(() => time(small)));
    // Cache misses (and a loaded machine) make the big one somewhat slower; a lookup that walked the set
    // would be thousands of times slower.
    expect(ratio).toBeLessThan(20);
  });

  const good = (): CuckooFilterMessage => new CompressedAccountFilterSet(10).toProto();
  it.each<[string, Partial<CuckooFilterMessage>, string]>([
    ['hash_algorithm', { hashAlgorithm: 1 }, 'unsupported hash algorithm 1'],
    ['fingerprint_bits', { fingerprintBits: 8 }, 'unsupported fingerprint size 8'],
    ['entries_per_bucket', { entriesPerBucket: 2 }, 'unsupported bucket size 2'],
    ['bucket_count', { bucketCount: 3 }, 'not a power of two'],
    ['data', { data: new Uint8Array(7) }, 'do not hold'],
    ['hash_seed', { hashSeed: 'x' }, 'not a u64'],
    ['hash_seed', { hashSeed: (1n << 64n).toString() }, 'not a u64'],
  ])('refuses a bad %s', (field, patch, reason) => {
    let err: unknown;
    try {
      CuckooSet.fromMessage({ ...good(), ...patch }, NO_LIMIT);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CuckooFilterError);
    expect((err as CuckooFilterError).field).toBe(field);
    expect((err as Error).message).toContain(reason);
  });

  it('refuses a filter over the byte limit', () => {
    expect(() => CuckooSet.fromMessage(good(), 4)).toThrow(/filter too large \(\d+ bytes, at most 4\)/);
  });
});

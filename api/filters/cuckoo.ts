// Yellowstone's compressed address sets: the `CuckooFilter` message of geyser.proto (accounts'
// `cuckoo_accounts_filter`, transactions' and blocks' `cuckoo_account_include`), read as the server side of
// rpcpool/yellowstone-grpc reads it (yellowstone-grpc-proto/src/cuckoo: filter.rs, hasher.rs, constants.rs).
// The layout, from that source:
// - `data`: the buckets one after the other, each 4 fingerprints (`entries_per_bucket`), each a u16
//   little-endian (`fingerprint_bits` 16); 0 is an empty slot. The bucket count is a power of two, so a hash
//   picks a bucket by masking its low bits.
// - the hash: SipHash-2-4 with k0 = `hash_seed`, k1 = the seed rotated left by 32 (`hash_algorithm` SIP_HASH),
//   over what Rust's `Hash` feeds it for a `[u8; 32]` pubkey: the length as a u64 (32) then the 32 bytes.
// - a key's fingerprint is bits 32..47 of its hash (0 becomes 1); its first bucket the hash's low bits; its
//   other bucket the first XOR the low bits of the hash of the fingerprint (a u16: its 2 bytes).
// - contains: the fingerprint is in either bucket. False positives happen (a client filters them out again);
//   false negatives never.
// A lookup costs two hashes and 8 slot reads whatever the set's size (a 10M-key set is ~32 MiB of buckets).
// Pure: no I/O. The filter's bytes are kept as sent (one copy), not rebuilt into another table.
import { sipHash24, type SipKey, type U64 } from './siphash.js';

/** The wire message's fields (the published package's `CuckooFilter`, u64 seed as decimal text). */
export interface CuckooFilterMessage {
  readonly data: Uint8Array;
  readonly bucketCount: number;
  readonly entriesPerBucket: number;
  readonly fingerprintBits: number;
  readonly hashSeed: string;
  readonly hashAlgorithm: number;
}

/** The only layout Yellowstone builds and reads (constants.rs). */
export const CUCKOO_ENTRIES_PER_BUCKET = 4;
export const CUCKOO_FINGERPRINT_BITS = 16;
/** CuckooHashAlgorithm.SIP_HASH. */
export const CUCKOO_SIP_HASH = 0;
const BUCKET_BYTES = CUCKOO_ENTRIES_PER_BUCKET * 2;

/** Why a CuckooFilter message cannot be used; `field` is its field name in geyser.proto. */
export class CuckooFilterError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(reason);
  }
}

const U64_MAX = (1n << 64n) - 1n;

/**
 * The low 32 bits of the hash of each fingerprint (what picks a key's other bucket), computed once per seed and
 * fingerprint and shared by every set with that seed: clients build their sets with the package's default seed,
 * so a lookup that misses its first bucket costs one hash, not two. At most MAX_SEEDS tables (320 KiB each)
 * are kept; sets with other seeds get a table of their own.
 */
class AltHashes {
  private static readonly MAX_SEEDS = 16;
  private static readonly bySeed = new Map<bigint, AltHashes>();
  private readonly lo = new Uint32Array(65536);
  private readonly known = new Uint8Array(65536);
  private readonly input = new Uint8Array(2);
  private readonly h: U64 = { hi: 0, lo: 0 };

  private constructor(private readonly key: SipKey) {}

  static forSeed(seed: bigint, key: SipKey): AltHashes {
    const shared = AltHashes.bySeed.get(seed);
    if (shared) return shared;
    const made = new AltHashes(key);
    if (AltHashes.bySeed.size < AltHashes.MAX_SEEDS) AltHashes.bySeed.set(seed, made);
    return made;
  }

  /** The hash of the fingerprint's 2 bytes (Rust hashes a u16 as its little-endian bytes), low half. */
  of(fp: number): number {
    if (this.known[fp] === 1) return this.lo[fp]!;
    this.input[0] = fp & 0xff;
    this.input[1] = fp >>> 8;
    sipHash24(this.key, this.input, 2, this.h);
    this.lo[fp] = this.h.lo;
    this.known[fp] = 1;
    return this.h.lo;
  }
}

/** A compressed address set, ready to answer `has`. Immutable. */
export class CuckooSet {
  private static made = 0;
  /** Unique per set in this process: names it in cache keys (a blocks filter's encoding). */
  readonly id = ++CuckooSet.made;
  private readonly key: SipKey;
  private readonly mask: number;
  /** Scratch for the hash input (length prefix + key) and output: lookups are synchronous. */
  private static readonly input = new Uint8Array(40);
  private static readonly h: U64 = { hi: 0, lo: 0 };
  private readonly alt: AltHashes;

  private constructor(
    private readonly data: Uint8Array,
    readonly bucketCount: number,
    seed: bigint,
  ) {
    const k1 = ((seed << 32n) | (seed >> 32n)) & U64_MAX;
    this.key = Object.freeze({
      k0hi: Number(seed >> 32n),
      k0lo: Number(seed & 0xffffffffn),
      k1hi: Number(k1 >> 32n),
      k1lo: Number(k1 & 0xffffffffn),
    });
    this.mask = bucketCount - 1;
    this.alt = AltHashes.forSeed(seed, this.key);
  }

  /**
   * Checks the message and keeps its bytes. Stricter than Yellowstone (which reads any bytes, rounding odd
   * lengths down): a filter this server would read differently from the client that built it is refused
   * with the field and the reason, rather than matching something the client never meant.
   */
  static fromMessage(m: CuckooFilterMessage, maxBytes: number): CuckooSet {
    if (m.hashAlgorithm !== CUCKOO_SIP_HASH)
      throw new CuckooFilterError('hash_algorithm', `unsupported hash algorithm ${m.hashAlgorithm} (only SIP_HASH, 0)`);
    if (m.fingerprintBits !== CUCKOO_FINGERPRINT_BITS)
      throw new CuckooFilterError(
        'fingerprint_bits',
        `unsupported fingerprint size ${m.fingerprintBits} (only ${CUCKOO_FINGERPRINT_BITS})`,
      );
    if (m.entriesPerBucket !== CUCKOO_ENTRIES_PER_BUCKET)
      throw new CuckooFilterError(
        'entries_per_bucket',
        `unsupported bucket size ${m.entriesPerBucket} (only ${CUCKOO_ENTRIES_PER_BUCKET})`,
      );
    const n = m.bucketCount;
    if (!Number.isSafeInteger(n) || n < 1 || (n & (n - 1)) !== 0 || n > 2 ** 30)
      throw new CuckooFilterError('bucket_count', `bucket count ${n} is not a power of two between 1 and 2^30`);
    if (m.data.length > maxBytes) throw new CuckooFilterError('data', `filter too large (${m.data.length} bytes, at most ${maxBytes})`);
    if (m.data.length !== n * BUCKET_BYTES)
      throw new CuckooFilterError(
        'data',
        `${m.data.length} bytes do not hold ${n} buckets of ${CUCKOO_ENTRIES_PER_BUCKET} 2-byte fingerprints (${n * BUCKET_BYTES} bytes)`,
      );
    let seed: bigint;
    try {
      seed = BigInt(m.hashSeed || '0');
    } catch {
      throw new CuckooFilterError('hash_seed', `not a u64: ${JSON.stringify(m.hashSeed)}`);
    }
    if (seed < 0n || seed > U64_MAX) throw new CuckooFilterError('hash_seed', `not a u64: ${m.hashSeed}`);
    // A copy: the set outlives the request it came in (one memcpy per request, not per lookup).
    return new CuckooSet(new Uint8Array(m.data), n, seed);
  }

  /** Whether the set (probably) holds this 32-byte key; `key` is raw bytes or a key id (latin1 string). */
  has(key: Uint8Array | string): boolean {
    const input = CuckooSet.input;
    input[0] = 32; // Rust hashes a [u8; 32] as its length (u64 little-endian), then its bytes
    input.fill(0, 1, 8);
    if (typeof key === 'string') for (let i = 0; i < 32; i++) input[8 + i] = key.charCodeAt(i);
    else input.set(key.subarray(0, 32), 8);
    const h = CuckooSet.h;
    sipHash24(this.key, input, 40, h);
    const fp = h.hi & 0xffff || 1; // 0 marks an empty slot
    const i1 = (h.lo & this.mask) >>> 0;
    if (this.bucketHas(i1, fp)) return true;
    const i2 = (i1 ^ (this.alt.of(fp) & this.mask)) >>> 0;
    return this.bucketHas(i2, fp);
  }

  private bucketHas(bucket: number, fp: number): boolean {
    const d = this.data;
    const end = bucket * BUCKET_BYTES + BUCKET_BYTES;
    for (let o = bucket * BUCKET_BYTES; o < end; o += 2) if ((d[o]! | (d[o + 1]! << 8)) === fp) return true;
    return false;
  }
}

// Seeded PRNG (xoshiro128**): 32-bit integer arithmetic only, so runs are reproducible on any
// machine and fast in V8. Never Math.random: the simulator's output is a pure function of its seed.
import { createHash } from 'node:crypto';

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(words: Uint32Array) {
    [this.a, this.b, this.c, this.d] = [words[0]!, words[1]!, words[2]!, words[3]!];
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1; // the all-zero state is a fixed point
  }

  u32(): number {
    const r = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return r;
  }

  /** Uniform in [0, 1) with 32 bits of precision. */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty list');
    return items[this.int(items.length)]!;
  }

  /** Picks a key of `weights` with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    let entries = weightCache.get(weights) as [K, number][] | undefined;
    if (!entries) {
      entries = Object.entries(weights) as [K, number][];
      weightCache.set(weights, entries);
    }
    let total = 0;
    for (const [, w] of entries) total += w;
    let x = this.float() * total;
    for (const [k, w] of entries) {
      if (x < w) return k;
      x -= w;
    }
    return entries[entries.length - 1]![0];
  }

  bytes(n: number): Buffer {
    const out = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i += 4) {
      const v = this.u32();
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (v >>> (8 * j)) & 0xff;
    }
    return out;
  }
}

const weightCache = new WeakMap<object, [string, number][]>();

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Bytes that identify a seed plus labels (a stream), e.g. `streamBytes(7, 'leaders', 3)`. */
export function streamBytes(seed: number, ...labels: (string | number | bigint)[]): Buffer {
  return createHash('sha256')
    .update(['slotstream-sim', seed, ...labels].join('/'))
    .digest();
}

/** An independent generator for one purpose, so streams never disturb each other. */
export function rngFor(seed: number, ...labels: (string | number | bigint)[]): Rng {
  const h = streamBytes(seed, ...labels);
  return new Rng(new Uint32Array(h.buffer, h.byteOffset, 4).slice());
}

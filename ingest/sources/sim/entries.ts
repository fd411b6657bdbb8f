// A block's PoH entries for the simulator: 64 ticks per slot (entries without transactions) with the
// block's transactions in entries of 1 to 8 between them, chained by sha256 from the parent's
// blockhash; the last tick's hash is the blockhash, as on Solana.
//
// Not real PoH: each entry is one sha256 over (previous hash, num_hashes, mixin) instead of num_hashes
// iterations (~800,000 hashes per slot), and the mixin is the entry's transaction positions, not their
// signatures, so fast and signed runs keep the same chain (their signatures differ).
import { createHash } from 'node:crypto';
import type { EntryEvent } from '../../../schemas/codec.js';
import { rngFor } from './rng.js';

export const TICKS_PER_SLOT = 64;
/** Hashes per tick on mainnet; a tick's num_hashes is this minus the hashes its transaction entries took. */
export const HASHES_PER_TICK = 12_500;

export function blockEntries(seed: number, slot: bigint, parentHash: Buffer, txCount: number): EntryEvent[] {
  const rng = rngFor(seed, 'entries', slot);
  const sizes: number[] = [];
  for (let left = txCount; left > 0;) {
    const n = Math.min(left, 1 + rng.int(8));
    sizes.push(n);
    left -= n;
  }
  const out: EntryEvent[] = [];
  let hash = parentHash;
  let nextTx = 0;
  let s = 0;
  const push = (numHashes: number, count: number): void => {
    const mix = Buffer.alloc(16);
    mix.writeUInt32LE(nextTx, 0);
    mix.writeUInt32LE(count, 4);
    const n = Buffer.alloc(8);
    n.writeBigUInt64LE(BigInt(numHashes));
    hash = createHash('sha256')
      .update(hash)
      .update(n)
      .update(count > 0 ? mix : Buffer.alloc(0))
      .digest();
    out.push({
      slot,
      index: BigInt(out.length),
      numHashes: BigInt(numHashes),
      hash,
      executedTransactionCount: BigInt(count),
      startingTransactionIndex: BigInt(nextTx),
    });
    nextTx += count;
  };
  for (let t = 0; t < TICKS_PER_SLOT; t++) {
    // Spread the transaction entries evenly over the ticks.
    const upTo = Math.ceil(((t + 1) * sizes.length) / TICKS_PER_SLOT);
    let used = 0;
    for (; s < upTo; s++) {
      const h = 1 + rng.int(500);
      used += h;
      push(h, sizes[s]!);
    }
    push(Math.max(1, HASHES_PER_TICK - used), 0);
  }
  return out;
}

// Validators and the stake-weighted leader schedule. Stakes are fixed for a run (the simulator has
// no staking), so every epoch's schedule draws from the same weights with its own seeded stream.
import { rngFor } from './rng.js';

export const SLOTS_PER_LEADER = 4;

/**
 * Stake per validator in whole SOL: a heavy tail like mainnet (a few large, many small), at least
 * 1,000 SOL each. Pure function of (seed, count).
 */
export function validatorStakes(seed: number, count: number): number[] {
  if (!Number.isInteger(count) || count < 1) throw new Error(`validators must be a positive integer, got ${count}`);
  const rng = rngFor(seed, 'stakes');
  const stakes: number[] = [];
  for (let i = 0; i < count; i++) {
    const u = rng.float();
    stakes.push(1000 + Math.floor(20_000 / Math.pow(1 - 0.98 * u, 1.6)));
  }
  return stakes;
}

/**
 * For each run of SLOTS_PER_LEADER slots of the epoch, the index of its leader, drawn with probability
 * proportional to stake. Pure function of (seed, epoch, stakes, slotsPerEpoch).
 */
export function leaderSchedule(seed: number, epoch: number, stakes: readonly number[], slotsPerEpoch: number): Uint32Array {
  const runs = Math.ceil(slotsPerEpoch / SLOTS_PER_LEADER);
  const cumulative = new Float64Array(stakes.length);
  let total = 0;
  stakes.forEach((s, i) => {
    total += s;
    cumulative[i] = total;
  });
  const rng = rngFor(seed, 'leaders', epoch);
  const out = new Uint32Array(runs);
  for (let r = 0; r < runs; r++) {
    const x = rng.float() * total;
    let lo = 0;
    let hi = stakes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    out[r] = lo;
  }
  return out;
}

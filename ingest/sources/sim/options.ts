// Simulator options and their validation (the CLI maps its config onto these).
import type { VoteSelection } from '../shared/votes.js';
import { PumpMixError, validatePumpMix, type PumpMix } from './pump-mix.js';
export interface SimOptions {
  /** Same seed, same chain (byte for byte). */
  seed: number;
  /** Wall-clock pacing per slot in ms; 0 = as fast as possible. Chain time is always 400 ms per slot. */
  slotMs: number;
  /** Transactions per second of chain time (about two thirds votes). */
  tps: number;
  /** Share of slots whose leader produces no block. */
  skipRate: number;
  slotsPerEpoch: number;
  validators: number;
  /** Seeded random bytes instead of ed25519 signatures (benchmarks; the source's notes say so). */
  fast: boolean;
  /** Stop after this many slots from genesis (0 = forever). */
  maxSlots: number;
  /** Publish each block's PoH entries (topic entries; default on). The chain (blockhashes) is the same
   * either way. */
  entries: boolean;
  /** Share of slots that become a dead fork at processed (0..0.5; default 0.01). Drawn from its own seeded
   * stream: 0 leaves the chain exactly as without dead forks. */
  deadRate: number;
  /** exclude: the chain is built as always (same blockhashes and signatures) and its votes are dropped
   * before they are handed over (ingest/sources/shared/votes.ts); absent: include. */
  votes?: VoteSelection;
  /** Shares of the October 2026 pump shapes (pump-mix.ts); absent: DEFAULT_PUMP_MIX (today's). */
  pumpMix?: PumpMix;
}

export const DEFAULT_SIM_OPTIONS: SimOptions = {
  seed: 1,
  slotMs: 400,
  tps: 200,
  skipRate: 0.05,
  slotsPerEpoch: 8192,
  validators: 50,
  fast: false,
  maxSlots: 0,
  entries: true,
  deadRate: 0.01,
};

export class SimOptionError extends Error {}

export function validateSimOptions(o: SimOptions): SimOptions {
  const int = (name: keyof SimOptions, min: number, max = Number.MAX_SAFE_INTEGER): void => {
    const v = o[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw new SimOptionError(`simulator option ${name} must be an integer in [${min}, ${max}], got ${String(v)}`);
    }
  };
  int('seed', 0);
  int('slotMs', 0);
  int('tps', 0, 1_000_000);
  int('slotsPerEpoch', 32, 10_000_000);
  int('validators', 1, 5000);
  int('maxSlots', 0);
  if (typeof o.skipRate !== 'number' || !(o.skipRate >= 0 && o.skipRate <= 0.9)) {
    throw new SimOptionError(`simulator option skipRate must be a number in [0, 0.9], got ${String(o.skipRate)}`);
  }
  if (typeof o.deadRate !== 'number' || !(o.deadRate >= 0 && o.deadRate <= 0.5)) {
    throw new SimOptionError(`simulator option deadRate must be a number in [0, 0.5], got ${String(o.deadRate)}`);
  }
  if (typeof o.entries !== 'boolean') {
    throw new SimOptionError(`simulator option entries must be a boolean, got ${String(o.entries)}`);
  }
  if (o.votes !== undefined && o.votes !== 'include' && o.votes !== 'exclude') {
    throw new SimOptionError(`simulator option votes must be include or exclude, got ${String(o.votes)}`);
  }
  if (o.pumpMix !== undefined) {
    try {
      validatePumpMix(o.pumpMix);
    } catch (e) {
      if (e instanceof PumpMixError) throw new SimOptionError(`simulator option ${e.message}`);
      throw e;
    }
  }
  if (typeof o.fast !== 'boolean') throw new SimOptionError(`simulator option fast must be a boolean, got ${String(o.fast)}`);
  return o;
}

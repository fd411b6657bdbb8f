// Simulator options: their type, their section of the config (flag, environment variable, default, bounds,
// help: declared once, here) and the validation of options handed over in code, against the same bounds.
import { ConfigError, defaultsOf, defineSection, opt, type OptionSpec, type Role, type ValuesOf } from '../../../platform/options.js';
import type { VoteSelection } from '../shared/votes.js';
import { parsePumpMix, PumpMixError, validatePumpMix, type PumpMix } from './pump-mix.js';
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

const INGEST: readonly Role[] = ['ingest', 'all'];

export const SIM_OPTIONS = {
  seed: opt({
    kind: 'int',
    env: 'SIM_SEED',
    default: 1,
    min: 0,
    roles: INGEST,
    help: 'Simulator: seed; the same seed gives the same chain.',
  }),
  slotMs: opt({
    kind: 'int',
    env: 'SIM_SLOT_MS',
    default: 400,
    min: 0,
    roles: INGEST,
    help: 'Simulator: slot duration in ms; 0 = as fast as possible.',
  }),
  tps: opt({
    kind: 'int',
    env: 'SIM_TPS',
    default: 200,
    min: 0,
    max: 1_000_000,
    roles: INGEST,
    help: 'Simulator: transactions per second of chain time.',
  }),
  skipRate: opt({
    kind: 'number',
    env: 'SIM_SKIP_RATE',
    default: 0.05,
    min: 0,
    max: 0.9,
    roles: INGEST,
    help: 'Simulator: share of skipped slots.',
  }),
  slotsPerEpoch: opt({
    kind: 'int',
    env: 'SIM_SLOTS_PER_EPOCH',
    default: 8192,
    min: 32,
    max: 432000,
    roles: INGEST,
    help: 'Simulator: slots per epoch (432000 as on mainnet).',
  }),
  validators: opt({
    kind: 'int',
    env: 'SIM_VALIDATORS',
    default: 50,
    min: 1,
    max: 5000,
    roles: INGEST,
    help: 'Simulator: number of validators.',
  }),
  fast: opt({
    kind: 'bool',
    env: 'SIM_FAST',
    default: false,
    roles: INGEST,
    help: 'Simulator: random unsigned signatures instead of ed25519 (benchmarks only; logged).',
  }),
  maxSlots: opt({
    kind: 'int',
    env: 'SIM_MAX_SLOTS',
    default: 0,
    min: 0,
    roles: INGEST,
    help: 'Simulator: stop after this many slots (0 = run forever).',
  }),
  simEntries: opt({
    kind: 'bool',
    env: 'SIM_ENTRIES',
    default: true,
    roles: INGEST,
    help: "Simulator: publish each block's PoH entries to <prefix>.entries.v1 (--sim-entries false: none; blockhashes stay the same).",
  }),
  deadRate: opt({
    kind: 'number',
    env: 'SIM_DEAD_RATE',
    default: 0.01,
    min: 0,
    max: 0.5,
    roles: INGEST,
    help: 'Simulator: share of slots that become a dead fork at processed instead of a block (0 = none).',
  }),
  simPumpMix: opt({
    kind: 'string',
    env: 'SIM_PUMP_MIX',
    default: '',
    roles: INGEST,
    help: "Simulator: shares of the October 2026 pump shapes, e.g. 'curve_v3=0.6,pool_v2=0.6,sweep=0.03,graduate=0.004' (v3 curve trades, PumpSwap v2 trades, fee sweeps, synthetic-migration buys; keys left out and '' keep today's mix, ingest/sources/sim/pump-mix.ts).",
  }),
};

/** --sim-pump-mix's text as shares; a mistake is a config error naming the option. */
function pumpMixOption(text: string): PumpMix {
  try {
    return parsePumpMix(text);
  } catch (e) {
    if (e instanceof PumpMixError) throw new ConfigError(`--sim-pump-mix / SIM_PUMP_MIX: ${e.message}`);
    throw e;
  }
}

/** The simulator's options from the config (votes come from the ingest's --votes: ingest/options.ts). */
export const SIM_SECTION = defineSection(SIM_OPTIONS, (c: ValuesOf<typeof SIM_OPTIONS>): Omit<SimOptions, 'votes'> => ({
  seed: c.seed,
  slotMs: c.slotMs,
  tps: c.tps,
  skipRate: c.skipRate,
  slotsPerEpoch: c.slotsPerEpoch,
  validators: c.validators,
  fast: c.fast,
  maxSlots: c.maxSlots,
  entries: c.simEntries,
  deadRate: c.deadRate,
  pumpMix: pumpMixOption(c.simPumpMix),
}));

export const DEFAULT_SIM_OPTIONS: SimOptions = SIM_SECTION.value(defaultsOf(SIM_OPTIONS));

/** Options handed over in code are checked against the section's bounds (a config mistake: exit 2 at the CLI). */
export function validateSimOptions(o: SimOptions): SimOptions {
  const bounds = (spec: OptionSpec) => [spec.min ?? 0, spec.max ?? Number.MAX_SAFE_INTEGER] as const;
  const int = (name: 'seed' | 'slotMs' | 'tps' | 'slotsPerEpoch' | 'validators' | 'maxSlots'): void => {
    const v = o[name];
    const [min, max] = bounds(SIM_OPTIONS[name]);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw new ConfigError(`simulator option ${name} must be an integer in [${min}, ${max}], got ${String(v)}`);
    }
  };
  const share = (name: 'skipRate' | 'deadRate'): void => {
    const v = o[name];
    const [min, max] = bounds(SIM_OPTIONS[name]);
    if (typeof v !== 'number' || !(v >= min && v <= max)) {
      throw new ConfigError(`simulator option ${name} must be a number in [${min}, ${max}], got ${String(v)}`);
    }
  };
  for (const name of ['seed', 'slotMs', 'tps', 'slotsPerEpoch', 'validators', 'maxSlots'] as const) int(name);
  share('skipRate');
  share('deadRate');
  if (typeof o.entries !== 'boolean') {
    throw new ConfigError(`simulator option entries must be a boolean, got ${String(o.entries)}`);
  }
  if (o.votes !== undefined && o.votes !== 'include' && o.votes !== 'exclude') {
    throw new ConfigError(`simulator option votes must be include or exclude, got ${String(o.votes)}`);
  }
  if (o.pumpMix !== undefined) {
    try {
      validatePumpMix(o.pumpMix);
    } catch (e) {
      if (e instanceof PumpMixError) throw new ConfigError(`simulator option ${e.message}`);
      throw e;
    }
  }
  if (typeof o.fast !== 'boolean') throw new ConfigError(`simulator option fast must be a boolean, got ${String(o.fast)}`);
  return o;
}

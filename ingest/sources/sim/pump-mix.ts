// How the simulator's pump traffic uses the October 2026 instructions (issue 34, item 5): shares an operator sets
// with `--sim-pump-mix` / SIM_PUMP_MIX (`curve_v3=0.6,pool_v2=0.6,sweep=0.03,graduate=0.004,multi_hop=0.04,
// usdc_quote=0.05,coin_quote=0.05`; keys left out keep
// their default). Defaults are today's mix as far as anything public says: bots moved to the v3 / PumpSwap v2 trades
// (pump-2026-10.md §5, third-party), so they lead; the older forms keep the rest. None of these shares is measured
// anywhere public.
export interface PumpMix {
  /** Share of bonding-curve buys and sells sent as `buy_v3` / `buy_exact_quote_in_v3` / `sell_v3` (fees kept on the curve). */
  curveV3: number;
  /** Share of PumpSwap buys and sells sent as `buy_v2` / `buy_exact_quote_in_v2` / `sell_v2` (fees kept in the pool). */
  poolV2: number;
  /** Share of pump transactions that are permissionless fee sweeps (Pump and PumpSwap `sweep_protocol_fee` / `sweep_creator_fee`). */
  sweep: number;
  /** Share of curve buys that are graduation buys: a v3 buy larger than what the curve has left (synthetic migration). */
  graduate: number;
  /**
   * Share of pump trades sent as PumpSwap `multi_hop_swap` routes: SOL -> a pump coin -> a coin quoted in it (and
   * back), each curve hop a `multi_hop_curve_swap` CPI into pump, the SOL end on the quote coin's pool once it migrated (pump-2026-10.md §1.3, §1.7).
   */
  multiHop: number;
  /**
   * Share of new coins, and of curve trades, quoted in USDC (v3 trades paid in USDC; pump-2026-10.md §4). A USDC
   * trade drawn while no USDC coin trades launches one instead, so the share of creates is a floor.
   */
  usdcQuote: number;
  /** Share of new coins quoted in another pump coin (depth 1; traded through multi-hop routes, which launch one likewise). */
  coinQuote: number;
}

export const DEFAULT_PUMP_MIX: Readonly<PumpMix> = Object.freeze({
  curveV3: 0.6,
  poolV2: 0.6,
  sweep: 0.03,
  graduate: 0.004,
  multiHop: 0.04,
  usdcQuote: 0.05,
  coinQuote: 0.05,
});

/** The mix before issue 34: none of the October 2026 shapes (what the older traffic tests pin). */
export const PRE_2026_10_PUMP_MIX: Readonly<PumpMix> = Object.freeze({
  curveV3: 0,
  poolV2: 0,
  sweep: 0,
  graduate: 0,
  multiHop: 0,
  usdcQuote: 0,
  coinQuote: 0,
});

const KEYS: Record<string, keyof PumpMix> = {
  curve_v3: 'curveV3',
  pool_v2: 'poolV2',
  sweep: 'sweep',
  graduate: 'graduate',
  multi_hop: 'multiHop',
  usdc_quote: 'usdcQuote',
  coin_quote: 'coinQuote',
};
/**
 * Upper bounds: sweeps, graduation buys and routes each take pump traffic away from the plain trades, at most a
 * quarter; each quote at most half of new coins (so the two together at most all of them).
 */
const MAX: Record<keyof PumpMix, number> = {
  curveV3: 1,
  poolV2: 1,
  sweep: 0.25,
  graduate: 0.25,
  multiHop: 0.25,
  usdcQuote: 0.5,
  coinQuote: 0.5,
};

export class PumpMixError extends Error {}

export function validatePumpMix(m: PumpMix): PumpMix {
  for (const k of Object.keys(m)) if (!(k in MAX)) throw new PumpMixError(`pump mix: unknown share ${k}`);
  for (const k of Object.keys(MAX) as (keyof PumpMix)[]) {
    const v = m[k];
    if (typeof v !== 'number' || !(v >= 0 && v <= MAX[k]))
      throw new PumpMixError(`pump mix: ${k} must be a number in [0, ${MAX[k]}], got ${String(v)}`);
  }
  return m;
}

/** `curve_v3=0.6,pool_v2=0.5` (keys left out keep their default; '' is the default mix). Refuses unknown keys and bad numbers, naming them. */
export function parsePumpMix(text: string): PumpMix {
  const m: PumpMix = { ...DEFAULT_PUMP_MIX };
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq).trim();
    const field = KEYS[key];
    if (field === undefined)
      throw new PumpMixError(`pump mix: unknown share ${JSON.stringify(key)} (known: ${Object.keys(KEYS).join(', ')})`);
    const raw = eq < 0 ? '' : part.slice(eq + 1).trim();
    const v = raw === '' ? NaN : Number(raw);
    if (!Number.isFinite(v)) throw new PumpMixError(`pump mix: ${key}=${JSON.stringify(raw)} is not a number`);
    m[field] = v;
  }
  return validatePumpMix(m);
}

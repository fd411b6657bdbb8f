import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../cli/config.js';
import { createSource } from './run.js';
import { DEFAULT_SIM_OPTIONS } from './sources/sim/index.js';
import { DEFAULT_PUMP_MIX } from './sources/sim/pump-mix.js';
import { ingestSection } from '../cli/config-sections.js';

const log = pino({ level: 'silent' });

describe('createSource (sim)', () => {
  it("the CLI defaults of the simulator are the simulator's own", () => {
    const c = makeConfig('ingest');
    const { seed, slotMs, tps, skipRate, slotsPerEpoch, validators, fast, maxSlots, simEntries, deadRate } = c;
    expect({
      seed,
      slotMs,
      tps,
      skipRate,
      slotsPerEpoch,
      validators,
      fast,
      maxSlots,
      entries: simEntries,
      deadRate,
      pumpMix: DEFAULT_PUMP_MIX, // --sim-pump-mix '' is the simulator's own default mix
    }).toEqual(DEFAULT_SIM_OPTIONS);
    expect(ingestSection(c).sim).toEqual(DEFAULT_SIM_OPTIONS);
  });

  it('passes entries and the dead-fork rate on', () => {
    expect(createSource(ingestSection(makeConfig('ingest')), log).notes[0]).toMatch(/dead-fork rate 0\.01, entries published/);
    expect(createSource(ingestSection(makeConfig('ingest', { simEntries: false, deadRate: 0.2 })), log).notes[0]).toMatch(
      /dead-fork rate 0\.2, no entries/,
    );
  });

  it('passes --sim-pump-mix on (keys left out keep the default) and refuses a bad one, naming the option', () => {
    const notes = (mix: string) => createSource(ingestSection(makeConfig('ingest', { simPumpMix: mix })), log).notes.join('\n');
    expect(notes('')).toMatch(/v3 curve trades 0\.6, PumpSwap v2 trades 0\.6, sweeps 0\.03, synthetic-migration buys 0\.004/);
    expect(notes('curve_v3=0.2,sweep=0')).toMatch(/v3 curve trades 0\.2, PumpSwap v2 trades 0\.6, sweeps 0,/);
    expect(() => notes('curve_v4=1')).toThrow(/--sim-pump-mix \/ SIM_PUMP_MIX: pump mix: unknown share "curve_v4"/);
  });
});

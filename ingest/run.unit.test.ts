import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../cli/config.js';
import { createSource } from './run.js';
import { DEFAULT_SIM_OPTIONS } from './sources/sim/index.js';
import { ingestSection } from '../cli/config-sections.js';

const log = pino({ level: 'silent' });

describe('createSource (sim)', () => {
  it("the CLI defaults of the simulator are the simulator's own", () => {
    const c = makeConfig('ingest');
    const { seed, slotMs, tps, skipRate, slotsPerEpoch, validators, fast, maxSlots, simEntries, deadRate } = c;
    expect({ seed, slotMs, tps, skipRate, slotsPerEpoch, validators, fast, maxSlots, entries: simEntries, deadRate }).toEqual(
      DEFAULT_SIM_OPTIONS,
    );
  });

  it('passes entries and the dead-fork rate on', () => {
    expect(createSource(ingestSection(makeConfig('ingest')), log).notes[0]).toMatch(/dead-fork rate 0\.01, entries published/);
    expect(createSource(ingestSection(makeConfig('ingest', { simEntries: false, deadRate: 0.2 })), log).notes[0]).toMatch(
      /dead-fork rate 0\.2, no entries/,
    );
  });
});

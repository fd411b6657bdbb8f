import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../../cli/exit-codes.js';
import { parseConfig } from '../../../cli/config.js';
import { ingestSection } from '../../../cli/config-sections.js';
import { DEFAULT_SIM_OPTIONS, SIM_OPTIONS, validateSimOptions } from './options.js';

describe('the simulator section', () => {
  it('its defaults are the options the CLI builds without flags', () => {
    expect(ingestSection(parseConfig('ingest', [], {}).config).sim).toEqual(DEFAULT_SIM_OPTIONS);
    expect(DEFAULT_SIM_OPTIONS).toMatchObject({ seed: 1, tps: 200, slotsPerEpoch: 8192, entries: true, deadRate: 0.01 });
  });

  it('options handed over in code are held to the bounds the flags are, as a config error (exit 2)', () => {
    const { max } = SIM_OPTIONS.slotsPerEpoch;
    expect(() => parseConfig('ingest', ['--slots-per-epoch', String(max! + 1)], {})).toThrow(/at most 432000/);
    let err: unknown;
    try {
      validateSimOptions({ ...DEFAULT_SIM_OPTIONS, slotsPerEpoch: max! + 1 });
    } catch (e) {
      err = e;
    }
    expect((err as Error).message).toBe('simulator option slotsPerEpoch must be an integer in [32, 432000], got 432001');
    expect(exitCodeOf(err)).toBe(2);
    expect(() => validateSimOptions({ ...DEFAULT_SIM_OPTIONS, skipRate: 0.95 })).toThrow(
      'simulator option skipRate must be a number in [0, 0.9], got 0.95',
    );
    expect(() => validateSimOptions({ ...DEFAULT_SIM_OPTIONS, tps: 1_000_001 })).toThrow(/tps must be an integer in \[0, 1000000\]/);
    expect(validateSimOptions({ ...DEFAULT_SIM_OPTIONS })).toEqual(DEFAULT_SIM_OPTIONS);
  });
});

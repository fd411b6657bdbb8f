import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';
import { SlotstreamError } from '../schemas/errors.js';
import { exitCodeOf } from './exit-codes.js';

describe('exitCodeOf', () => {
  it('maps config errors to 2 by their catalogue code, and nothing else', () => {
    expect(exitCodeOf(new ConfigError('bad'))).toBe(2);
    expect(exitCodeOf(new SlotstreamError('SLOTSTREAM_WIRE_DECODE', 'x', {}))).toBeUndefined();
    expect(exitCodeOf(new Error('bug'))).toBeUndefined();
  });

  it('an unknown flag is SLOTSTREAM_CONFIG_UNKNOWN_OPTION naming the flag', () => {
    let err: unknown;
    try {
      parseConfig('api', ['--no-such-flag', 'x']);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(err).toMatchObject({ code: 'SLOTSTREAM_CONFIG_UNKNOWN_OPTION', context: { option: '--no-such-flag' } });
    expect(exitCodeOf(err)).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError, helpText, makeConfig, parseConfig } from './config.js';

describe('parseConfig', () => {
  it('gives documented defaults', () => {
    const { config } = parseConfig('all', [], {});
    expect(config.grpcPort).toBe(10000);
    expect(config.rpcPort).toBe(8899);
    expect(config.kafkaBrokers).toEqual([]);
    expect(config.source).toBe('sim');
    expect(config.role).toBe('all');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads env, and flags win over env', () => {
    const env = { KAFKA_BROKERS: 'a:1, b:2', GRPC_PORT: '1234' };
    expect(parseConfig('api', [], env).config.kafkaBrokers).toEqual(['a:1', 'b:2']);
    expect(parseConfig('api', ['--grpc-port', '99'], env).config.grpcPort).toBe(99);
    expect(parseConfig('api', ['--grpc-port=98'], env).config.grpcPort).toBe(98);
  });

  it('takes bool flags alone or with a value, and positionals', () => {
    const p = parseConfig('ingest', ['--fast', '--strict=false', 'extra'], {});
    expect(p.config.fast).toBe(true);
    expect(p.config.strict).toBe(false);
    expect(p.positionals).toEqual(['extra']);
  });

  it('rejects unknown options, naming them', () => {
    expect(() => parseConfig('api', ['--grpc-prot', '1'], {})).toThrow(/unknown option --grpc-prot/);
  });

  it('rejects options of another role', () => {
    expect(() => parseConfig('api', ['--seed', '3'], {})).toThrow(/--seed does not apply to role api/);
  });

  it('rejects malformed values, naming the option and the value', () => {
    expect(() => parseConfig('api', ['--grpc-port', 'abc'], {})).toThrow(/option --grpc-port: must be a number \(got "abc"\)/);
    expect(() => parseConfig('api', ['--grpc-port', '70000'], {})).toThrow(/at most 65535/);
    expect(() => parseConfig('ingest', ['--source', 'ftp'], {})).toThrow(/must be one of sim, file, yellowstone, rpc/);
    expect(() => parseConfig('api', [], { GRPC_PORT: '1.5' })).toThrow(/environment GRPC_PORT: must be a whole number/);
    expect(() => parseConfig('api', ['--grpc-port'], {})).toThrow(/needs a value/);
    expect(() => parseConfig('nope', [], {})).toThrow(ConfigError);
  });

  it('ignores env variables of options the role does not have', () => {
    expect(() => parseConfig('api', [], { SIM_SEED: 'x' })).not.toThrow();
  });

  it('makeConfig rejects unknown overrides', () => {
    expect(() => makeConfig('all', { nope: 1 } as never)).toThrow(/unknown option nope/);
    expect(makeConfig('all', { tps: 7 }).tps).toBe(7);
  });

  it('takes the log format from LOG_FORMAT or --log-format, auto by default, and rejects others', () => {
    expect(parseConfig('all', [], {}).config.logFormat).toBe('auto');
    expect(parseConfig('api', [], { LOG_FORMAT: 'json' }).config.logFormat).toBe('json');
    expect(parseConfig('kafka', ['--log-format', 'pretty'], { LOG_FORMAT: 'json' }).config.logFormat).toBe('pretty');
    expect(() => parseConfig('all', ['--log-format', 'text'], {})).toThrow(
      /option --log-format: must be one of auto, json, pretty \(got "text"\)/,
    );
    expect(helpText('ingest')).toContain('--log-format (LOG_FORMAT, default "auto")');
  });

  it('simulator entries and dead forks: on by default, switched by flag or env', () => {
    const d = parseConfig('ingest', [], {}).config;
    expect([d.simEntries, d.deadRate]).toEqual([true, 0.01]);
    const f = parseConfig('ingest', ['--sim-entries', 'false', '--dead-rate', '0'], { SIM_ENTRIES: 'true', SIM_DEAD_RATE: '0.2' }).config;
    expect([f.simEntries, f.deadRate]).toEqual([false, 0]);
    const e = parseConfig('all', [], { SIM_ENTRIES: 'no', SIM_DEAD_RATE: '0.2' }).config;
    expect([e.simEntries, e.deadRate]).toEqual([false, 0.2]);
    expect(() => parseConfig('ingest', ['--dead-rate', '0.7'], {})).toThrow(/option --dead-rate: must be at most 0.5/);
    expect(helpText('ingest')).toContain('--sim-entries (SIM_ENTRIES, default "true")');
    expect(helpText('ingest')).toContain('--dead-rate (SIM_DEAD_RATE, default "0.01")');
    expect(helpText('api')).not.toContain('--dead-rate');
  });

  it('geyser.Geyser limits: defaults, env and flags, api roles only, unknown spellings rejected', () => {
    const d = parseConfig('api', [], {}).config;
    expect([d.geyserMaxFilters, d.geyserMaxKeys, d.geyserMaxMemcmpBytes, d.geyserMaxFilterNameBytes, d.geyserMaxDataSlices]).toEqual([
      100, 10000, 128, 128, 16,
    ]);
    const c = parseConfig('all', ['--geyser-max-filters', '1', '--geyser-max-data-slices=0'], {
      GEYSER_MAX_KEYS: '10',
      GEYSER_MAX_MEMCMP_BYTES: '64',
      GEYSER_MAX_FILTER_NAME_BYTES: '32',
    }).config;
    expect([c.geyserMaxFilters, c.geyserMaxKeys, c.geyserMaxMemcmpBytes, c.geyserMaxFilterNameBytes, c.geyserMaxDataSlices]).toEqual([
      1, 10, 64, 32, 0,
    ]);
    expect(() => parseConfig('api', ['--geyser-max-filters', '0'], {})).toThrow(/--geyser-max-filters.*at least 1/);
    expect(() => parseConfig('ingest', ['--geyser-max-keys', '5'], {})).toThrow(/does not apply to role ingest/);
    expect(() => parseConfig('api', ['--geyser-max-filter', '5'], {})).toThrow(/unknown option --geyser-max-filter/);
  });

  it('--max-replays: default 8, env and flag, at least 1, api roles only, in the help', () => {
    expect(parseConfig('api', [], {}).config.maxReplays).toBe(8);
    expect(parseConfig('all', ['--max-replays', '1'], {}).config.maxReplays).toBe(1);
    expect(parseConfig('api', [], { LIVE_MAX_REPLAYS: '3' }).config.maxReplays).toBe(3);
    expect(() => parseConfig('api', ['--max-replays', '0'], {})).toThrow(/option --max-replays: must be at least 1/);
    expect(() => parseConfig('ingest', ['--max-replays', '2'], {})).toThrow(/does not apply to role ingest/);
    expect(helpText('api')).toContain('--max-replays (LIVE_MAX_REPLAYS, default "8")');
  });

  it('help lists every option of the role with its env variable', () => {
    const text = helpText('api');
    expect(text).toContain('--grpc-port (GRPC_PORT, default "10000")');
    expect(text).not.toContain('--seed');
  });
});

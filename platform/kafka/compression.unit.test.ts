import { describe, expect, it } from 'vitest';
import { compressionConfig, kafkaCompression } from './compression.js';

describe('kafkaCompression', () => {
  it('accepts the codecs librdkafka has, with their levels', () => {
    expect(kafkaCompression('lz4')).toEqual({ codec: 'lz4', level: -1 });
    expect(kafkaCompression('zstd', 3)).toEqual({ codec: 'zstd', level: 3 });
    expect(kafkaCompression('gzip', 9)).toEqual({ codec: 'gzip', level: 9 });
  });

  it('rejects an unknown codec naming it and the known ones', () => {
    expect(() => kafkaCompression('brotli')).toThrow(/codec "brotli" is unknown \(use one of none, lz4, zstd, gzip, snappy\)/);
  });

  it('rejects a level the codec does not have', () => {
    expect(() => kafkaCompression('snappy', 3)).toThrow(/snappy has no levels \(got level 3/);
    expect(() => kafkaCompression('zstd', 0)).toThrow(/level 0 is out of range for zstd \(1-12/);
    expect(() => kafkaCompression('gzip', 10)).toThrow(/level 10 is out of range for gzip \(0-9/);
  });
});

describe('compressionConfig', () => {
  it('maps onto librdkafka settings (no level: zstd at 1, as measured; the others at their own default)', () => {
    expect(compressionConfig({ codec: 'zstd', level: -1 })).toEqual({ 'compression.codec': 'zstd', 'compression.level': 1 });
    expect(compressionConfig(undefined)).toEqual({ 'compression.codec': 'none' });
    expect(compressionConfig({ codec: 'lz4', level: -1 })).toEqual({ 'compression.codec': 'lz4' });
    expect(compressionConfig({ codec: 'zstd', level: 3 })).toEqual({ 'compression.codec': 'zstd', 'compression.level': 3 });
  });
});

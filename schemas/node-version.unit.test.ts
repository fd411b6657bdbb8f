import { describe, expect, it } from 'vitest';
import { upstreamFromRpcVersion, upstreamFromYellowstoneVersion } from './node-version.js';

describe('upstreamFromRpcVersion (Agave getVersion)', () => {
  it('reads solana-core and feature-set (a number or an exact bigint)', () => {
    expect(upstreamFromRpcVersion({ 'solana-core': '4.2.3', 'feature-set': 3294202862 })).toEqual({
      solanaCore: '4.2.3',
      featureSet: 3294202862,
    });
    expect(upstreamFromRpcVersion({ 'solana-core': '2.3.13', 'feature-set': 2255652435n })).toEqual({
      solanaCore: '2.3.13',
      featureSet: 2255652435,
    });
    expect(upstreamFromRpcVersion({ 'solana-core': '4.0.0-beta.2' })).toEqual({ solanaCore: '4.0.0-beta.2' });
  });
  it('leaves out what it cannot read rather than inventing it', () => {
    expect(upstreamFromRpcVersion({ 'solana-core': '4.2.3', 'feature-set': -1 })).toEqual({ solanaCore: '4.2.3' });
    expect(upstreamFromRpcVersion({ 'solana-core': '4.2.3', 'feature-set': 2 ** 32 })).toEqual({ solanaCore: '4.2.3' });
    for (const bad of [null, 'x', {}, { 'solana-core': 4 }, { 'solana-core': 'latest' }, { 'solana-core': `1.2.3${'x'.repeat(100)}` }]) {
      expect(upstreamFromRpcVersion(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});

describe('upstreamFromYellowstoneVersion (Yellowstone GetVersion)', () => {
  it('reads version.solana; no feature set', () => {
    const text = JSON.stringify({
      version: { package: 'yellowstone-grpc-geyser', version: '9.1.0+solana.3.0.6', proto: '9.1.0', solana: '3.0.6', git: 'abc' },
      extra: { hostname: 'h' },
    });
    expect(upstreamFromYellowstoneVersion(text)).toEqual({ solanaCore: '3.0.6' });
  });
  it('a GetVersion without a Solana version (slotstream, another server) or not JSON is unknown', () => {
    expect(upstreamFromYellowstoneVersion(JSON.stringify({ version: { package: 'slotstream', version: '0.1.0' } }))).toBeUndefined();
    expect(upstreamFromYellowstoneVersion('not json')).toBeUndefined();
  });
});

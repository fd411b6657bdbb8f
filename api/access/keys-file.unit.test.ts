import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INTERFACES, parseKeysFile } from './keys-file.js';

const hex = (key: string): string => createHash('sha256').update(key).digest('hex');
const file = (keys: unknown[]): string => JSON.stringify({ keys });

describe('parseKeysFile', () => {
  it('reads keys by hash with their interfaces (all by default) and limits (absent: unlimited)', () => {
    const [a, b] = parseKeysFile(
      file([
        { id: 'acme', sha256: hex('k1').toUpperCase(), interfaces: ['jsonrpc'], limits: { rpcPerSecond: 5, streams: 2 } },
        { id: 'beta', sha256: hex('k2'), note: 'trial' },
      ]),
      'keys.json',
    );
    expect(a!.id).toBe('acme');
    expect(a!.sha256.toString('hex')).toBe(hex('k1'));
    expect([...a!.interfaces]).toEqual(['jsonrpc']);
    expect(a!.limits).toEqual({ rpcPerSecond: 5, streams: 2 });
    expect([...b!.interfaces]).toEqual([...INTERFACES]);
    expect(b!.limits).toEqual({});
  });

  it.each([
    ['not json', '{', /keys\.json: not JSON/],
    ['no list', '{}', /must be an object with a "keys" list/],
    ['unknown top field', JSON.stringify({ keys: [], extra: 1 }), /unknown field "extra"/],
    ['unknown key field', file([{ id: 'a', sha256: hex('a'), limit: {} }]), /keys\[0\]: unknown field "limit"/],
    ['bad id', file([{ id: 'a b', sha256: hex('a') }]), /keys\[0\]\.id: must be/],
    ['bad hash', file([{ id: 'a', sha256: 'abc' }]), /keys\[0\]\.sha256: must be the 64 hex digits/],
    ['unknown interface', file([{ id: 'a', sha256: hex('a'), interfaces: ['rest'] }]), /unknown interface "rest"/],
    ['unknown limit', file([{ id: 'a', sha256: hex('a'), limits: { rps: 1 } }]), /keys\[0\]\.limits\.rps: unknown limit/],
    ['negative limit', file([{ id: 'a', sha256: hex('a'), limits: { streams: -1 } }]), /limits\.streams: must be a whole number >= 0/],
    ['fraction', file([{ id: 'a', sha256: hex('a'), limits: { streams: 1.5 } }]), /limits\.streams/],
    [
      'same id',
      file([
        { id: 'a', sha256: hex('a') },
        { id: 'a', sha256: hex('b') },
      ]),
      /keys\[1\]\.id: "a" appears twice/,
    ],
    [
      'same key',
      file([
        { id: 'a', sha256: hex('a') },
        { id: 'b', sha256: hex('a') },
      ]),
      /keys\[1\]\.sha256: the same key appears twice/,
    ],
  ])('refuses %s, naming the entry and field', (_what, text, error) => {
    expect(() => parseKeysFile(text, 'keys.json')).toThrow(error);
  });
});

import { describe, expect, it } from 'vitest';
import { Metadata } from '@grpc/grpc-js';
import { metadataKey, serviceOfPath } from './auth.js';

const md = (entries: [string, string][]): Metadata => {
  const m = new Metadata();
  for (const [k, v] of entries) m.add(k, v);
  return m;
};

describe('metadataKey', () => {
  it('reads one x-token (Yellowstone, LaserStream), else an authorization Bearer', () => {
    expect(metadataKey(md([['x-token', 'secret']]))).toBe('secret');
    expect(metadataKey(md([['authorization', 'Bearer k1']]))).toBe('k1');
    expect(
      metadataKey(
        md([
          ['x-token', 'a'],
          ['authorization', 'Bearer b'],
        ]),
      ),
    ).toBe('a');
    expect(metadataKey(md([]))).toBeUndefined();
    expect(metadataKey(md([['authorization', 'Basic zzz']]))).toBeUndefined();
    expect(
      metadataKey(
        md([
          ['x-token', 'a'],
          ['x-token', 'a'],
        ]),
      ),
    ).toBeUndefined(); // ambiguous: two keys
  });
});

describe('serviceOfPath', () => {
  it("names the service of a method path, which decides whether the host's access check applies", () => {
    expect(serviceOfPath('/stream.Stream/Subscribe')).toBe('stream.Stream');
    expect(serviceOfPath('/geyser.Geyser/GetSlot')).toBe('geyser.Geyser');
    expect(serviceOfPath('/grpc.health.v1.Health/Check')).toBe('grpc.health.v1.Health');
    expect(serviceOfPath('/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo')).toBe(
      'grpc.reflection.v1alpha.ServerReflection',
    );
    expect(serviceOfPath('')).toBe('');
    expect(serviceOfPath('/NoMethod')).toBe('');
  });
});

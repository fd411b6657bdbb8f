import { describe, expect, it } from 'vitest';
import { Metadata } from '@grpc/grpc-js';
import { serviceOfPath, tokenCheck } from './auth.js';

const md = (...tokens: string[]): Metadata => {
  const m = new Metadata();
  for (const t of tokens) m.add('x-token', t);
  return m;
};

describe('tokenCheck', () => {
  it('accepts everything without a configured token', () => {
    expect(tokenCheck(undefined)(md())).toBe(true);
    expect(tokenCheck('')(md('x'))).toBe(true);
  });

  it('accepts exactly the configured token', () => {
    const check = tokenCheck('secret');
    expect(check(md('secret'))).toBe(true);
    expect(check(md())).toBe(false);
    expect(check(md('secret!'))).toBe(false);
    expect(check(md('Secret'))).toBe(false);
    expect(check(md('secret', 'secret'))).toBe(false); // ambiguous: two tokens
  });
});

describe('serviceOfPath', () => {
  it("names the service of a method path, which decides whether the host's token check applies", () => {
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

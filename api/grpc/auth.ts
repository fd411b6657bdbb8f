// Optional shared token (behaviour.md "Auth"): gRPC metadata `x-token`. Compared in constant time on
// SHA-256 digests, so neither the content nor the length of the configured token leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';

const digest = (s: string | Buffer): Buffer => createHash('sha256').update(s).digest();

export type TokenCheck = (metadata: Metadata) => boolean;

/** A check that accepts everything when no token is configured. */
export function tokenCheck(token: string | undefined): TokenCheck {
  if (!token) return () => true;
  const want = digest(token);
  return (metadata) => {
    const values = metadata.get('x-token');
    if (values.length !== 1) return false;
    const v = values[0]!;
    return timingSafeEqual(digest(v), want);
  };
}

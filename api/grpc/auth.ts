// Optional shared token (behaviour.md "Auth"): gRPC metadata `x-token`. Compared in constant time on
// SHA-256 digests, so neither the content nor the length of the configured token leaks through timing.
// One check for every method of the host's services: a grpc-js server interceptor (ServerOptions
// `interceptors`, grpc-js >= 1.10) that answers UNAUTHENTICATED before the call reaches its handler.
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  ResponderBuilder,
  ServerInterceptingCall,
  ServerListenerBuilder,
  status,
  type Metadata,
  type ServerInterceptor,
} from '@grpc/grpc-js';

const digest = (s: string | Buffer): Buffer => createHash('sha256').update(s).digest();

export type TokenCheck = (metadata: Metadata) => boolean;

export const UNAUTHENTICATED_DETAILS = 'missing or invalid x-token';

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

/** The service part of a method path `/<package>.<Service>/<Method>`. */
export function serviceOfPath(path: string): string {
  const end = path.lastIndexOf('/');
  return end > 0 ? path.slice(1, end) : '';
}

/**
 * The token check for every method of the `guarded` services (full names, 'stream.Stream'); other services
 * on the server (health, reflection) stay open, as behaviour.md says. Without a token nothing is wrapped, so
 * an open server runs no interceptor at all. The check runs when the request headers arrive: a refused call
 * gets UNAUTHENTICATED as its only answer (no headers, no message) and its handler never runs.
 */
export function authInterceptor(check: TokenCheck, guarded: readonly string[]): ServerInterceptor {
  const services = new Set(guarded);
  return (method, call) => {
    if (!services.has(serviceOfPath(method.path))) return new ServerInterceptingCall(call);
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        if (check(metadata)) next(metadata);
        else call.sendStatus({ code: status.UNAUTHENTICATED, details: UNAUTHENTICATED_DETAILS });
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}

// The access check of the gRPC host (issue 36; behaviour.md "Auth"): the key a call presents, in `x-token`
// metadata as Yellowstone and LaserStream clients send it, or `authorization: Bearer <key>`, goes to the one
// access check of every interface (api/access/); its denials become gRPC statuses here. One grpc-js server
// interceptor (ServerOptions `interceptors`, grpc-js >= 1.10) checks every method of the guarded services when
// the request headers arrive: a refused call gets its status as its only answer (no headers, no message) and its
// handler never runs. Subscribe streams then take their stream lease and limits in session-stream.ts.
import {
  ResponderBuilder,
  ServerInterceptingCall,
  ServerListenerBuilder,
  status,
  type Metadata,
  type ServerInterceptor,
} from '@grpc/grpc-js';
import { bearer, type AccessControl, type AccessInterface, type Admission, type Denial, type DenialKind } from '../access/index.js';

/** What a refused call reads when no key or an unknown one was sent (the same for both: nothing to probe). */
export const UNAUTHENTICATED_DETAILS = 'missing or invalid x-token';

/** The edge's one mapping of access denials to gRPC statuses. */
export const DENIAL_STATUS: Record<DenialKind, status> = {
  unauthenticated: status.UNAUTHENTICATED,
  forbidden: status.PERMISSION_DENIED,
  exhausted: status.RESOURCE_EXHAUSTED,
};

/** The status details of a denial: a missing or unknown key reads as before keys existed; the rest name the limit. */
export const denialDetails = (d: Denial): string =>
  d.reason === 'missing' || d.reason === 'invalid' ? UNAUTHENTICATED_DETAILS : d.message;

/** The key of a call's metadata: exactly one `x-token`, else an `authorization: Bearer` one. Two x-tokens are
 * ambiguous and count as none. */
export function metadataKey(metadata: Metadata): string | undefined {
  const tokens = metadata.get('x-token');
  if (tokens.length === 1) return String(tokens[0]);
  if (tokens.length > 1) return undefined;
  const auth = metadata.get('authorization');
  return auth.length === 1 ? bearer(String(auth[0])) : undefined;
}

/** Admits a call of `iface` by its metadata (the one access check). */
export const admitCall = (access: AccessControl, metadata: Metadata, iface: AccessInterface): Admission =>
  access.admit(metadataKey(metadata), iface);

/** The service part of a method path `/<package>.<Service>/<Method>`. */
export function serviceOfPath(path: string): string {
  const end = path.lastIndexOf('/');
  return end > 0 ? path.slice(1, end) : '';
}

/**
 * The access check for every method of the `guarded` services (full name → the interface its key must allow);
 * other services on the server (health, reflection) stay open, as behaviour.md says. An admitted call counts as one
 * request of its key.
 */
export function accessInterceptor(access: AccessControl, guarded: ReadonlyMap<string, AccessInterface>): ServerInterceptor {
  return (method, call) => {
    const iface = guarded.get(serviceOfPath(method.path));
    if (iface === undefined) return new ServerInterceptingCall(call);
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        const a = admitCall(access, metadata, iface);
        if (a.ok) {
          a.tenant.request(iface);
          next(metadata);
        } else call.sendStatus({ code: DENIAL_STATUS[a.denial.kind], details: denialDetails(a.denial) });
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}

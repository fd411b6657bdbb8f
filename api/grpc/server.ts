// The gRPC host of the api role: one grpc-js server for the services it is given (stream.Stream and
// geyser.Geyser, through the `GrpcService` interface), one token check for every call to them (a server
// interceptor, ./auth.ts), the standard health service and server reflection, so generic tools (grpcurl,
// grpc-health-probe) can list and call it. The services come built from the role wiring, with the live
// layer and clients they read: the host constructs none of them and closes none of them.
import * as grpc from '@grpc/grpc-js';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { AccessControl } from '../access/index.js';
import { accessInterceptor } from './auth.js';
import type { TlsSource } from '../../platform/tls.js';
import { serverCredentials } from './tls.js';
import { enableCompression, type CompressionPolicy } from './compression.js';
import type { GrpcService } from './service.js';

/** behaviour.md: inbound messages up to 4 MiB; outbound not capped. A service configured for larger
 * requests raises it (geyser.Geyser's --geyser-max-cuckoo-bytes: a 10M-key cuckoo filter is 32 MiB). */
const MAX_INBOUND_BYTES = 4 * 1024 * 1024;

export interface GrpcOptions {
  /** The services to serve, each built by the caller on the process's live layer. */
  services: readonly GrpcService[];
  host: string;
  port: number;
  /** The process's access check (keys, limits, usage), shared with JSON-RPC and PubSub; absent: one with `authToken`. */
  access?: AccessControl;
  /** Without `access`: with a token, every call to the services needs it in `x-token`; health and reflection stay open. */
  authToken?: string;
  /** TLS (certificate and key, renewed in place); absent: plaintext. */
  tls?: TlsSource;
  /** Response compression for clients that accept it (zstd requests are accepted unless 'none'); default 'zstd'. */
  compress?: CompressionPolicy;
  log: Logger;
}

export interface GrpcServer {
  port: number;
  /** Health NOT_SERVING, then every open call cancelled; the services' live layer stays the caller's. */
  close(): Promise<void>;
}

export async function startGrpc(o: GrpcOptions): Promise<GrpcServer> {
  const names = o.services.map((s) => s.name);
  const access = o.access ?? new AccessControl({ sharedToken: o.authToken });
  const compress = o.compress ?? 'zstd';
  const unavailable = await enableCompression(compress);
  if (unavailable) o.log.warn({ compress }, unavailable);
  const server = new grpc.Server({
    'grpc.max_receive_message_length': Math.max(MAX_INBOUND_BYTES, ...o.services.map((s) => s.maxRequestBytes ?? 0)),
    'grpc.max_send_message_length': -1,
    // Always installed, open or not: it also counts each call as a request of its key.
    interceptors: [accessInterceptor(access, new Map(o.services.map((s) => [s.name, s.iface])))],
  });
  for (const s of o.services) s.addTo(server, access);
  // Health stays open without a token (behaviour.md).
  const health = new HealthImplementation(Object.fromEntries([['', 'SERVING'], ...names.map((n) => [n, 'SERVING'])]));
  health.addToServer(server);
  new ReflectionService(Object.assign({}, ...o.services.map((s) => s.reflection()))).addToServer(server);

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${o.host}:${o.port}`, serverCredentials(o.tls), (err, p) => (err ? reject(err) : resolve(p)));
  }).catch((err: Error) => {
    throw new Error(`gRPC server cannot listen on ${o.host}:${o.port}: ${err.message}`);
  });
  o.log.info({ host: o.host, port, services: names, tls: o.tls !== undefined }, 'gRPC listening');

  let closed = false;
  return {
    port,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const n of ['', ...names]) health.setStatus(n, 'NOT_SERVING');
      // Streams never end on their own: cancel them rather than wait.
      server.forceShutdown();
    },
  };
}

// What the gRPC host (./server.ts) knows of a service it serves: its name, how it registers its handlers,
// its reflection descriptors. stream.Stream (./stream/) and geyser.Geyser (./geyser/) implement it; the host
// imports neither, and they never import each other (eslint.config.js's boundaries).
import type { Server } from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';

export interface GrpcService {
  /** Full name ('stream.Stream'): its health status, and the methods the host's token check guards. */
  readonly name: string;
  /** Registers the service's handlers (no auth of their own: the host checks every call first). */
  addTo(server: Server): void;
  /** Descriptors for server reflection (all services' are served together). */
  reflection(): PackageDefinition;
  /**
   * The largest request message the service is configured to accept, when above the host's 4 MiB
   * (behaviour.md): grpc-js caps inbound messages per server, so the host takes the largest of its services'.
   */
  readonly maxRequestBytes?: number;
}

// What the gRPC host (./server.ts) knows of a service it serves: its name, how it registers its handlers,
// its reflection descriptors. stream.Stream (./stream/) and geyser.Geyser (./geyser/) implement it; the host
// imports neither, and they never import each other (eslint.config.js's boundaries).
import type { Server } from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import type { AccessControl, AccessInterface } from '../access/index.js';

export interface GrpcService {
  /** Full name ('stream.Stream'): its health status, and the methods the host's token check guards. */
  readonly name: string;
  /** The interface a key must allow to call it (api/access/). */
  readonly iface: AccessInterface;
  /** Registers the service's handlers on the host's access control: the host admits every call first (key and
   * interface); the handlers take their streams' leases and limits from it. */
  addTo(server: Server, access: AccessControl): void;
  /** Descriptors for server reflection (all services' are served together). */
  reflection(): PackageDefinition;
  /**
   * The largest request message the service is configured to accept, when above the host's 4 MiB
   * (behaviour.md): grpc-js caps inbound messages per server, so the host takes the largest of its services'.
   */
  readonly maxRequestBytes?: number;
}

// A minimal service for tests of the gRPC host itself (api/grpc/server.ts), with no live layer and no
// Kafka: `probe.Probe` with a unary Echo and a bidi Watch whose replies go out through the host's Outbound
// queue, recording what each handler saw. Messages are raw bytes both ways (pass-through codecs).
import * as grpc from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import type { GrpcService } from '../../../api/grpc/service.js';
import { Outbound, rawCallOf } from '../../../api/grpc/outbound.js';

const bytes = { serialize: (b: Buffer): Buffer => b, deserialize: (b: Buffer): Buffer => b };

export const PROBE_SERVICE_NAME = 'probe.Probe';

/** The grpc-js definition, shared by the server and the test's client. */
export const PROBE_DEFINITION = {
  echo: {
    path: `/${PROBE_SERVICE_NAME}/Echo`,
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes.serialize,
    requestDeserialize: bytes.deserialize,
    responseSerialize: bytes.serialize,
    responseDeserialize: bytes.deserialize,
  },
  watch: {
    path: `/${PROBE_SERVICE_NAME}/Watch`,
    requestStream: true,
    responseStream: true,
    requestSerialize: bytes.serialize,
    requestDeserialize: bytes.deserialize,
    responseSerialize: bytes.serialize,
    responseDeserialize: bytes.deserialize,
  },
} satisfies grpc.ServiceDefinition;

export class ProbeService implements GrpcService {
  readonly name = PROBE_SERVICE_NAME;
  /** Its calls need a key that allows stream.Stream's interface. */
  readonly iface = 'stream' as const;
  /** Calls that reached a handler (so passed the host's auth check). */
  handled = 0;
  /** Per Watch stream: whether Outbound found grpc-js's base call (its batched path) under the host's interceptors. */
  readonly batched: boolean[] = [];

  addTo(server: grpc.Server): void {
    server.addService(PROBE_DEFINITION, {
      echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => {
        this.handled++;
        cb(null, call.request);
      },
      watch: (call: grpc.ServerDuplexStream<Buffer, Buffer>) => {
        this.handled++;
        this.batched.push(rawCallOf(call) !== undefined);
        const out = new Outbound(call, 1000, () => undefined);
        // Each request comes back twice, as two messages framed in one write on the batched path.
        call.on('data', (b: Buffer) => {
          out.send({ slot: undefined, bytes: b });
          out.send({ slot: undefined, prefix: Buffer.from('>'), bytes: b });
        });
        call.on('end', () => out.end());
        call.on('error', () => out.abandon());
      },
    });
  }

  reflection(): PackageDefinition {
    return {};
  }
}

/** A client of probe.Probe on 127.0.0.1:port. */
export function probeClient(port: number): grpc.Client & Record<string, CallableFunction> {
  const Ctor = grpc.makeGenericClientConstructor(PROBE_DEFINITION, 'Probe');
  return new Ctor(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}

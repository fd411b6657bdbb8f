// stream.Stream (proto/stream.proto, ts-proto generated request decoding) as a service of the gRPC host:
// Subscribe and SubscribeParsed on the live layer, their responses sent as bytes encoded once per update
// (a pass-through serializer), and the unary calls. The host checks the token before any handler runs.
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { Logger } from 'pino';
import { StreamService, type SubscribeParsedRequest, type SubscribeRequest } from '../../../proto/gen/stream.js';
import type { FilterLimits } from '../../filters/index.js';
import type { LiveLayer } from '../../live/index.js';
import type { GrpcService } from '../service.js';
import { deleteCursor, listCursors } from './cursors.js';
import { handleSubscribe } from './subscribe.js';
import { handleSubscribeParsed } from './subscribe-parsed.js';
import { streamUnary } from './unary.js';

export const PROTO_PATH = fileURLToPath(new URL('../../../proto/stream.proto', import.meta.url));
export const STREAM_SERVICE_NAME = 'stream.Stream';

export interface StreamServiceDeps {
  /** The process's live layer (the caller's: opened and closed by the role wiring). */
  live: LiveLayer;
  limits: FilterLimits;
  queueSize: number;
  log: Logger;
}

const passThrough = (b: Buffer): Buffer => b;

/** StreamService with the two streaming responses sent as bytes we encoded ourselves. */
const RawStreamService = {
  ...StreamService,
  subscribe: { ...StreamService.subscribe, responseSerialize: passThrough },
  subscribeParsed: { ...StreamService.subscribeParsed, responseSerialize: passThrough },
} as unknown as grpc.ServiceDefinition;

const unary =
  <Req, Res>(handler: (req: Req) => Res) =>
  (call: grpc.ServerUnaryCall<Req, Res>, cb: grpc.sendUnaryData<Res>): void =>
    cb(null, handler(call.request));

export function streamService(d: StreamServiceDeps): GrpcService {
  return {
    name: STREAM_SERVICE_NAME,
    iface: 'stream',
    addTo: (server, access) => {
      const a = { access, iface: 'stream' } as const;
      const subscribe = handleSubscribe({ live: d.live, limits: d.limits, queueSize: d.queueSize, log: d.log }, a);
      const subscribeParsed = handleSubscribeParsed({ live: d.live, limits: d.limits, queueSize: d.queueSize, log: d.log }, a);
      server.addService(RawStreamService, {
        subscribe: (call: grpc.ServerDuplexStream<SubscribeRequest, Buffer>) => subscribe(call),
        subscribeParsed: (call: grpc.ServerDuplexStream<SubscribeParsedRequest, Buffer>) => subscribeParsed(call),
        ping: unary(streamUnary.ping),
        getVersion: unary(streamUnary.getVersion),
        listCursors: listCursors(d.live.cursors),
        deleteCursor: deleteCursor(d.live.cursors),
      });
    },
    reflection: () => protoLoader.loadSync(PROTO_PATH, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true }),
  };
}

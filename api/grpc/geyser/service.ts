// geyser.Geyser as a service of the gRPC host (api/grpc/server.ts serves it beside stream.Stream): Subscribe
// (./subscribe.ts), the unary calls (./unary.ts) and their status mapping, reflection (./reflection.ts). The
// host checks the token before any handler runs.
import * as grpc from '@grpc/grpc-js';
import type { SubscribeRequest } from '@triton-one/yellowstone-grpc';
import type { Logger } from 'pino';
import { GEYSER_SERVICE_NAME } from '../../../schemas/yellowstone/geyser-method.js';
import type { GeyserFilterLimits } from '../../filters/from-geyser.js';
import type { LiveLayer } from '../../live/index.js';
import type { AccessControl } from '../../access/index.js';
import type { GrpcService } from '../service.js';
import { GEYSER_SERVICE } from './codecs.js';
import { geyserReflectionPackage } from './reflection.js';
import { handleGeyserSubscribe } from './subscribe.js';
import { GeyserCallError, geyserUnary } from './unary.js';

export { GEYSER_SERVICE_NAME };

export interface GeyserServiceDeps {
  /** The process's live layer (the caller's: opened and closed by the role wiring). */
  live: LiveLayer;
  limits: GeyserFilterLimits;
  queueSize: number;
  log: Logger;
}

const statusError = (code: grpc.status, details: string): Partial<grpc.StatusObject> & Error =>
  Object.assign(new Error(details), { code, details });

function addHandlers(server: grpc.Server, d: GeyserServiceDeps, access: AccessControl): void {
  const subscribe = handleGeyserSubscribe(
    { live: d.live, limits: d.limits, queueSize: d.queueSize, log: d.log },
    { access, iface: 'geyser' },
  );
  const calls = geyserUnary({ chain: d.live.chain, kafka: d.live.kafka, topics: d.live.topics, views: d.live.views });

  const unary =
    <Req, Res>(handler: (req: Req) => Res | Promise<Res>) =>
    (call: grpc.ServerUnaryCall<Req, Res>, cb: grpc.sendUnaryData<Res>): void => {
      Promise.resolve()
        .then(() => handler(call.request))
        .then(
          (res) => cb(null, res),
          (err: unknown) => {
            if (err instanceof GeyserCallError) cb(statusError(err.code, err.details));
            else {
              d.log.error({ err }, 'geyser unary call failed');
              cb(statusError(grpc.status.INTERNAL, `internal error: ${(err as Error).message}`));
            }
          },
        );
    };

  server.addService(GEYSER_SERVICE, {
    subscribe: (call: grpc.ServerDuplexStream<SubscribeRequest, Buffer>) => subscribe(call),
    ping: unary(calls.ping),
    getVersion: unary(calls.getVersion),
    getSlot: unary(calls.getSlot),
    getBlockHeight: unary(calls.getBlockHeight),
    getLatestBlockhash: unary(calls.getLatestBlockhash),
    isBlockhashValid: unary(calls.isBlockhashValid),
    subscribeReplayInfo: unary(calls.subscribeReplayInfo),
  });
}

/** What a Subscribe request holds besides one cuckoo filter's data (names, keys, options). */
const REQUEST_ROOM_BYTES = 1024 * 1024;

export function geyserService(d: GeyserServiceDeps): GrpcService {
  return {
    name: GEYSER_SERVICE_NAME,
    iface: 'geyser',
    addTo: (server, access) => addHandlers(server, d, access),
    reflection: geyserReflectionPackage,
    // A request carrying a cuckoo filter of the largest allowed size, plus room for the rest of the request.
    maxRequestBytes: d.limits.maxCuckooBytes + REQUEST_ROOM_BYTES,
  };
}

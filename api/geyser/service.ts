// geyser.Geyser on an existing grpc-js server (api/grpc/server.ts adds it beside stream.Stream): Subscribe
// (./subscribe.ts) and the unary calls (./unary.ts), behind the same x-token check as stream.Stream.
import * as grpc from '@grpc/grpc-js';
import type { SubscribeRequest } from '@triton-one/yellowstone-grpc';
import type { Logger } from 'pino';
import type { GeyserFilterLimits } from '../filters/from-geyser.js';
import type { TokenCheck } from '../grpc/auth.js';
import type { LiveLayer } from '../live/index.js';
import { GEYSER_SERVICE } from './codecs.js';
import { handleGeyserSubscribe } from './subscribe.js';
import { GeyserCallError, geyserUnary } from './unary.js';

export { GEYSER_SERVICE_NAME } from '../../schemas/yellowstone/geyser-method.js';

export interface GeyserServiceDeps {
  live: LiveLayer;
  limits: GeyserFilterLimits;
  queueSize: number;
  authorized: TokenCheck;
  log: Logger;
}

const statusError = (code: grpc.status, details: string): Partial<grpc.StatusObject> & Error =>
  Object.assign(new Error(details), { code, details });

const UNAUTHENTICATED = 'missing or invalid x-token';

export function addGeyserService(server: grpc.Server, d: GeyserServiceDeps): void {
  const subscribe = handleGeyserSubscribe({ live: d.live, limits: d.limits, queueSize: d.queueSize, log: d.log });
  const calls = geyserUnary({ chain: d.live.chain, kafka: d.live.kafka, topics: d.live.topics, index: d.live.index });

  const unary =
    <Req, Res>(handler: (req: Req) => Res | Promise<Res>) =>
    (call: grpc.ServerUnaryCall<Req, Res>, cb: grpc.sendUnaryData<Res>): void => {
      if (!d.authorized(call.metadata)) {
        cb(statusError(grpc.status.UNAUTHENTICATED, UNAUTHENTICATED));
        return;
      }
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

  server.addService(GEYSER_SERVICE as unknown as grpc.ServiceDefinition, {
    subscribe: (call: grpc.ServerDuplexStream<SubscribeRequest, Buffer>) => {
      if (!d.authorized(call.metadata)) {
        call.emit('error', statusError(grpc.status.UNAUTHENTICATED, UNAUTHENTICATED));
        return;
      }
      subscribe(call);
    },
    ping: unary(calls.ping),
    getVersion: unary(calls.getVersion),
    getSlot: unary(calls.getSlot),
    getBlockHeight: unary(calls.getBlockHeight),
    getLatestBlockhash: unary(calls.getLatestBlockhash),
    isBlockhashValid: unary(calls.isBlockhashValid),
    subscribeReplayInfo: unary(calls.subscribeReplayInfo),
  });
}

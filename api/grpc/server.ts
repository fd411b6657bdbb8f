// The gRPC server of the api role: service `stream.Stream` (ts-proto generated request decoding; the two
// streaming responses go out as pre-encoded bytes through a pass-through serializer), the standard health
// service and server reflection, so generic tools (grpcurl, grpc-health-probe) can list and call it.
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Logger } from 'pino';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import {
  StreamService,
  type GetVersionRequest,
  type GetVersionResponse,
  type PingRequest,
  type PongResponse,
  type SubscribeParsedRequest,
  type SubscribeRequest,
} from '../../proto/gen/stream.js';
import type { TopicNames } from '../../schemas/topics.js';
import { DEFAULT_FILTER_LIMITS, type FilterLimits } from '../filters/index.js';
import { DEFAULT_GEYSER_LIMITS, type GeyserFilterLimits } from '../filters/from-geyser.js';
import { geyserReflectionPackage } from '../geyser/reflection.js';
import { addGeyserService, GEYSER_SERVICE_NAME } from '../geyser/service.js';
import { tokenCheck } from './auth.js';
import { LiveLayer, type LiveRead } from '../live/index.js';
import { handleSubscribe } from './subscribe.js';
import { handleSubscribeParsed, ParsedFeed } from './subscribe-parsed.js';
import { versionString } from './version.js';

export const PROTO_PATH = fileURLToPath(new URL('../../proto/stream.proto', import.meta.url));
export const SERVICE_NAME = 'stream.Stream';
/** behaviour.md: inbound messages up to 4 MiB; outbound not capped. */
const MAX_INBOUND_BYTES = 4 * 1024 * 1024;

export interface GrpcOptions {
  /** The process's live layer, made once in the role wiring (left open on close); without it the server
   * starts its own from the options below. */
  live?: LiveLayer;
  /** The process's Kafka clients, made once in the role wiring (left open on close). */
  kafka?: Kafka;
  /** Without `kafka`: the server makes its own clients from these brokers (and closes them). */
  brokers?: readonly string[];
  topics: TopicNames;
  /** ClickHouse with the projector's views (slot_offsets, for from_slot); without it replays scan from the log start. */
  ch?: ClickHouseClient;
  database: string;
  host: string;
  port: number;
  authToken?: string;
  pingIntervalMs: number;
  limits?: FilterLimits;
  /** geyser.Geyser's limits (served beside stream.Stream always). */
  geyserLimits?: GeyserFilterLimits;
  queueSize: number;
  /** Without `live`: how its own live layer reads Kafka (default uncommitted). */
  liveRead?: LiveRead;
  /** Without `live`: its own live layer's bound on concurrent from_slot replays (default 8). */
  maxReplays?: number;
  log: Logger;
}

export interface GrpcServer {
  port: number;
  chainTip(): bigint | undefined;
  /** Stops or restarts reading the live feed; streams stay open and resume where it stopped (benchmarks). */
  setLivePaused(paused: boolean): void;
  close(): Promise<void>;
}

const passThrough = (b: Buffer): Buffer => b;

/** StreamService with the two streaming responses sent as bytes we encoded ourselves. */
const RawStreamService = {
  ...StreamService,
  subscribe: { ...StreamService.subscribe, responseSerialize: passThrough },
  subscribeParsed: { ...StreamService.subscribeParsed, responseSerialize: passThrough },
} as unknown as grpc.ServiceDefinition;

function reflectionPackage(): protoLoader.PackageDefinition {
  return protoLoader.loadSync(PROTO_PATH, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
}

function unauthenticated(): Partial<grpc.StatusObject> & Error {
  return Object.assign(new Error('missing or invalid x-token'), {
    code: grpc.status.UNAUTHENTICATED,
    details: 'missing or invalid x-token',
  });
}

export async function startGrpc(o: GrpcOptions): Promise<GrpcServer> {
  const own = o.kafka === undefined && o.live === undefined ? createKafka({ brokers: o.brokers ?? [], clientId: 'slotstream-api', log: o.log }) : undefined;
  const ownLive =
    o.live === undefined
      ? await LiveLayer.start({ kafka: o.kafka ?? own!, topics: o.topics, ch: o.ch, database: o.database, pingIntervalMs: o.pingIntervalMs, read: o.liveRead, maxReplays: o.maxReplays, log: o.log }).catch(
          async (err: unknown) => {
            await own?.close();
            throw err;
          },
        )
      : undefined;
  const live = o.live ?? ownLive!;
  const closeOwn = async (): Promise<void> => {
    await ownLive?.close();
    await own?.close();
  };
  const authorized = tokenCheck(o.authToken);
  const limits = o.limits ?? DEFAULT_FILTER_LIMITS;

  const subscribe = handleSubscribe({ live, limits, queueSize: o.queueSize, log: o.log });
  const subscribeParsed = handleSubscribeParsed({ feed: new ParsedFeed(live), queueSize: o.queueSize, log: o.log });

  const guardStream =
    <Req>(handler: (call: grpc.ServerDuplexStream<Req, Buffer>) => void) =>
    (call: grpc.ServerDuplexStream<Req, Buffer>): void => {
      if (!authorized(call.metadata)) {
        call.emit('error', unauthenticated());
        return;
      }
      handler(call);
    };
  const guardUnary =
    <Req, Res>(handler: (req: Req) => Res) =>
    (call: grpc.ServerUnaryCall<Req, Res>, cb: grpc.sendUnaryData<Res>): void => {
      if (!authorized(call.metadata)) {
        cb(unauthenticated());
        return;
      }
      cb(null, handler(call.request));
    };

  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_INBOUND_BYTES,
    'grpc.max_send_message_length': -1,
  });
  server.addService(RawStreamService, {
    subscribe: guardStream<SubscribeRequest>(subscribe),
    subscribeParsed: guardStream<SubscribeParsedRequest>(subscribeParsed),
    ping: guardUnary<PingRequest, PongResponse>((req) => ({ count: req.count })),
    getVersion: guardUnary<GetVersionRequest, GetVersionResponse>(() => ({ version: versionString() })),
  });
  addGeyserService(server, { live, limits: o.geyserLimits ?? DEFAULT_GEYSER_LIMITS, queueSize: o.queueSize, authorized, log: o.log });
  // Health stays open without a token (behaviour.md).
  const health = new HealthImplementation({ '': 'SERVING', [SERVICE_NAME]: 'SERVING', [GEYSER_SERVICE_NAME]: 'SERVING' });
  health.addToServer(server);
  new ReflectionService({ ...reflectionPackage(), ...geyserReflectionPackage() }).addToServer(server);

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${o.host}:${o.port}`, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  }).catch(async (err: Error) => {
    await closeOwn();
    throw new Error(`gRPC server cannot listen on ${o.host}:${o.port}: ${err.message}`);
  });
  o.log.info({ host: o.host, port }, 'gRPC listening');

  let closed = false;
  return {
    port,
    chainTip: () => live.chainTip(),
    setLivePaused: (paused) => live.setPaused(paused),
    close: async () => {
      if (closed) return;
      closed = true;
      health.setStatus('', 'NOT_SERVING');
      health.setStatus(SERVICE_NAME, 'NOT_SERVING');
      health.setStatus(GEYSER_SERVICE_NAME, 'NOT_SERVING');
      // Streams never end on their own: cancel them rather than wait.
      server.forceShutdown();
      await closeOwn();
    },
  };
}

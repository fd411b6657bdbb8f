// The connection to a Yellowstone endpoint: grpc-js's generic client on Yellowstone's service definition,
// TLS or plaintext by URL scheme, keepalive, messages up to 1 GiB.
import * as grpc from '@grpc/grpc-js';
import type { Logger } from '../../../platform/log.js';
import type { UpstreamVersion } from '../../../schemas/codec.js';
import { upstreamFromYellowstoneVersion } from '../../../schemas/node-version.js';
import {
  GEYSER_SERVICE,
  type GetVersionResponse,
  type SubscribeReplayInfoResponse,
  type SubscribeRequest,
  type SubscribeUpdate,
} from './geyser-service.js';

const GiB = 1024 * 1024 * 1024;

/** The grpc-js target and credentials of a Yellowstone URL. */
export function channelOf(url: string): { target: string; credentials: grpc.ChannelCredentials } {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`yellowstone URL must be http:// or https:// (got ${url})`);
  const tls = u.protocol === 'https:';
  const port = u.port !== '' ? u.port : tls ? '443' : '80';
  return { target: `${u.hostname}:${port}`, credentials: tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure() };
}

const GeyserClient = grpc.makeGenericClientConstructor(GEYSER_SERVICE, 'Geyser');
export type GeyserClient = InstanceType<typeof GeyserClient> & {
  subscribe(metadata: grpc.Metadata): grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate>;
  subscribeReplayInfo(
    request: object,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: (err: grpc.ServiceError | null, res?: SubscribeReplayInfoResponse) => void,
  ): grpc.ClientUnaryCall;
  getVersion(
    request: object,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: (err: grpc.ServiceError | null, res?: GetVersionResponse) => void,
  ): grpc.ClientUnaryCall;
};

export function connectGeyser(url: string): GeyserClient {
  const { target, credentials } = channelOf(url);
  return new GeyserClient(target, credentials, {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.max_receive_message_length': GiB,
    'grpc.primary_user_agent': 'slotstream',
  }) as GeyserClient;
}

/** The first slot the upstream can replay from (SubscribeReplayInfo); undefined when it cannot replay. */
export async function firstAvailableSlot(client: GeyserClient, metadata: grpc.Metadata, log: Logger): Promise<bigint | undefined> {
  try {
    const res = await new Promise<SubscribeReplayInfoResponse>((resolve, reject) => {
      client.subscribeReplayInfo({}, metadata, { deadline: Date.now() + 10_000 }, (err, r) => (err ? reject(err) : resolve(r!)));
    });
    return res.firstAvailable === undefined ? undefined : BigInt(res.firstAvailable);
  } catch (err) {
    const e = err as grpc.ServiceError;
    if (e.code === grpc.status.UNIMPLEMENTED) {
      log.warn('yellowstone source: the upstream has no SubscribeReplayInfo: it cannot replay, reconnects resume live');
      return undefined;
    }
    throw err;
  }
}

/**
 * The Solana version the upstream runs (GetVersion's `version.solana`); undefined when it does not say or has no
 * GetVersion: never a reason not to stream.
 */
export async function upstreamVersion(client: GeyserClient, metadata: grpc.Metadata, log: Logger): Promise<UpstreamVersion | undefined> {
  try {
    const res = await new Promise<GetVersionResponse>((resolve, reject) => {
      client.getVersion({}, metadata, { deadline: Date.now() + 10_000 }, (err, r) => (err ? reject(err) : resolve(r!)));
    });
    const v = upstreamFromYellowstoneVersion(res.version);
    if (v === undefined) log.info({ version: res.version.slice(0, 200) }, 'yellowstone source: GetVersion names no Solana version');
    return v;
  } catch (err) {
    const e = err as grpc.ServiceError;
    const level = e.code === grpc.status.UNIMPLEMENTED ? 'info' : 'warn';
    log[level]({ err: e.message }, "yellowstone source: GetVersion failed; the upstream's version stays unknown");
    return undefined;
  }
}

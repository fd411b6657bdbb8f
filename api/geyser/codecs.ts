// geyser.Geyser's messages and grpc-js service definition, from the published @triton-one/yellowstone-grpc
// package (never copied into this repository). The package's entry point loads its native client; its
// generated codecs are plain CommonJS modules in the same package, loaded from the folder Node resolves
// (as schemas/yellowstone/storage.ts does). The package is generated without services, so the method paths
// are Yellowstone's geyser.proto's: /geyser.Geyser/<Method>.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServiceDefinition } from '@grpc/grpc-js';
import type * as G from '@triton-one/yellowstone-grpc';

export interface MessageCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
  fromPartial(object: unknown): T;
}

const require = createRequire(import.meta.url);
const geyser = require(path.join(path.dirname(require.resolve('@triton-one/yellowstone-grpc')), 'grpc', 'geyser.js')) as {
  SubscribeRequest: MessageCodec<G.SubscribeRequest>;
  SubscribeUpdate: MessageCodec<G.SubscribeUpdate>;
  SubscribeReplayInfoRequest: MessageCodec<G.SubscribeReplayInfoRequest>;
  SubscribeReplayInfoResponse: MessageCodec<G.SubscribeReplayInfoResponse>;
  PingRequest: MessageCodec<G.PingRequest>;
  PongResponse: MessageCodec<G.PongResponse>;
  GetLatestBlockhashRequest: MessageCodec<G.GetLatestBlockhashRequest>;
  GetLatestBlockhashResponse: MessageCodec<G.GetLatestBlockhashResponse>;
  GetBlockHeightRequest: MessageCodec<G.GetBlockHeightRequest>;
  GetBlockHeightResponse: MessageCodec<G.GetBlockHeightResponse>;
  GetSlotRequest: MessageCodec<G.GetSlotRequest>;
  GetSlotResponse: MessageCodec<G.GetSlotResponse>;
  GetVersionRequest: MessageCodec<G.GetVersionRequest>;
  GetVersionResponse: MessageCodec<G.GetVersionResponse>;
  IsBlockhashValidRequest: MessageCodec<G.IsBlockhashValidRequest>;
  IsBlockhashValidResponse: MessageCodec<G.IsBlockhashValidResponse>;
};

export const SubscribeUpdateCodec = geyser.SubscribeUpdate;
export const GEYSER_SERVICE_NAME = 'geyser.Geyser';

const ser =
  <T>(codec: MessageCodec<T>) =>
  (m: T): Buffer => {
    const bytes = codec.encode(m).finish();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
const de =
  <T>(codec: MessageCodec<T>) =>
  (b: Buffer): T =>
    codec.decode(b);

function unary<Req, Res>(name: string, req: MessageCodec<Req>, res: MessageCodec<Res>) {
  return {
    path: `/${GEYSER_SERVICE_NAME}/${name}`,
    requestStream: false,
    responseStream: false,
    requestSerialize: ser(req),
    requestDeserialize: de(req),
    responseSerialize: ser(res),
    responseDeserialize: de(res),
  };
}

/** The service as this server answers it: Subscribe's updates leave as bytes encoded once per event (pass-through). */
export const GEYSER_SERVICE = {
  subscribe: {
    path: `/${GEYSER_SERVICE_NAME}/Subscribe`,
    requestStream: true,
    responseStream: true,
    requestSerialize: ser(geyser.SubscribeRequest),
    requestDeserialize: de(geyser.SubscribeRequest),
    responseSerialize: (b: Buffer): Buffer => b,
    responseDeserialize: (b: Buffer): Buffer => b,
  },
  subscribeReplayInfo: unary('SubscribeReplayInfo', geyser.SubscribeReplayInfoRequest, geyser.SubscribeReplayInfoResponse),
  ping: unary('Ping', geyser.PingRequest, geyser.PongResponse),
  getLatestBlockhash: unary('GetLatestBlockhash', geyser.GetLatestBlockhashRequest, geyser.GetLatestBlockhashResponse),
  getBlockHeight: unary('GetBlockHeight', geyser.GetBlockHeightRequest, geyser.GetBlockHeightResponse),
  getSlot: unary('GetSlot', geyser.GetSlotRequest, geyser.GetSlotResponse),
  isBlockhashValid: unary('IsBlockhashValid', geyser.IsBlockhashValidRequest, geyser.IsBlockhashValidResponse),
  getVersion: unary('GetVersion', geyser.GetVersionRequest, geyser.GetVersionResponse),
} satisfies ServiceDefinition;

// Yellowstone's gRPC service `geyser.Geyser` as a grpc-js service definition, built from the published
// package's generated codecs (@triton-one/yellowstone-grpc, generated without services): the methods the
// yellowstone source calls, with the paths of Yellowstone's geyser.proto. The package's own client is a
// native module that cannot be pointed at a plaintext test server, so the source uses grpc-js's generic
// client on this definition; a test server can serve the same definition.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServiceDefinition } from '@grpc/grpc-js';
import type * as Geyser from '@triton-one/yellowstone-grpc';
import { asBuffer } from '../../schemas/bytes.js';

export type { SubscribeRequest, SubscribeReplayInfoResponse, SubscribeUpdate } from '@triton-one/yellowstone-grpc';

interface MessageCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
  fromPartial(object: unknown): T;
}

const require = createRequire(import.meta.url);
// Same package folder schemas/yellowstone/storage.ts loads its codecs from (the CommonJS build).
const geyser = require(path.join(path.dirname(require.resolve('@triton-one/yellowstone-grpc')), 'grpc', 'geyser.js')) as {
  SubscribeRequest: MessageCodec<Geyser.SubscribeRequest>;
  SubscribeUpdate: MessageCodec<Geyser.SubscribeUpdate>;
  SubscribeReplayInfoRequest: MessageCodec<Geyser.SubscribeReplayInfoRequest>;
  SubscribeReplayInfoResponse: MessageCodec<Geyser.SubscribeReplayInfoResponse>;
};

export const SubscribeUpdateCodec = geyser.SubscribeUpdate;

const ser = <T>(codec: MessageCodec<T>) => (m: T): Buffer => {
  const bytes = codec.encode(m).finish();
  return asBuffer(bytes);
};
const de = <T>(codec: MessageCodec<T>) => (b: Buffer): T => codec.decode(b);

export const GEYSER_SERVICE = {
  subscribe: {
    path: '/geyser.Geyser/Subscribe',
    requestStream: true,
    responseStream: true,
    requestSerialize: ser(geyser.SubscribeRequest),
    requestDeserialize: de(geyser.SubscribeRequest),
    responseSerialize: ser(geyser.SubscribeUpdate),
    responseDeserialize: de(geyser.SubscribeUpdate),
  },
  subscribeReplayInfo: {
    path: '/geyser.Geyser/SubscribeReplayInfo',
    requestStream: false,
    responseStream: false,
    requestSerialize: ser(geyser.SubscribeReplayInfoRequest),
    requestDeserialize: de(geyser.SubscribeReplayInfoRequest),
    responseSerialize: ser(geyser.SubscribeReplayInfoResponse),
    responseDeserialize: de(geyser.SubscribeReplayInfoResponse),
  },
} satisfies ServiceDefinition;

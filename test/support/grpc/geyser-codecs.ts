// geyser.Geyser's Subscribe for plain grpc-js clients (tests and benches that count or time the bytes themselves):
// the codecs published in @triton-one/yellowstone-grpc (its generated geyser.js; the package's entry point loads its
// native client, the codecs are plain CommonJS beside it) and, since the package ships no service definition,
// Yellowstone's own path.
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import type { SubscribeRequest, SubscribeUpdate } from '@triton-one/yellowstone-grpc';

interface Codec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
  fromPartial(object: unknown): T;
}

const require = createRequire(import.meta.url);
export const geyserCodecs = require(path.join(path.dirname(require.resolve('@triton-one/yellowstone-grpc')), 'grpc', 'geyser.js')) as {
  SubscribeRequest: Codec<SubscribeRequest>;
  SubscribeUpdate: Codec<SubscribeUpdate>;
};

export const GEYSER_SUBSCRIBE = {
  subscribe: {
    path: '/geyser.Geyser/Subscribe',
    requestStream: true,
    responseStream: true,
    requestSerialize: (r: SubscribeRequest) => Buffer.from(geyserCodecs.SubscribeRequest.encode(r).finish()),
    requestDeserialize: (b: Buffer) => geyserCodecs.SubscribeRequest.decode(b),
    responseSerialize: (u: SubscribeUpdate) => Buffer.from(geyserCodecs.SubscribeUpdate.encode(u).finish()),
    responseDeserialize: (b: Buffer) => geyserCodecs.SubscribeUpdate.decode(b),
    originalName: 'subscribe',
  },
} satisfies grpc.ServiceDefinition;

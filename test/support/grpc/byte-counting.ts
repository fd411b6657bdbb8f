// gRPC clients that count the bytes of every message they receive, as the server serialized them (before gRPC
// compression, as the usage of api/access counts them): stream.Stream built at run time with proto-loader (as a
// third party builds one), geyser.Geyser with the codecs published in @triton-one/yellowstone-grpc (its native
// client decodes out of reach, so bytes cannot be counted there). For tests that check usage against what a
// client received.
import { createRequire } from 'node:module';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { SubscribeRequest, SubscribeUpdate } from '@triton-one/yellowstone-grpc';
import { PROTO_PATH } from '../../../api/grpc/stream/service.js';
import { LOADER_OPTIONS, Recorder, type Msg } from './clients.js';

export interface ByteCountingStream {
  recorder: Recorder;
  /** Bytes of every message received so far. */
  bytes(): number;
}

const OPTIONS: grpc.ClientOptions = { 'grpc.use_local_subchannel_pool': 1, 'grpc.max_receive_message_length': -1 };

function countingClient(service: grpc.ServiceDefinition, name: string, port: number, counter: { bytes: number }): Msg {
  const sub = service['Subscribe'] ?? service['subscribe']!;
  const method = service['Subscribe'] ? 'Subscribe' : 'subscribe';
  const counting = {
    ...service,
    [method]: {
      ...sub,
      responseDeserialize: (b: Buffer): unknown => {
        counter.bytes += b.length;
        return sub.responseDeserialize(b);
      },
    },
  };
  const Ctor = grpc.makeGenericClientConstructor(counting, name);
  return new Ctor(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), OPTIONS);
}

/** A stream.Stream Subscribe with `metadata` (the key). */
export function byteCountingStream(port: number, metadata: grpc.Metadata): ByteCountingStream {
  const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(PROTO_PATH, LOADER_OPTIONS)) as Msg;
  const counter = { bytes: 0 };
  const client = countingClient(pkg.stream.Stream.service as grpc.ServiceDefinition, 'stream.Stream', port, counter);
  return { recorder: new Recorder(client.Subscribe(metadata)), bytes: () => counter.bytes };
}

interface Codec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
}
// The package's entry point loads its native client; the codecs are plain CommonJS beside it.
const require = createRequire(import.meta.url);
const codecs = require(path.join(path.dirname(require.resolve('@triton-one/yellowstone-grpc')), 'grpc', 'geyser.js')) as {
  SubscribeRequest: Codec<SubscribeRequest>;
  SubscribeUpdate: Codec<SubscribeUpdate>;
};

// The package ships no service definition: the path is Yellowstone's.
const GEYSER_SUBSCRIBE: grpc.ServiceDefinition = {
  subscribe: {
    path: '/geyser.Geyser/Subscribe',
    requestStream: true,
    responseStream: true,
    requestSerialize: (r: SubscribeRequest) => Buffer.from(codecs.SubscribeRequest.encode(r).finish()),
    requestDeserialize: (b: Buffer) => codecs.SubscribeRequest.decode(b),
    responseSerialize: (u: SubscribeUpdate) => Buffer.from(codecs.SubscribeUpdate.encode(u).finish()),
    responseDeserialize: (b: Buffer) => codecs.SubscribeUpdate.decode(b),
    originalName: 'subscribe',
  },
};

/** A geyser.Geyser Subscribe with `metadata` (the key); the recorder holds the package's decoded SubscribeUpdates. */
export function byteCountingGeyser(port: number, metadata: grpc.Metadata): ByteCountingStream {
  const counter = { bytes: 0 };
  const client = countingClient(GEYSER_SUBSCRIBE, 'geyser.Geyser', port, counter);
  return { recorder: new Recorder(client.subscribe(metadata)), bytes: () => counter.bytes };
}

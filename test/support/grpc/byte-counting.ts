// gRPC clients that count the bytes of every message they receive, as the server serialized them (before gRPC
// compression, as the usage of api/access counts them): stream.Stream built at run time with proto-loader (as a
// third party builds one), geyser.Geyser with the codecs published in @triton-one/yellowstone-grpc (its native
// client decodes out of reach, so bytes cannot be counted there). For tests that check usage against what a
// client received.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_PATH } from '../../../api/grpc/stream/service.js';
import { GEYSER_SUBSCRIBE } from './geyser-codecs.js';
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

/** A geyser.Geyser Subscribe with `metadata` (the key); the recorder holds the package's decoded SubscribeUpdates. */
export function byteCountingGeyser(port: number, metadata: grpc.Metadata): ByteCountingStream {
  const counter = { bytes: 0 };
  const client = countingClient(GEYSER_SUBSCRIBE, 'geyser.Geyser', port, counter);
  return { recorder: new Recorder(client.subscribe(metadata)), bytes: () => counter.bytes };
}

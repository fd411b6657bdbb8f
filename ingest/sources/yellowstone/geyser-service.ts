// Yellowstone's gRPC service `geyser.Geyser` as a grpc-js service definition, built from the published
// package's generated codecs (@triton-one/yellowstone-grpc, generated without services): the methods the
// yellowstone source calls, with the paths of Yellowstone's geyser.proto. The package's own client is a
// native module that cannot be pointed at a plaintext test server, so the source uses grpc-js's generic
// client on this definition; a test server can serve the same definition.
import type { ServiceDefinition } from '@grpc/grpc-js';
import { geyserMethod } from '../../../schemas/yellowstone/geyser-method.js';
import { geyserCodecs as geyser } from '../../../schemas/yellowstone/storage.js';

export type { GetVersionResponse, SubscribeRequest, SubscribeReplayInfoResponse, SubscribeUpdate } from '@triton-one/yellowstone-grpc';

export const SubscribeUpdateCodec = geyser.SubscribeUpdate;

export const GEYSER_SERVICE = {
  subscribe: geyserMethod('Subscribe', geyser.SubscribeRequest, geyser.SubscribeUpdate, { request: true, response: true }),
  subscribeReplayInfo: geyserMethod('SubscribeReplayInfo', geyser.SubscribeReplayInfoRequest, geyser.SubscribeReplayInfoResponse),
  getVersion: geyserMethod('GetVersion', geyser.GetVersionRequest, geyser.GetVersionResponse),
} satisfies ServiceDefinition;

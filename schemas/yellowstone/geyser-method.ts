// grpc-js method definitions of Yellowstone's geyser.Geyser over the published package's codecs (the package
// is generated without services, so the paths are geyser.proto's: /geyser.Geyser/<Method>). Shared by the
// api's geyser.Geyser server and the yellowstone source's client.
import { asBuffer } from '../bytes.js';
import type { MessageCodec } from './storage.js';

export const GEYSER_SERVICE_NAME = 'geyser.Geyser';

export const serializeWith =
  <T>(codec: MessageCodec<T>) =>
  (m: T): Buffer =>
    asBuffer(codec.encode(m).finish());

const deserializeWith =
  <T>(codec: MessageCodec<T>) =>
  (b: Buffer): T =>
    codec.decode(b);

/** One method: `name` as in geyser.proto, its request and response codecs, and whether each side streams. */
export function geyserMethod<Req, Res>(
  name: string,
  req: MessageCodec<Req>,
  res: MessageCodec<Res>,
  streams = { request: false, response: false },
) {
  return {
    path: `/${GEYSER_SERVICE_NAME}/${name}`,
    requestStream: streams.request,
    responseStream: streams.response,
    requestSerialize: serializeWith(req),
    requestDeserialize: deserializeWith(req),
    responseSerialize: serializeWith(res),
    responseDeserialize: deserializeWith(res),
  };
}

// geyser.Geyser's messages and grpc-js service definition, from the published @triton-one/yellowstone-grpc
// package (never copied into this repository). The package's entry point loads its native client; its
// generated codecs are plain CommonJS modules in the same package, loaded from the folder Node resolves
// (as schemas/yellowstone/storage.ts does). The package is generated without services, so the method paths
// are Yellowstone's geyser.proto's: /geyser.Geyser/<Method>.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServiceDefinition } from '@grpc/grpc-js';
import type * as G from '@triton-one/yellowstone-grpc';
import { asBuffer } from '../../schemas/bytes.js';

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

/** SubscribeRequest's map fields (geyser.proto numbers): filter name -> filter message. */
const MAP_FIELDS: Record<number, 'accounts' | 'slots' | 'transactions' | 'transactionsStatus' | 'blocks' | 'blocksMeta' | 'entry'> = {
  1: 'accounts',
  2: 'slots',
  3: 'transactions',
  10: 'transactionsStatus',
  4: 'blocks',
  5: 'blocksMeta',
  8: 'entry',
};

function varint(b: Uint8Array, pos: number): [number, number] {
  let v = 0;
  let shift = 0;
  for (;;) {
    if (pos >= b.length) throw new Error('truncated varint');
    const byte = b[pos++]!;
    v += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [v, pos];
    shift += 7;
    if (shift > 63) throw new Error('varint too long');
  }
}

/** Field 1 (the key) of a map entry; '' when absent (the default). */
function entryKey(b: Uint8Array): string {
  let pos = 0;
  let key = '';
  while (pos < b.length) {
    const [tag, p1] = varint(b, pos);
    pos = p1;
    const wt = tag & 7;
    if (wt === 0) pos = varint(b, pos)[1];
    else if (wt === 1) pos += 8;
    else if (wt === 5) pos += 4;
    else if (wt === 2) {
      const [len, p2] = varint(b, pos);
      if (tag >>> 3 === 1) key = Buffer.from(b.subarray(p2, p2 + len)).toString('utf8');
      pos = p2 + len;
    } else throw new Error(`unsupported wire type ${wt}`);
  }
  return key;
}

/**
 * SubscribeRequest as Yellowstone's (prost) server reads it. Rust clients (the package's own napi client
 * among them) leave out a map entry's value when it is the default message (`"all": {}` goes out as the
 * key alone); the generated decoder drops such entries, prost reads them as the default filter. The
 * entries the decoder dropped are put back here with an empty filter.
 */
export function decodeSubscribeRequest(b: Uint8Array): G.SubscribeRequest {
  const req = geyser.SubscribeRequest.decode(b);
  let pos = 0;
  while (pos < b.length) {
    const [tag, p1] = varint(b, pos);
    pos = p1;
    const wt = tag & 7;
    if (wt === 0) pos = varint(b, pos)[1];
    else if (wt === 1) pos += 8;
    else if (wt === 5) pos += 4;
    else if (wt === 2) {
      const [len, p2] = varint(b, pos);
      const field = MAP_FIELDS[tag >>> 3];
      if (field !== undefined) {
        const key = entryKey(b.subarray(p2, p2 + len));
        const map = req[field] as Record<string, unknown>;
        if (!Object.hasOwn(map, key)) map[key] = EMPTY_FILTER[field]();
      }
      pos = p2 + len;
    } else throw new Error(`unsupported wire type ${wt}`);
  }
  return req;
}

const EMPTY_FILTER: Record<(typeof MAP_FIELDS)[number], () => unknown> = {
  accounts: () => ({ account: [], owner: [], filters: [] }),
  slots: () => ({}),
  transactions: () => ({ accountInclude: [], accountExclude: [], accountRequired: [] }),
  transactionsStatus: () => ({ accountInclude: [], accountExclude: [], accountRequired: [] }),
  blocks: () => ({ accountInclude: [] }),
  blocksMeta: () => ({}),
  entry: () => ({}),
};
export const GEYSER_SERVICE_NAME = 'geyser.Geyser';

const ser =
  <T>(codec: MessageCodec<T>) =>
  (m: T): Buffer => {
    const bytes = codec.encode(m).finish();
    return asBuffer(bytes);
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
    requestDeserialize: (b: Buffer): G.SubscribeRequest => decodeSubscribeRequest(b),
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

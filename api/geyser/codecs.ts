// geyser.Geyser as this server answers it: the grpc-js service definition over the published
// @triton-one/yellowstone-grpc codecs (schemas/yellowstone/storage.ts loads them, geyser-method.ts builds the
// methods), with Subscribe's requests read leniently and its updates passed through as bytes.
import type { ServiceDefinition } from '@grpc/grpc-js';
import type * as G from '@triton-one/yellowstone-grpc';
import { GEYSER_SERVICE_NAME, geyserMethod, serializeWith } from '../../schemas/yellowstone/geyser-method.js';
import { geyserCodecs as geyser } from '../../schemas/yellowstone/storage.js';

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
/** The service as this server answers it: Subscribe's updates leave as bytes encoded once per event (pass-through). */
export const GEYSER_SERVICE = {
  subscribe: {
    path: `/${GEYSER_SERVICE_NAME}/Subscribe`,
    requestStream: true,
    responseStream: true,
    requestSerialize: serializeWith(geyser.SubscribeRequest),
    requestDeserialize: (b: Buffer): G.SubscribeRequest => decodeSubscribeRequest(b),
    responseSerialize: (b: Buffer): Buffer => b,
    responseDeserialize: (b: Buffer): Buffer => b,
  },
  subscribeReplayInfo: geyserMethod('SubscribeReplayInfo', geyser.SubscribeReplayInfoRequest, geyser.SubscribeReplayInfoResponse),
  ping: geyserMethod('Ping', geyser.PingRequest, geyser.PongResponse),
  getLatestBlockhash: geyserMethod('GetLatestBlockhash', geyser.GetLatestBlockhashRequest, geyser.GetLatestBlockhashResponse),
  getBlockHeight: geyserMethod('GetBlockHeight', geyser.GetBlockHeightRequest, geyser.GetBlockHeightResponse),
  getSlot: geyserMethod('GetSlot', geyser.GetSlotRequest, geyser.GetSlotResponse),
  isBlockhashValid: geyserMethod('IsBlockhashValid', geyser.IsBlockhashValidRequest, geyser.IsBlockhashValidResponse),
  getVersion: geyserMethod('GetVersion', geyser.GetVersionRequest, geyser.GetVersionResponse),
} satisfies ServiceDefinition;

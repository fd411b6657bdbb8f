// geyser.Geyser as this server answers it: the grpc-js service definition over the published
// @triton-one/yellowstone-grpc codecs (schemas/yellowstone/storage.ts loads them, geyser-method.ts builds the
// methods), with Subscribe's requests read leniently and its updates passed through as bytes.
import type { ServiceDefinition } from '@grpc/grpc-js';
import type * as G from '@triton-one/yellowstone-grpc';
import { GEYSER_SERVICE_NAME, geyserMethod, serializeWith } from '../../../schemas/yellowstone/geyser-method.js';
import { geyserCodecs as geyser } from '../../../schemas/yellowstone/storage.js';

export const SubscribeUpdateCodec = geyser.SubscribeUpdate;

type MapField = 'accounts' | 'slots' | 'transactions' | 'transactionsStatus' | 'blocks' | 'blocksMeta' | 'entry';

interface EntryCodec {
  decode(input: Uint8Array): { key: string; value: unknown };
}

/** SubscribeRequest's map fields (geyser.proto numbers): filter name -> filter message, and their entry codecs. */
const MAP_FIELDS: Record<number, { field: MapField; entry: EntryCodec }> = {
  1: { field: 'accounts', entry: geyser.SubscribeRequest_AccountsEntry },
  2: { field: 'slots', entry: geyser.SubscribeRequest_SlotsEntry },
  3: { field: 'transactions', entry: geyser.SubscribeRequest_TransactionsEntry },
  10: { field: 'transactionsStatus', entry: geyser.SubscribeRequest_TransactionsStatusEntry },
  4: { field: 'blocks', entry: geyser.SubscribeRequest_BlocksEntry },
  5: { field: 'blocksMeta', entry: geyser.SubscribeRequest_BlocksMetaEntry },
  8: { field: 'entry', entry: geyser.SubscribeRequest_EntryEntry },
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

/**
 * SubscribeRequest as Yellowstone's (prost) server reads it. The package's generated decoder gets two things
 * wrong for a server, so its map fields are read again here, entry by entry with the package's entry codecs:
 * - it assigns entries onto plain objects, so a filter named `__proto__` sets the object's prototype instead
 *   of adding an entry (the filter vanished: no update, no error). The maps here have no prototype, so every
 *   name Yellowstone accepts is an ordinary key (`constructor`, `prototype` and `__proto__` included);
 * - Rust clients (the package's own napi client among them) leave out a map entry's value when it is the
 *   default message (`"all": {}` goes out as the key alone); the generated decoder drops such entries, prost
 *   reads them as the default filter, and so do we.
 * A key sent twice keeps its last value, as in prost.
 */
export function decodeSubscribeRequest(b: Uint8Array): G.SubscribeRequest {
  const req = geyser.SubscribeRequest.decode(b);
  const maps = new Map<MapField, Record<string, unknown>>();
  for (const { field } of Object.values(MAP_FIELDS)) maps.set(field, Object.create(null) as Record<string, unknown>);
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
      const map = MAP_FIELDS[tag >>> 3];
      if (map !== undefined) {
        const { key, value } = map.entry.decode(b.subarray(p2, p2 + len));
        maps.get(map.field)![key] = value ?? EMPTY_FILTER[map.field]();
      }
      pos = p2 + len;
    } else throw new Error(`unsupported wire type ${wt}`);
  }
  for (const [field, map] of maps) (req as unknown as Record<MapField, unknown>)[field] = map;
  return req;
}

const EMPTY_FILTER: Record<MapField, () => unknown> = {
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

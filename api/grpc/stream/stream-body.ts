// stream.Stream's bytes for one shared live update: the SubscribeUpdate WITHOUT `filters` is encoded once
// per data-slice set (`SharedEvent.encoded`) and shared by every stream; each stream puts its own
// `filters` prefix in front (api/grpc/filters-prefix.ts explains why the concatenation is one valid message).
import type { Timestamp } from '../../../proto/gen/google/protobuf/timestamp.js';
import type { DataSlice } from '../../filters/index.js';
import type { SharedEvent } from '../../live/index.js';
import { encodeAccountBody, encodeTransactionBody } from './encode.js';
import { reframeAccount, reframeTransaction } from '../../../schemas/reframe-stream.js';

function timestampOf(ms: number): Timestamp {
  return { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 };
}

/** The body of a transaction or account update; undefined for kinds stream.Stream does not carry. */
export function streamBody(u: SharedEvent, slices: readonly DataSlice[], sliceKey: string): Buffer | undefined {
  const live = u.live;
  switch (live.kind) {
    case 'transaction':
      return u.encoded('stream', () =>
        live.scan ? reframeTransaction(live.scan, u.readAt) : encodeTransactionBody(live.event, timestampOf(u.readAt)),
      );
    case 'account':
      if (slices.length === 0) {
        return u.encoded('stream', () =>
          live.scan ? reframeAccount(live.scan, u.readAt) : encodeAccountBody(live.event, timestampOf(u.readAt), slices),
        );
      }
      return u.encoded(`stream/${sliceKey}`, () => encodeAccountBody(live.event, timestampOf(u.readAt), slices));
    default:
      return undefined;
  }
}

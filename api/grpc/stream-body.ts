// stream.Stream's bytes for one shared live update: the SubscribeUpdate WITHOUT `filters` is encoded once
// per data-slice set (`SharedEvent.encoded`) and shared by every stream; each stream puts its own
// `filters` prefix in front (encode.ts explains why the concatenation is one valid message).
import type { Timestamp } from '../../proto/gen/google/protobuf/timestamp.js';
import type { DataSlice } from '../filters/index.js';
import type { SharedEvent } from '../live/index.js';
import { encodeAccountBody, encodeFiltersPrefix, encodeTransactionBody } from './encode.js';
import { reframeAccount, reframeTransaction } from './reframe.js';
import type { Outgoing } from './outbound.js';

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
        return u.encoded('stream', () => (live.scan ? reframeAccount(live.scan, u.readAt) : encodeAccountBody(live.event, timestampOf(u.readAt), slices)));
      }
      return u.encoded(`stream/${sliceKey}`, () => encodeAccountBody(live.event, timestampOf(u.readAt), slices));
    default:
      return undefined;
  }
}

/** Per-stream cache of the `filters` prefix: consecutive updates usually match the same names. */
export class PrefixCache {
  private key: string | undefined;
  private bytes: Buffer = Buffer.alloc(0);

  get(names: readonly string[]): Buffer {
    // The count keeps [] and [''] apart.
    const key = `${names.length}\u0000${names.length === 1 ? names[0]! : names.join('\u0000')}`;
    if (key !== this.key) {
      this.key = key;
      this.bytes = encodeFiltersPrefix(names);
    }
    return this.bytes;
  }
}

export function outgoing(slot: bigint, prefix: Buffer, body: Buffer): Outgoing {
  return { slot, prefix, bytes: body };
}

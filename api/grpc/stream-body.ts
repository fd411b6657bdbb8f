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

/** Per-stream cache of the `filters` prefix: consecutive updates usually match the same names (compared
 * name by name: no key string built per update). */
export class PrefixCache {
  private names: readonly string[] | undefined;
  private bytes: Buffer = Buffer.alloc(0);

  get(names: readonly string[]): Buffer {
    if (!this.same(names)) {
      this.names = [...names];
      this.bytes = encodeFiltersPrefix(names);
    }
    return this.bytes;
  }

  private same(names: readonly string[]): boolean {
    const last = this.names;
    if (last === undefined || last.length !== names.length) return false;
    for (let i = 0; i < names.length; i++) if (last[i] !== names[i]) return false;
    return true;
  }
}

export function outgoing(slot: bigint, prefix: Buffer, body: Buffer): Outgoing {
  return { slot, prefix, bytes: body };
}

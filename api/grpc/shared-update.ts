// One chain update with its encodings built lazily, once, and shared by every stream that matches it.
// Account data slices change the bytes, so account bodies are cached per distinct slice set.
import type { Timestamp } from '../../proto/gen/google/protobuf/timestamp.js';
import type { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import type { DataSlice } from '../filters/index.js';
import { encodeAccountBody, encodeTransactionBody, encodeFiltersPrefix, timestampNow } from './encode.js';
import type { Outgoing } from './outbound.js';

export type UpdateEvent = { kind: 'transaction'; event: TransactionEvent } | { kind: 'account'; event: AccountEvent };

export class SharedUpdate {
  /** created_at: when the update was first built from the event. */
  readonly createdAt: Timestamp = timestampNow();
  readonly slot: bigint;
  private whole: Buffer | undefined;
  private sliced: Map<string, Buffer> | undefined;

  constructor(readonly update: UpdateEvent) {
    this.slot = update.event.slot;
  }

  /** The SubscribeUpdate bytes without `filters`. */
  body(slices: readonly DataSlice[], sliceKey: string): Buffer {
    const u = this.update;
    if (u.kind === 'transaction') return (this.whole ??= encodeTransactionBody(u.event, this.createdAt));
    if (slices.length === 0) return (this.whole ??= encodeAccountBody(u.event, this.createdAt, slices));
    this.sliced ??= new Map();
    let b = this.sliced.get(sliceKey);
    if (b === undefined) this.sliced.set(sliceKey, (b = encodeAccountBody(u.event, this.createdAt, slices)));
    return b;
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

export function outgoingOf(u: SharedUpdate, prefix: Buffer, slices: readonly DataSlice[], sliceKey: string): Outgoing {
  const body = u.body(slices, sliceKey);
  return { slot: u.slot, bytes: prefix.length === 0 ? body : Buffer.concat([prefix, body], prefix.length + body.length) };
}

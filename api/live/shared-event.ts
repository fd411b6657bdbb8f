// One live update as every session of every transport sees it: the decoded event, when the api read it,
// and its wire encodings built lazily, once per (format, variant), shared by every session of that format.
// A variant is what changes the bytes within a format (account data slices, a stream's filter names are
// NOT one: transports prefix those per session).
import type { AccountEvent, EntryEvent, SlotEvent, TransactionEvent } from '../../schemas/gen/events.js';
import type { AccountScan, TransactionScan } from '../../schemas/scan.js';
import type { AssembledBlock } from './block-assembler.js';

/**
 * Live transactions and accounts carry their record's scan (schemas/scan.ts); reading `event` decodes the
 * record in full on first use (api/live/lazy-record.ts), so a transport that can work from the scan's
 * bytes (stream.Stream re-frames them) never pays for the decode. Replayed ones carry no scan.
 */
export type LiveEvent =
  | { readonly kind: 'transaction'; readonly event: TransactionEvent; readonly scan?: TransactionScan }
  | { readonly kind: 'account'; readonly event: AccountEvent; readonly scan?: AccountScan }
  /** A slot status change, for slot filters (every status the topics carry). */
  | { readonly kind: 'slot'; readonly event: SlotEvent }
  /** A slot's end marker with its block meta (SlotEvent.block set), for blocks_meta filters. */
  | { readonly kind: 'blockMeta'; readonly event: SlotEvent }
  | { readonly kind: 'entry'; readonly event: EntryEvent }
  /** A whole block (block-assembler.ts), for blocks filters. */
  | { readonly kind: 'block'; readonly event: AssembledBlock };

export type LiveKind = LiveEvent['kind'];

export class SharedEvent {
  /** When the api read the record (Date.now()): created_at on the wire, and where api-internal latency starts. */
  readonly readAt = Date.now();
  readonly slot: bigint;
  private encodings: Map<string, unknown> | undefined;
  private first: unknown;
  private firstKey: string | undefined;

  constructor(readonly live: LiveEvent) {
    this.slot = (live.kind === 'transaction' || live.kind === 'account') && live.scan ? live.scan.slot : live.event.slot;
  }

  get kind(): LiveKind {
    return this.live.kind;
  }

  /**
   * The value `build` makes for `key` (a wire format and variant, e.g. `geyser` or `stream/0:32`), built
   * on first use and shared afterwards. Most events are encoded in one form only: that one skips the map.
   */
  encoded<T>(key: string, build: () => T): T {
    if (this.firstKey === key) return this.first as T;
    if (this.firstKey === undefined) {
      this.firstKey = key;
      return (this.first = build()) as T;
    }
    this.encodings ??= new Map();
    if (this.encodings.has(key)) return this.encodings.get(key) as T;
    const v = build();
    this.encodings.set(key, v);
    return v;
  }
}

/** A scanned tail event as a live update, its decode still lazy (a class: one is made per matched record). */
class ScannedUpdate<K extends 'transaction' | 'account', E, S> {
  constructor(
    readonly kind: K,
    private readonly source: { readonly event: E; readonly scan: S },
  ) {}
  get scan(): S {
    return this.source.scan;
  }
  get event(): E {
    return this.source.event;
  }
}

/** The live update of a tail event, keeping its decode lazy. */
export function transactionUpdate(e: { readonly event: TransactionEvent; readonly scan?: TransactionScan }): LiveEvent {
  return e.scan === undefined ? { kind: 'transaction', event: e.event } : new ScannedUpdate('transaction', e as { event: TransactionEvent; scan: TransactionScan });
}

export function accountUpdate(e: { readonly event: AccountEvent; readonly scan?: AccountScan }): LiveEvent {
  return e.scan === undefined ? { kind: 'account', event: e.event } : new ScannedUpdate('account', e as { event: AccountEvent; scan: AccountScan });
}

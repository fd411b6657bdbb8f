// One live update as every session of every transport sees it: the decoded event, when the api read it,
// and its wire encodings built lazily, once per (format, variant), shared by every session of that format.
// A variant is what changes the bytes within a format (account data slices, a stream's filter names are
// NOT one: transports prefix those per session).
import type { AccountEvent, EntryEvent, ParsedTransactionEvent, SlotEvent, TransactionEvent } from '../../schemas/gen/events.js';
import type { AccountScan, TransactionScan } from '../../schemas/scan.js';
import type { AssembledBlock } from './block-assembler.js';
import { filledStatus } from './slot-statuses.js';
import type { DataRecord, SlotRecord } from './stream-event.js';

/**
 * Transactions and accounts, live or replayed, are their records (lazy-record.ts): they carry the record's
 * scan (schemas/scan.ts), and reading `event` decodes the record in full on first use, so a transport that
 * can work from the scan's bytes (stream.Stream re-frames them) never pays for the decode. `scan` is
 * optional here only for updates built without a record (transports fall back to `event`).
 */
export type LiveEvent =
  | { readonly kind: 'transaction'; readonly event: TransactionEvent; readonly scan?: TransactionScan }
  /** `snapshot`: the state at a snapshot's slot read from the views (api/live/snapshot.ts), not a write read
   * from Kafka (a source's own is_startup writes are those). */
  | { readonly kind: 'account'; readonly event: AccountEvent; readonly scan?: AccountScan; readonly snapshot?: true }
  /** A slot status change, for slot filters (every status the topics carry). */
  | { readonly kind: 'slot'; readonly event: SlotEvent }
  /** A slot's end marker with its block meta (SlotEvent.block set), for blocks_meta filters. */
  | { readonly kind: 'blockMeta'; readonly event: SlotEvent }
  | { readonly kind: 'entry'; readonly event: EntryEvent }
  /** A SubscribeParsed update the ingest built (the parsed topic, ingest/publish/parsed-slot.ts), for parsed filters. */
  | { readonly kind: 'parsed'; readonly event: ParsedTransactionEvent }
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
      return (this.first = build());
    }
    this.encodings ??= new Map();
    if (this.encodings.has(key)) return this.encodings.get(key) as T;
    const v = build();
    this.encodings.set(key, v);
    return v;
  }
}

// The one mapping from what a reader hands on (stream-event.ts: the live tail's records for the hub, a
// replay's for its session) to shared updates. No wrapper per record: the kinds are one vocabulary.

/** A transaction, account or entry record is its own update (its decode stays lazy). */
export function recordUpdate(e: DataRecord): SharedEvent {
  return new SharedEvent(e);
}

/** A slot status update: the record itself, or for a level the source skipped, that level filled in (filledStatus). */
export function statusUpdate(e: SlotRecord, status: number): SharedEvent {
  return new SharedEvent(status === e.event.status ? e : { kind: 'slot', event: filledStatus(e.event, status) });
}

/** A slot's end marker as a block meta update. */
export function blockMetaUpdate(e: SlotRecord): SharedEvent {
  return new SharedEvent({ kind: 'blockMeta', event: e.event });
}

export function blockUpdate(b: AssembledBlock): SharedEvent {
  return new SharedEvent({ kind: 'block', event: b });
}

import type { ChainEvent, UpstreamVersion } from '../schemas/codec.js';
/** Everything a source emits for one slot, in publish order: an epoch record before the epoch's first slot, the slot's status records (including status changes of earlier slots that happen now), transactions in block order, then account writes. */
export interface SlotBatch {
  slot: bigint;
  events: ChainEvent[];
  /** More events of this slot follow in the next batch (a source that hands a slot over as it happens). The
   * last batch of a slot leaves it unset; the publisher then ends the slot with its marker (ingest/publish/framer.ts). */
  partial?: boolean;
  /** The version of the node the source reads (where it knows it): the framer puts it on the slot's end marker. */
  upstream?: UpstreamVersion;
}
export interface ChainSource {
  /** Yields batches in slot order starting after `afterSlot` (undefined: from genesis, genesis accounts with is_startup first). Deterministic: the same options give the same batches. Pacing (slot clock) is the source's job. */
  batches(opts: { afterSlot?: bigint; signal?: AbortSignal }): AsyncIterable<SlotBatch>;
  /** Human-readable notes for the log at start (e.g. fast mode uses unsigned signatures). */
  readonly notes: string[];
}

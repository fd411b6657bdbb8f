// What a stream server needs from the projector's views, as ONE interface (issue 33, item 1): a from_slot
// replay's starting offsets (slot_offsets), the oldest slot a replay can start at, the slot a snapshot is
// taken at and the snapshot's accounts, and where a signature stands (PubSub's signatureSubscribe). Durable
// cursors need none of it: they live in Kafka (cursor-store.ts).
// Two implementations: ClickHouse itself (views-clickhouse.ts: the engine process, or a stream process beside a
// ClickHouse server) and the engine process over its internal HTTP endpoint (views-remote.ts, served by
// views-endpoint.ts). A stream process with neither runs without: replays scan from the log start, snapshots
// and the views' signature look-up are unavailable.
import type { SnapshotCandidates } from '../views/account-snapshot.js';

export type { SnapshotCandidates } from '../views/account-snapshot.js';

export type ViewsCommitment = 'processed' | 'confirmed' | 'finalized';

/** slot_offsets per topic and partition for a from_slot: the first offset of a slot >= from (null: none yet)
 * and the last offset the view indexed. Offsets as decimal text (u64). */
export interface SlotOffsetRow {
  topic: string;
  partition: number;
  start: string | null;
  indexed: string;
}

/** A partition whose log start moved (retention deleted records): its first retained offset. */
export interface LogStart {
  topic: string;
  partition: number;
  low: bigint;
}

export interface ViewsSignatureStatus {
  slot: bigint;
  /** Agave's JSON error, or null. */
  err: string | null;
  level: ViewsCommitment;
}

export interface StreamViews {
  /** Where a from_slot replay starts in each partition of `topics` the view knows. */
  replayOffsets(topics: readonly string[], fromSlot: bigint): Promise<SlotOffsetRow[]>;
  /** The oldest slot whose records are complete in every partition given (undefined: cannot tell). */
  firstAvailable(starts: readonly LogStart[]): Promise<bigint | undefined>;
  /** The newest slot the views hold at `commitment` (undefined: none yet). */
  head(commitment: ViewsCommitment): Promise<bigint | undefined>;
  /** The snapshot's rows at `slot` (api/views/account-snapshot.ts SNAPSHOT_FORMAT), chunk by chunk; stopping the
   * iteration cancels the read. */
  accountSnapshot(candidates: SnapshotCandidates, slot: bigint): AsyncIterable<Buffer>;
  /** Where the views place a signature (base58), as getSignatureStatuses does; `client` shares the views' admission. */
  signatureStatus(signature: string, client: string, signal: AbortSignal): Promise<ViewsSignatureStatus | undefined>;
}

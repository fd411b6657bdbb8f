// Where transactions stand, read from the transactions-by-signature view: the slot each landed in, its error,
// how far it is confirmed. Domain values (no JSON): getSignatureStatuses shapes them as Agave's
// TransactionStatus, and signatureSubscribe's look-up (api/pubsub/signature-lookup.ts) reads the same rows, so
// both endpoints agree on where a transaction stands. Without `searchHistory` only what Agave's status cache
// holds (the last 300 rooted slots and what came after); with it, the rooted (finalized) history too.
import type { Commitment } from '../solana-json/params.js';
import { queryRows, u64, type QueryClient } from './query.js';
import type { ViewsState } from './state.js';

/** Slots of rooted history Agave's status cache keeps (MAX_CACHE_ENTRIES = MAX_RECENT_BLOCKHASHES). */
export const STATUS_CACHE_SLOTS = 300n;
/** Agave counts confirmations through a vote lockout array of this depth (MAX_LOCKOUT_HISTORY). */
export const MAX_CONFIRMATIONS = 31;

/** The views' heads a status is measured against (confirmed and finalized fall back to processed). */
export interface StatusHeads {
  processed: bigint;
  confirmed: bigint;
  finalized: bigint;
}

export interface SignatureStatus {
  slot: bigint;
  /** The stored error: Agave's JSON text, or null. */
  err: string | null;
  /** null once finalized; 0 while only processed; while confirmed 1 + the blocks confirmed above it, at most 31. */
  confirmations: number | null;
  level: Commitment;
}

/** Pure: the heads of `state`, undefined while the views hold no processed slot. */
export function statusHeads(state: ViewsState): StatusHeads | undefined {
  const processed = state.head.processed;
  if (processed === undefined) return undefined;
  return { processed, confirmed: state.head.confirmed ?? processed, finalized: state.head.finalized ?? processed };
}

/**
 * Pure: one status. Finalized: no confirmation count (null). Confirmed: 1 plus the blocks confirmed on top
 * of it, at most 31 (a stand-in for Agave's vote-lockout depth, which the views do not hold); processed: 0.
 */
export function statusOf(slot: bigint, err: string | null, heads: StatusHeads, confirmedBlocks: readonly bigint[]): SignatureStatus {
  const finalized = slot <= heads.finalized;
  const confirmed = slot <= heads.confirmed;
  const confirmations = finalized ? null : confirmed ? Math.min(MAX_CONFIRMATIONS, 1 + confirmedBlocks.filter((b) => b > slot).length) : 0;
  return { slot, err, confirmations, level: finalized ? 'finalized' : confirmed ? 'confirmed' : 'processed' };
}

/** Pure: whether a landed transaction is visible to this request (status cache, or rooted history when searched). */
export function visible(slot: bigint, heads: StatusHeads, searchHistory: boolean): boolean {
  if (searchHistory && slot <= heads.finalized) return true;
  return slot + STATUS_CACHE_SLOTS > heads.finalized;
}

// Transactions of the asked signatures up to the processed head, leaving out those of slots marked skipped
// (a fork that lost); LIMIT 1 BY drops rows re-delivered before a merge.
const STATUS_SQL = `
SELECT signature, slot, err FROM {db:Identifier}.transactions
WHERE signature IN {sigs:Array(String)} AND slot <= {head:UInt64}
  AND slot NOT IN (
    SELECT slot FROM {db:Identifier}.slot_status
    WHERE status = 3 AND slot IN (SELECT slot FROM {db:Identifier}.transactions WHERE signature IN {sigs:Array(String)}))
LIMIT 1 BY signature`;

// Produced blocks above the finalized head up to the confirmed head, to count confirmations.
const CONFIRMED_BLOCKS_SQL = `
SELECT DISTINCT slot FROM {db:Identifier}.blocks
WHERE slot > {finalized:UInt64} AND slot <= {confirmed:UInt64}
  AND slot NOT IN (SELECT slot FROM {db:Identifier}.slot_status WHERE slot > {finalized:UInt64} AND slot <= {confirmed:UInt64} AND status = 3)`;

interface Found {
  signature: string;
  slot: string;
  err: string | null;
}

/** The status of each of `signatures` (undefined: not found, or not visible to this request), in their order. */
export async function readSignatureStatuses(
  ch: QueryClient,
  db: string,
  signatures: readonly string[],
  heads: StatusHeads,
  searchHistory: boolean,
): Promise<(SignatureStatus | undefined)[]> {
  const found = new Map<string, Found>();
  if (signatures.length > 0) {
    const rows = await queryRows<Found>(ch, STATUS_SQL, { db, sigs: [...new Set(signatures)], head: heads.processed });
    for (const r of rows) if (visible(u64(r.slot), heads, searchHistory)) found.set(r.signature, r);
  }
  let confirmedBlocks: bigint[] = [];
  if ([...found.values()].some((r) => u64(r.slot) > heads.finalized && u64(r.slot) <= heads.confirmed)) {
    const rows = await queryRows<{ slot: string }>(ch, CONFIRMED_BLOCKS_SQL, {
      db,
      finalized: heads.finalized,
      confirmed: heads.confirmed,
    });
    confirmedBlocks = rows.map((r) => u64(r.slot));
  }
  return signatures.map((s) => {
    const r = found.get(s);
    return r === undefined ? undefined : statusOf(u64(r.slot), r.err, heads, confirmedBlocks);
  });
}

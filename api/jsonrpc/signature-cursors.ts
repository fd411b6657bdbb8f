// The cursors of the history methods, located: getSignaturesForAddress's `before`/`until`, getTransactionsForAddress's
// `filters.signature` bounds and its `paginationToken`. Agave (4.0, PR #7937) answers -32020 `Transaction {signature}
// not found` for a `before` or `until` it cannot locate, rather than an empty page (before) or the newest page
// (until): both read as an answer and are not one. Every cursor here follows that rule.
// Located means: the views hold the transaction, in a slot the request's commitment reaches (at or below the
// commitment's newest slot). A cursor held only above it (a confirmed transaction asked for at finalized) is not
// found either: Agave looks the signature up among the rooted slots at finalized and among the rooted and
// confirmed ones at confirmed (Blockstore::get_transaction_status with the commitment's unrooted slots), so its
// answer is the same -32020. getTransactionsForAddress, which leaves out the transactions of a lost fork, does
// not locate a cursor there either; getSignaturesForAddress lists them and so locates them.
import { filterTransactionNotFound } from '../solana-json/errors.js';
import { queryRows, u64, type QueryClient } from '../views/query.js';
import type { BlockPosition } from './history-range.js';

/** One row per signature named; the transactions table is keyed by signature (a point read each). */
export const LOCATE_SQL = `
SELECT signature, slot, position
FROM {db:Identifier}.transactions
WHERE signature IN {signatures:Array(String)}
LIMIT 1 BY signature`;

/** Whether a transaction stands at a block position: transaction_records is keyed by (slot, position). */
export const AT_POSITION_SQL = `
SELECT signature FROM {db:Identifier}.transaction_records
WHERE slot = {slot:UInt64} AND position = {position:UInt32}
LIMIT 1`;

export const LOST_SLOTS_SQL = `SELECT DISTINCT slot FROM {db:Identifier}.slot_status WHERE slot IN {slots:Array(UInt64)} AND status = 3`;

export interface CursorContext {
  ch: QueryClient;
  db: string;
  /** The newest slot the request's commitment reaches (its context slot). */
  contextSlot: bigint;
  commitment: string;
  /** Whether a transaction of a slot marked skipped (a lost fork) counts as not found. */
  lostForkUnseen: boolean;
}

async function lostSlots(c: CursorContext, slots: bigint[]): Promise<Set<bigint>> {
  if (!c.lostForkUnseen || slots.length === 0) return new Set();
  const rows = await queryRows<{ slot: string }>(c.ch, LOST_SLOTS_SQL, { db: c.db, slots });
  return new Set(rows.map((r) => u64(r.slot)));
}

/** Why a transaction held at `slot` is not visible to the request, or undefined when it is. */
function unseen(c: CursorContext, slot: bigint, lost: ReadonlySet<bigint>): string | undefined {
  if (slot > c.contextSlot) {
    return `the transaction is in slot ${slot}, above the newest ${c.commitment} slot (${c.contextSlot}); ask at a lower commitment or later`;
  }
  if (lost.has(slot)) return `the transaction is in slot ${slot}, marked skipped: a lost fork`;
  return undefined;
}

/**
 * Each signature's block position, in the order given (the first one not located is the error, as Agave checks
 * `before` then `until`); -32020 for a signature the request cannot see.
 */
export async function locateSignatures(c: CursorContext, signatures: readonly string[]): Promise<BlockPosition[]> {
  if (signatures.length === 0) return [];
  const rows = await queryRows<{ signature: string; slot: string; position: number }>(c.ch, LOCATE_SQL, {
    db: c.db,
    signatures: [...new Set(signatures)],
  });
  const found = new Map(rows.map((r) => [r.signature, { slot: u64(r.slot), position: BigInt(r.position) }]));
  const lost = await lostSlots(c, [...new Set([...found.values()].map((p) => p.slot))]);
  return signatures.map((sig) => {
    const at = found.get(sig);
    if (at === undefined) throw filterTransactionNotFound(sig, 'no transaction with this signature in the history this service holds');
    const why = unseen(c, at.slot, lost);
    if (why !== undefined) throw filterTransactionNotFound(sig, why);
    return at;
  });
}

/** A pagination token's position must hold a transaction the request can see; -32020 naming the token otherwise. */
export async function checkTokenPosition(c: CursorContext, token: BlockPosition): Promise<void> {
  const name = `at paginationToken "${token.slot}:${token.position}"`;
  const fail = (why: string) => filterTransactionNotFound(name, why);
  const above = unseen(c, token.slot, new Set());
  if (above !== undefined) throw fail(above);
  const at = await queryRows<{ signature: string }>(c.ch, AT_POSITION_SQL, {
    db: c.db,
    slot: token.slot,
    position: Number(token.position),
  });
  if (at.length === 0) throw fail(`no transaction at slot ${token.slot}, index ${token.position} in the history this service holds`);
  const lost = unseen(c, token.slot, await lostSlots(c, [token.slot]));
  if (lost !== undefined) throw fail(lost);
}

// The accounts of a snapshot-then-stream subscription (issue 23, item 1): the newest write of every account at
// or below ONE slot, open (lamports > 0), narrowed in SQL by what the subscription's filters name, streamed in
// chunks as the engine reads them (never the whole set in memory), in pubkey order, as RowBinary bytes.
//
// Narrowing: a subscription whose every account filter names pubkeys reads only those pubkeys (account_writes is
// ordered by pubkey: index look-ups). One with an owner-only filter (a program's accounts) reads the newest write of
// every account and keeps those owned by one of the owners (or named): an owner's accounts are decided by their
// newest write, which may name another owner (closed, reassigned), so a per-owner index alone cannot answer without
// a check per candidate (getProgramAccounts' `stillOwned`, ~2x slower); the one ordered pass streams at the engine's
// scan speed. A filter naming neither reads every account. The remaining filter fields (data size, memcmp, lamports,
// token account state) are the live matcher's, applied by the caller on each row (api/live/snapshot.ts).
import { streamBytes, type QueryClient } from './query.js';

/** Which accounts to read; pubkeys and owners in base-58, as the views store them. */
export type SnapshotCandidates =
  /** Only these pubkeys. */
  | { readonly kind: 'pubkeys'; readonly pubkeys: readonly string[] }
  /** Accounts owned by one of `owners`, or one of `pubkeys`. */
  | { readonly kind: 'owners'; readonly owners: readonly string[]; readonly pubkeys: readonly string[] }
  /** Every account. */
  | { readonly kind: 'all' };

/** The result's format: RowBinary, the columns of api/live/snapshot-records.ts (SNAPSHOT_ROW_COLUMNS) in order:
 * keys and data as raw bytes, u64s as 8 bytes. The reader writes each row straight into a record. The statement
 * casts every column to the type the reader expects: RowBinary carries no types, so a migration that changed a
 * column's type must not change the bytes. */
export const SNAPSHOT_FORMAT = 'RowBinary';

// Small blocks: each chunk is handed to a client before the next is read (back-pressure), and one thread keeps the
// pubkey order (LIMIT 1 BY after ORDER BY pubkey streams without sorting the table).
const STREAMING = 'SETTINGS max_threads = 1, max_block_size = 8192';

/** The statement for a set of candidates; every value is a placeholder. The keys' byte columns have names of their
 * own: an alias named `owner` would be what the outer WHERE's `owner` means. */
export function accountSnapshotSql(c: SnapshotCandidates): string {
  const inner = c.kind === 'pubkeys' ? 'slot <= {slot:UInt64} AND pubkey IN {pubkeys:Array(String)}' : 'slot <= {slot:UInt64}';
  const outer =
    c.kind === 'owners' ? 'lamports > 0 AND (owner IN {owners:Array(String)} OR pubkey IN {pubkeys:Array(String)})' : 'lamports > 0';
  return `
SELECT base58Decode(pubkey) AS pubkey_bytes, base58Decode(owner) AS owner_bytes, toUInt64(lamports) AS lamports_u64,
       CAST(executable, 'Bool') AS executable_bool, toUInt64(rent_epoch) AS rent_epoch_u64, base64Decode(data) AS data_bytes,
       toUInt64(write_version) AS write_version_u64
FROM (
  SELECT pubkey, owner, lamports, executable, rent_epoch, data, write_version
  FROM {db:Identifier}.account_writes
  WHERE ${inner}
  ORDER BY pubkey, slot DESC, write_version DESC
  LIMIT 1 BY pubkey
)
WHERE ${outer}
${STREAMING}`;
}

/** The snapshot's rows at `slot` (SNAPSHOT_FORMAT), chunk by chunk. Stopping the iteration cancels the query. */
export function streamAccountSnapshot(q: QueryClient, db: string, c: SnapshotCandidates, slot: bigint): AsyncIterable<Buffer> {
  const params: Record<string, unknown> = { db, slot };
  if (c.kind !== 'all') params.pubkeys = c.pubkeys;
  if (c.kind === 'owners') params.owners = c.owners;
  return streamBytes(q, accountSnapshotSql(c), params, SNAPSHOT_FORMAT);
}

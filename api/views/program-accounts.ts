// A program's accounts at a context slot, from the owner-keyed copies of the account writes
// (006_program_accounts.sql), in pubkey byte order: a page after a cursor (getProgramAccountsV2), the whole set
// streamed chunk by chunk (getProgramAccounts), and a bounded count (its operator limit).
//
// Per pubkey, the newest write under the program at or below the context slot is the candidate; it must be open
// (lamports > 0) and pass the filters. A write under another owner can come after it (the account was closed to
// the system program, or reassigned): owner_writes (011_owner_writes.sql), the owner of every write of every
// pubkey in small granules, decides, so each batch of candidates is checked there (`stillOwned`), keeping only
// those whose newest write is the program's.
import bs58 from 'bs58';
import type { AccountRow } from '../solana-json/accounts.js';
import type { ProgramAccountsFilter } from '../solana-json/program-accounts-config.js';
import { insideAdmitted, queryRows, streamRows, type QueryClient, type QueryParams } from './query.js';

export interface ProgramAccountsRead {
  db: string;
  program: string;
  /** The context slot: the state is the newest write at or below it. */
  slot: bigint;
  filters: readonly ProgramAccountsFilter[];
  /** Only accounts whose newest write (at or below `slot`) is at or after this slot. */
  changedSinceSlot?: bigint;
}

/** A candidate row: the account, and the write it comes from (for the ownership check). */
export interface ProgramAccountRow extends AccountRow {
  slot: string;
  write_version: string;
}

// Read in (key) order on one thread with small blocks: a page of 1,000 then reads ~1,000 rows past its cursor and
// stops (with the default threads and blocks the engine reads ahead to the end of the key range: 100+ ms on 2 M
// accounts against 6 ms; bench/jsonrpc-gpa.ts).
const IN_ORDER = 'SETTINGS max_threads = 1, max_block_size = 1024';

/**
 * changedSinceSlot at most this many slots back reads program_account_changes (by slot): the writes of those slots.
 * Further back, most accounts qualify, and the walk in key order over program_accounts, keeping those whose newest
 * write is recent enough, fills a page after a few times its size (reading every write since a far slot would not).
 */
export const RECENT_SLOTS = 1000n;

/** Whether a read takes its candidates (and checks them) from the writes of the recent slots. */
const fromChanges = (r: ProgramAccountsRead): boolean => r.changedSinceSlot !== undefined && r.slot - r.changedSinceSlot <= RECENT_SLOTS;

/**
 * The statement: newest write per key at or below the slot, open, filtered, after the cursor, in key order.
 * Its shape depends only on the number and kinds of filters and on changedSinceSlot; every value is a placeholder.
 * changedSinceSlot reads program_account_changes (by owner, slot): only the writes of the slots asked for.
 * `window`: a scalar subquery giving (last key, rows) of the page's key range, which bounds the read (programAccountsPage);
 * a windowed statement also makes the ownership check itself (OWNED_IN_WINDOW), so its LIMIT counts only accounts kept.
 */
export function programAccountsSql(
  r: ProgramAccountsRead,
  o: { limit: boolean; countOnly?: boolean; window?: string },
): { sql: string; params: (after: Uint8Array | undefined, limit?: number) => QueryParams } {
  const { conds, values } = filterConditions(r.filters);
  const changes = r.changedSinceSlot !== undefined;
  const recent = fromChanges(r);
  // From the recent writes, the newest one at or below the slot is among them when it is recent enough; from the
  // whole history, it is kept when recent enough.
  const inner = `
  SELECT key, pubkey, owner, lamports, executable, rent_epoch, space, data, slot, write_version
  FROM {db:Identifier}.${recent ? 'program_account_changes' : 'program_accounts'}
  WHERE owner = {program:String} AND key > unhex({after:String})${o.window === undefined ? '' : ` AND key <= tupleElement(${o.window}, 1)`} AND slot <= {slot:UInt64}${recent ? ' AND slot >= {since:UInt64}' : ''}
  ORDER BY key, slot DESC, write_version DESC
  LIMIT 1 BY key`;
  const where = [
    'lamports > 0',
    ...(changes && !recent ? ['slot >= {since:UInt64}'] : []),
    ...conds,
    ...(o.window === undefined ? [] : [ownedInWindow(o.window)]),
  ].join('\n  AND ');
  let columns = o.countOnly ? 'key' : 'pubkey, owner, lamports, executable, rent_epoch, space, data, slot, write_version';
  // The window's row count beside each row (the same scalar subquery, computed once): whether a short page ended the keys.
  if (o.window !== undefined) columns += `, tupleElement(${o.window}, 2) AS window_rows`;
  let sql = `SELECT ${columns}\nFROM (${inner}\n)\nWHERE ${where}\nORDER BY key`;
  if (o.limit) sql += '\nLIMIT {limit:UInt32}';
  if (o.countOnly) sql = `SELECT count() AS n FROM (${sql})`;
  sql += `\n${IN_ORDER}`;
  return {
    sql,
    params: (after, limit) => ({
      db: r.db,
      program: r.program,
      slot: r.slot,
      after: after === undefined ? '' : Buffer.from(after).toString('hex'),
      ...(changes ? { since: r.changedSinceSlot } : {}),
      ...(limit === undefined ? {} : { limit }),
      ...values,
    }),
  };
}

/** SQL conditions of the filters, on the stored row. memcmp compares decoded data and, as Agave, fails when
 * offset plus length runs past the end. */
function filterConditions(filters: readonly ProgramAccountsFilter[]): { conds: string[]; values: QueryParams } {
  const conds: string[] = [];
  const values: QueryParams = {};
  filters.forEach((f, i) => {
    if (f.kind === 'dataSize') {
      conds.push(`space = {ds${i}:UInt64}`);
      values[`ds${i}`] = f.size;
    } else {
      conds.push(
        `length(tryBase64Decode(data)) >= {mo${i}:UInt64} + {ml${i}:UInt64}` +
          ` AND substring(tryBase64Decode(data), {mo${i}:UInt64} + 1, {ml${i}:UInt64}) = unhex({mb${i}:String})`,
      );
      values[`mo${i}`] = f.offset;
      values[`ml${i}`] = f.bytes.length;
      values[`mb${i}`] = Buffer.from(f.bytes).toString('hex');
    }
  });
  return { conds, values };
}

// A page's candidates are scattered over the key space: one granule each. owner_writes' granules are 256 rows of
// four narrow columns (account_writes': 8,192 rows, ~25 ms CPU a page over 10 M accounts; bench/jsonrpc-gpa.ts).
/**
 * The ownership check inside a page's statement: no candidate of the window whose newest write at or below the slot
 * names another owner. The window's pubkeys come from a subquery (the engine builds the set and looks them up in
 * owner_writes by its primary key), not from a parameter: a second statement with 1,000 pubkeys as a parameter cost
 * more in escaping, parsing and the round trip than the look-up itself (bench/jsonrpc-gpa.ts). A pubkey owner_writes
 * does not hold (a batch stored in part when the projector stopped) keeps its row, as in stillOwned.
 */
const ownedInWindow = (window: string): string => `pubkey NOT IN (
    SELECT pubkey FROM (
      SELECT pubkey, owner FROM {db:Identifier}.owner_writes
      WHERE pubkey IN (
          SELECT pubkey FROM {db:Identifier}.program_accounts
          WHERE owner = {program:String} AND key > unhex({after:String}) AND key <= tupleElement(${window}, 1) AND slot <= {slot:UInt64})
        AND slot <= {slot:UInt64}
      ORDER BY pubkey, slot DESC, write_version DESC
      LIMIT 1 BY pubkey)
    WHERE owner != {program:String})`;

const STILL_OWNED_SQL = `
SELECT pubkey, owner
FROM {db:Identifier}.owner_writes
WHERE pubkey IN {keys:Array(String)} AND slot <= {slot:UInt64}
ORDER BY pubkey, slot DESC, write_version DESC
LIMIT 1 BY pubkey
SETTINGS max_threads = 1`;

// Candidates of a recent changedSinceSlot: a newer write of theirs, under any owner, lies in the same recent slots,
// which program_account_changes holds together.
const STILL_OWNED_RECENT_SQL = `
SELECT pubkey, owner
FROM {db:Identifier}.program_account_changes
WHERE slot >= {since:UInt64} AND slot <= {slot:UInt64} AND pubkey IN {keys:Array(String)}
ORDER BY pubkey, slot DESC, write_version DESC
LIMIT 1 BY pubkey
SETTINGS max_threads = 1`;

/** The candidates whose newest write at or below the slot, of any owner, is still the program's. */
export async function stillOwned<R extends AccountRow>(q: QueryClient, r: ProgramAccountsRead, rows: readonly R[]): Promise<R[]> {
  if (rows.length === 0) return [];
  const recent = fromChanges(r);
  const newest = await queryRows<{ pubkey: string; owner: string }>(q, recent ? STILL_OWNED_RECENT_SQL : STILL_OWNED_SQL, {
    db: r.db,
    keys: rows.map((x) => x.pubkey),
    slot: r.slot,
    ...(recent ? { since: r.changedSinceSlot } : {}),
  });
  const owner = new Map(newest.map((n) => [n.pubkey, n.owner]));
  // A pubkey owner_writes does not hold (a batch stored in part when the projector stopped, stored again when
  // re-delivered) keeps its row.
  return rows.filter((x) => (owner.get(x.pubkey) ?? r.program) === r.program);
}

export interface ProgramAccountsPage {
  rows: ProgramAccountRow[];
  /** The pubkey the page ended at (the next page starts after it); undefined when nothing is left. */
  last: string | undefined;
}

// The key range a page's statement reads: the first `window` rows (writes at or below the slot) after the cursor,
// reading only the key column in order; its last key bounds the statement, so ClickHouse reads the granules of that
// range only (without the bound it read ahead far past the page: 69 ms against 35 ms for the first and the last
// page of 10 M accounts, bench/README.md). Every write of the last key lies within the bound, so the newest one of
// each key in range is decided there. The same subquery is the statement's bound (one query for a page) and is
// asked alone only when a page comes out short without telling where the window ended.
const WINDOW = `
  SELECT key FROM {db:Identifier}.program_accounts
  WHERE owner = {program:String} AND key > unhex({after:String}) AND slot <= {slot:UInt64}
  ORDER BY key
  LIMIT {window:UInt32}`;

const WINDOW_END_SQL = `SELECT hex(max(key)) AS upTo, count() AS n FROM (${WINDOW}
)
${IN_ORDER}`;

/** Largest window of one step: a sparse filter's page walks the key range a bounded step at a time. */
const MAX_WINDOW = 1 << 20;

/**
 * At most `limit` accounts after `after`, in key order, and empty only at the end. A page reads the key range a
 * window at a time: the first `limit` rows after the cursor, then twice as many from where it stopped, as long as
 * filters, closed or moved accounts and older writes of the same keys leave the page short.
 */
export async function programAccountsPage(
  q: QueryClient,
  r: ProgramAccountsRead,
  after: Uint8Array | undefined,
  limit: number,
): Promise<ProgramAccountsPage> {
  if (fromChanges(r)) return recentChangesPage(q, r, after, limit);
  const s = programAccountsSql(r, { limit: true, window: `(SELECT (max(key), count()) FROM (${WINDOW}\n  ))` });
  const rows: ProgramAccountRow[] = [];
  let cursor = after === undefined ? '' : Buffer.from(after).toString('hex');
  for (let window = limit; ; window = Math.min(window * 2, MAX_WINDOW)) {
    const need = limit - rows.length;
    // Checked for ownership by the statement itself: every row is kept.
    const batch = await queryRows<ProgramAccountRow & { window_rows: string }>(q, s.sql, {
      ...s.params(undefined, need),
      after: cursor,
      window,
    });
    for (const x of batch) rows.push(x);
    if (rows.length >= limit) break;
    // The window was read whole: stop at the end of the program's keys, else go on after the window's end (asked
    // for alone only when no row carried the window's size).
    if (batch.length > 0 && Number(batch[0]!.window_rows) < window) break;
    const [w] = await queryRows<{ upTo: string; n: string }>(q, WINDOW_END_SQL, {
      db: r.db,
      program: r.program,
      slot: r.slot,
      after: cursor,
      window,
    });
    if (Number(w?.n ?? 0) < window) break;
    cursor = w!.upTo;
  }
  // The page ends at its last account (spec/provider-methods.md 1.2); candidates after it in the last window are
  // read again by the next page, which keeps the cursor what the spec says.
  return { rows, last: rows.length > 0 ? rows[rows.length - 1]!.pubkey : undefined };
}

/**
 * A page of a recent changedSinceSlot: the candidates are the writes of the slots asked for (program_account_changes),
 * a small set read whole; a page can be short (candidates dropped by the ownership check) but is empty only at the end.
 */
async function recentChangesPage(
  q: QueryClient,
  r: ProgramAccountsRead,
  after: Uint8Array | undefined,
  limit: number,
): Promise<ProgramAccountsPage> {
  const s = programAccountsSql(r, { limit: true });
  let cursor = after;
  for (;;) {
    const batch = await queryRows<ProgramAccountRow>(q, s.sql, s.params(cursor, limit));
    if (batch.length === 0) return { rows: [], last: undefined };
    const rows = await stillOwned(q, r, batch);
    if (rows.length > 0) return { rows, last: rows[rows.length - 1]!.pubkey };
    if (batch.length < limit) return { rows, last: undefined };
    cursor = bs58.decode(batch[batch.length - 1]!.pubkey);
  }
}

/** How many accounts the answer would hold, counted up to `max + 1` (ownership not checked: an upper bound). */
export async function countProgramAccountsUpTo(q: QueryClient, r: ProgramAccountsRead, max: number): Promise<number> {
  const s = programAccountsSql(r, { limit: true, countOnly: true });
  const [row] = await queryRows<{ n: string }>(q, s.sql, s.params(undefined, max + 1));
  return Number(row?.n ?? 0);
}

/** Every account, chunk by chunk as the engine reads them (each chunk checked for ownership), in key order. */
export async function* streamProgramAccounts(q: QueryClient, r: ProgramAccountsRead): AsyncGenerator<ProgramAccountRow[]> {
  const s = programAccountsSql(r, { limit: false });
  const inside = insideAdmitted(q);
  for await (const chunk of streamRows<ProgramAccountRow>(q, s.sql, s.params(undefined))) {
    const rows = await stillOwned(inside, r, chunk);
    if (rows.length > 0) yield rows;
  }
}

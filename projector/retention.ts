// Retention enforced by ClickHouse (issue 22, item 4): the projector sets each table's TTL from its config at
// start (migration 010 gave the tables `written_at`), and records the windows for the readers. TTLs are
// metadata: setting one rewrites no part (materialize_ttl_after_modify = 0); merges apply it, at the latest
// every `merge_with_ttl_timeout` seconds per part, so a store holds at most its window plus that much.
//   Account history: rows older than the window roll up per account into the newest of them (TTL ... GROUP BY,
//   a prefix of the sort key), so every account keeps its newest state forever, the writes inside the window
//   are untouched, and an as-of read at any slot stored inside the window still finds the newest write at or
//   below it (the rolled-up row is a real write: the newest of those rolled up).
//   Blocks and transactions: rows older than the window are deleted; readers take the first available block
//   from `retention` (api/views/state.ts).
import type { ClickHouseClient } from '@clickhouse/client';
import type { Logger } from '../platform/log.js';

export interface RetentionWindows {
  /** Seconds of account write history kept (0: forever). */
  accountHistoryS: number;
  /** Seconds of blocks and transactions kept (0: forever). */
  transactionsS: number;
}

export type RetentionStore = 'account_history' | 'transactions';

/** The tables of each store; account history tables with the columns their rollup keeps per group. */
export const ACCOUNT_HISTORY_TABLES: Readonly<Record<string, { groupBy: readonly string[]; columns: readonly string[] }>> = {
  account_writes: {
    groupBy: ['pubkey'],
    columns: ['write_version', 'owner', 'lamports', 'executable', 'rent_epoch', 'space', 'data'],
  },
  // The ownership check's copy (011_owner_writes.sql): the newest owner of every pubkey stays.
  owner_writes: {
    groupBy: ['pubkey'],
    columns: ['write_version', 'owner'],
  },
  program_accounts: {
    groupBy: ['owner', 'key'],
    columns: ['pubkey', 'write_version', 'lamports', 'executable', 'rent_epoch', 'space', 'data'],
  },
};

export const TRANSACTION_TABLES: readonly string[] = [
  'blocks',
  'block_details',
  'transactions',
  'transaction_index',
  'transaction_records',
  'signatures_by_address',
  'token_balance_changes',
];

/** How often (seconds) a part with expired rows is merged again at most: a tenth of the window, 1 to 60 minutes. */
export const ttlMergeEveryS = (windowS: number): number => Math.min(3600, Math.max(60, Math.floor(windowS / 10)));

/**
 * Pure: the TTL clause of an account history table. The newest write wins, by (slot, write_version) (migration
 * 010's version_key): a TTL applied to one part meets duplicate (pubkey, slot) rows no merge has collapsed yet.
 */
export function accountHistoryTtl(table: string, windowS: number): string {
  const t = ACCOUNT_HISTORY_TABLES[table];
  if (t === undefined) throw new Error(`no account history table ${table}`);
  const sets = [
    'slot = max(slot)',
    ...t.columns.map((c) => `${c} = argMax(${c}, version_key)`),
    'written_at = max(written_at)',
    'version_key = max(version_key)',
  ];
  return `written_at + INTERVAL ${windowS} SECOND GROUP BY ${t.groupBy.join(', ')} SET ${sets.join(', ')}`;
}

/** Pure: the statements that give every table its window (REMOVE TTL for a table without one that has one). */
export function retentionStatements(database: string, w: RetentionWindows, withTtl: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const apply = (table: string, windowS: number, ttl: string) => {
    const name = `${database}.${table}`;
    if (windowS > 0) {
      out.push(`ALTER TABLE ${name} MODIFY SETTING merge_with_ttl_timeout = ${ttlMergeEveryS(windowS)}`);
      out.push(`ALTER TABLE ${name} MODIFY TTL ${ttl} SETTINGS materialize_ttl_after_modify = 0`);
    } else if (withTtl.has(table)) {
      out.push(`ALTER TABLE ${name} REMOVE TTL`);
    }
  };
  for (const table of Object.keys(ACCOUNT_HISTORY_TABLES)) apply(table, w.accountHistoryS, accountHistoryTtl(table, w.accountHistoryS));
  for (const table of TRANSACTION_TABLES) apply(table, w.transactionsS, `written_at + INTERVAL ${w.transactionsS} SECOND`);
  return out;
}

/** Sets the tables' TTLs to the windows and records the windows for the readers. */
export async function applyRetention(ch: ClickHouseClient, database: string, w: RetentionWindows, log: Logger): Promise<void> {
  const rs = await ch.query({
    query: `SELECT name FROM system.tables WHERE database = {db:String} AND match(create_table_query, '\\\\sTTL\\\\s')`,
    query_params: { db: database },
    format: 'JSONEachRow',
  });
  const withTtl = new Set((await rs.json<{ name: string }>()).map((r) => r.name));
  for (const query of retentionStatements(database, w, withTtl)) await ch.command({ query });
  await ch.insert({
    table: `${database}.retention`,
    values: [
      { store: 'account_history', window_s: w.accountHistoryS },
      { store: 'transactions', window_s: w.transactionsS },
    ],
    columns: ['store', 'window_s'],
    format: 'JSONEachRow',
  });
  if (w.accountHistoryS > 0 || w.transactionsS > 0) log.info({ ...w }, 'projector: retention windows set on the views');
}

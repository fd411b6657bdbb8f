// The projector's insert cost per account-write table (issue 21 item 3): the account writes of the projector
// bench's chain (test/support/projector/chain.ts, the same options as bench/projector.ts), projected by the
// projector's own row functions and written as its TabSeparated bodies, inserted batch by batch (20,000 events,
// the default batchRows) into each table the projector writes per account write, with the projector's insert
// settings, tables interleaved within each batch. Per table: CPU µs per row (this process's, chdb's threads
// included: background merges land on whichever insert is running, so figures are per table and approximate),
// and the stored bytes per row after the run. Tables no longer written (account_owners, migration 001's shape)
// are created beside the current ones so the old and the new mix are measured in one process.
// Prints one line per table: projector-table <table> cpu_us_per_row=<x> rows=<n> bytes_per_row=<b>
// Run: npx tsx bench/projector-tables.ts. Env: BENCH_WRITES (200000 account writes).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse, insertTabSeparated } from '../platform/clickhouse.js';
import { applyMigrations } from '../platform/migrations.js';
import { projectInto } from '../projector/projections/index.js';
import { emptyRows, VIEW_COLUMNS, type ViewTable } from '../projector/projections/rows.js';
import { tabSeparatedRows } from '../projector/tsv.js';
import { queryRows } from '../api/views/query.js';
import { makeChain } from '../test/support/projector/chain.js';

const WRITES = Number(process.env.BENCH_WRITES ?? 200_000);
const BATCH = 20_000;
const DB = 'bench_tables';
const TABLES: ViewTable[] = ['account_writes', 'owner_writes', 'program_accounts', 'program_account_changes'];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slotstream-bench-tables-'));
  const ch = await createClickHouse({ dataDir: dir, database: DB });
  try {
    await applyMigrations(ch, DB);
    // 001's account_owners, as written before migration 011 (one row per (owner, pubkey) per batch).
    await ch.command({
      query: `CREATE TABLE ${DB}.account_owners (owner String, pubkey String) ENGINE = ReplacingMergeTree
              ORDER BY (owner, pubkey) SETTINGS non_replicated_deduplication_window = 10000`,
    });
    const batches: Buffer[][] = [];
    const owners: Buffer[] = [];
    let rows = emptyRows();
    let n = 0;
    const flush = () => {
      batches.push(TABLES.map((t) => tabSeparatedRows(t, rows[t] as never[])));
      const seen = new Set<string>();
      let s = '';
      for (const w of rows.account_writes) {
        const k = `${w.owner}\t${w.pubkey}`;
        if (seen.has(k)) continue;
        seen.add(k);
        s += `${k}\n`;
      }
      owners.push(Buffer.from(s, 'latin1'));
      rows = emptyRows();
    };
    outer: for (const b of makeChain({ slots: Number.MAX_SAFE_INTEGER, txPerSlot: 400, writesPerSlot: 400, accounts: 50_000, seed: 5 })) {
      for (const e of b.events) {
        if (e.kind !== 'accounts') continue;
        projectInto(rows, e);
        if (++n % BATCH === 0) flush();
        if (n >= WRITES) break outer;
      }
    }
    if (rows.account_writes.length > 0) flush();
    const cpu = new Map<string, number>();
    const count = new Map<string, number>();
    const timed = async (table: string, columns: readonly string[], body: Buffer, token: string) => {
      const c = process.cpuUsage();
      await insertTabSeparated(ch, {
        table: `${DB}.${table}`,
        columns,
        body,
        settings: { insert_deduplication_token: token, async_insert: 0, optimize_on_insert: 0 },
      });
      const d = process.cpuUsage(c);
      cpu.set(table, (cpu.get(table) ?? 0) + (d.user + d.system) / 1000);
    };
    console.log(
      `# ${n} account writes in ${batches.length} batches; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (let i = 0; i < batches.length; i++) {
      for (let t = 0; t < TABLES.length; t++) {
        const table = TABLES[t]!;
        await timed(table, VIEW_COLUMNS[table] as readonly string[], batches[i]![t]!, `${table}:${i}`);
        count.set(table, (count.get(table) ?? 0) + batches[i]![t]!.toString('latin1').split('\n').length - 1);
      }
      await timed('account_owners', ['owner', 'pubkey'], owners[i]!, `account_owners:${i}`);
      count.set('account_owners', (count.get('account_owners') ?? 0) + owners[i]!.toString('latin1').split('\n').length - 1);
    }
    const sizes = await queryRows<{ table: string; bytes: string }>(
      ch,
      `SELECT table, sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = {db:String} AND active GROUP BY table`,
      { db: DB },
    );
    const bytes = new Map(sizes.map((s) => [s.table, Number(s.bytes)]));
    for (const table of [...TABLES, 'account_owners']) {
      const r = count.get(table)!;
      console.log(
        `projector-table ${table} cpu_us_per_row=${((cpu.get(table)! * 1000) / r).toFixed(2)} rows=${r} bytes_per_row=${((bytes.get(table) ?? 0) / r).toFixed(1)}`,
      );
    }
    console.log(
      `# load after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await ch.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

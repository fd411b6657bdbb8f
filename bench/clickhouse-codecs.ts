// ClickHouse column codecs on the biggest views (issue 22, item 3): account_writes (every account write) and
// transaction_records (every transaction), filled by the projector's own row functions (projectInto,
// tabSeparatedRows) from mainnet-shaped events (the simulator's default mix at BENCH_TPS, fast mode; the recorded
// mainnet stream under ../shared/data/mainnet holds no accounts or transactions), then copied
// into one table per codec variant, merged to one part (OPTIMIZE FINAL) and measured from system.columns:
// compressed bytes per row of each column. Embedded chdb in a temporary folder. One short run:
//   npx tsx bench/clickhouse-codecs.ts   (env BENCH_SLOTS sim slots, default 12; BENCH_TPS, default 4000)
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimSource, DEFAULT_SIM_OPTIONS } from '../ingest/sources/sim/index.js';
import { createClickHouse, insertTabSeparated } from '../platform/clickhouse.js';
import { applyMigrations } from '../platform/migrations.js';
import { projectInto } from '../projector/projections/index.js';
import { emptyRows, VIEW_COLUMNS, type Rows } from '../projector/projections/rows.js';
import { tabSeparatedRows } from '../projector/tsv.js';
import { encodeRecord, type ChainEvent } from '../schemas/codec.js';

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);

/** Per table, variants: column -> codec (columns not named keep the table's own). */
const VARIANTS: Record<'account_writes' | 'transaction_records', Record<string, Record<string, string>>> = {
  account_writes: {
    'as 001 (LZ4)': {},
    'data ZSTD(1)': { data: 'ZSTD(1)' },
    'data ZSTD(3)': { data: 'ZSTD(3)' },
    'data, owner, pubkey ZSTD(1); slot, write_version Delta+ZSTD(1)': {
      data: 'ZSTD(1)',
      owner: 'ZSTD(1)',
      pubkey: 'ZSTD(1)',
      slot: 'Delta, ZSTD(1)',
      write_version: 'Delta, ZSTD(1)',
    },
  },
  transaction_records: {
    'as 004 (record ZSTD(1))': {},
    'record ZSTD(3)': { record: 'ZSTD(3)' },
    'record ZSTD(3); signature ZSTD(1); slot DoubleDelta': { record: 'ZSTD(3)', signature: 'ZSTD(1)', slot: 'DoubleDelta, LZ4' },
  },
};

async function simEvents(slots: number, tps: number): Promise<ChainEvent[]> {
  const sim = createSimSource({ ...DEFAULT_SIM_OPTIONS, seed: 22, slotMs: 0, tps, fast: true, maxSlots: slots });
  const out: ChainEvent[] = [];
  for await (const b of sim.batches({})) out.push(...b.events);
  return out;
}

async function measure(set: string, events: ChainEvent[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-ch-codecs-'));
  const ch = await createClickHouse({ dataDir: dir, database: 'codecs' });
  const lines: string[] = [];
  try {
    await applyMigrations(ch, 'codecs');
    const rows: Rows = emptyRows();
    for (const e of events) projectInto(rows, e, e.kind === 'transactions' ? Buffer.from(encodeRecord(e).value) : undefined);
    for (const table of ['account_writes', 'transaction_records'] as const) {
      await insertTabSeparated(ch, {
        table: `codecs.${table}`,
        columns: VIEW_COLUMNS[table] as readonly string[],
        body: tabSeparatedRows(table, rows[table] as never),
      });
      for (const [name, codecs] of Object.entries(VARIANTS[table])) {
        const v = `codecs.v_${table}_${Object.keys(codecs).length}_${Math.abs(hash(name))}`;
        await ch.command({ query: `CREATE TABLE ${v} AS codecs.${table}` });
        // Wide parts whatever the size, so system.columns has each column's bytes (compact parts report none).
        await ch.command({ query: `ALTER TABLE ${v} MODIFY SETTING min_bytes_for_wide_part = 0, min_rows_for_wide_part = 0` });
        for (const [col, codec] of Object.entries(codecs)) {
          const rs = await ch.query({
            query: `SELECT type FROM system.columns WHERE database = 'codecs' AND table = '${table}' AND name = '${col}'`,
            format: 'JSONEachRow',
          });
          const [{ type }] = (await rs.json<{ type: string }>()) as [{ type: string }];
          await ch.command({ query: `ALTER TABLE ${v} MODIFY COLUMN ${col} ${type} CODEC(${codec})` });
        }
        await ch.command({ query: `INSERT INTO ${v} SELECT * FROM codecs.${table}` });
        await ch.command({ query: `OPTIMIZE TABLE ${v} FINAL` });
        const rs = await ch.query({
          query: `SELECT name, data_compressed_bytes AS c, data_uncompressed_bytes AS u FROM system.columns WHERE database = 'codecs' AND table = '${v.split('.')[1]}'`,
          format: 'JSONEachRow',
        });
        const cols = await rs.json<{ name: string; c: string; u: string }>();
        const n = rows[table].length;
        const total = cols.reduce((s, c) => s + Number(c.c), 0);
        const per = cols
          .filter((c) => Number(c.c) / n >= 1)
          .map((c) => `${c.name} ${(Number(c.c) / n).toFixed(1)}`)
          .join(', ');
        lines.push(`| ${set} | ${table} | ${name} | ${n} | ${(total / n).toFixed(1)} | ${per} |`);
      }
    }
  } finally {
    await ch.close();
    await rm(dir, { recursive: true, force: true });
  }
  return lines;
}

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0;
  return h;
}

const load0 = loadavg()[0]!;
const lines = [...(await measure(`sim ${env('BENCH_TPS', 4000)} tps`, await simEvents(env('BENCH_SLOTS', 12), env('BENCH_TPS', 4000))))];
console.log(`\n${cpus().length} cores, load average ${load0.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end\n`);
console.log('| records | table | codecs | rows | bytes/row (all columns) | compressed bytes/row per column (≥ 1) |');
console.log('|---|---|---|--:|--:|---|');
for (const l of lines) console.log(l);

// The cost of ClickHouse retention on a large account_writes (issue 22, item 4), embedded chdb in a temporary
// folder: BENCH_ROWS writes (default 2,000,000) of BENCH_ACCOUNTS accounts (default 200,000), 165-byte token
// account data, half of them stored an hour ago; then
//   set:     the TTL statements the projector runs at start (projector/retention.ts): metadata only;
//   apply:   the TTL applied to every part (MATERIALIZE TTL, then a merge to one part), what background TTL
//            merges do over time, timed in one go;
// and rows and bytes on disk before and after, and the newest state of every account checked unchanged.
//   npx tsx bench/retention.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../platform/clickhouse.js';
import { silentLogger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import { applyRetention } from '../projector/retention.js';

const env = (name: string, def: number): number => (process.env[name] ? Number(process.env[name]) : def);
const ROWS = env('BENCH_ROWS', 2_000_000);
const ACCOUNTS = env('BENCH_ACCOUNTS', 200_000);
const DB = 'retention_bench';

const dir = await mkdtemp(join(tmpdir(), 'bench-retention-'));
const ch = await createClickHouse({ dataDir: dir, database: DB });
const one = async <T>(query: string): Promise<T> => (await (await ch.query({ query, format: 'JSONEachRow' })).json<T>())[0]!;
const figures = () =>
  one<{ rows: string; bytes: string }>(
    `SELECT sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = '${DB}' AND table = 'account_writes' AND active`,
  );
// The newest state of every account, as one hash (what current reads and the snapshot answer).
const newest = () =>
  one<{ h: string; n: string }>(
    `SELECT sum(cityHash64(pubkey, lamports, data)) AS h, count() AS n FROM (SELECT pubkey, argMax(lamports, (slot, write_version)) AS lamports,
       argMax(data, (slot, write_version)) AS data FROM ${DB}.account_writes GROUP BY pubkey)`,
  );
const timed = async (f: () => Promise<unknown>): Promise<number> => {
  const t0 = performance.now();
  await f();
  return (performance.now() - t0) / 1000;
};

const load0 = loadavg()[0]!;
try {
  await applyMigrations(ch, DB);
  // Writes in slot order: account i % ACCOUNTS at slot i / 1000; the first half stored an hour ago.
  const fill = await timed(() =>
    ch.command({
      query: `INSERT INTO ${DB}.account_writes (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data, written_at)
        SELECT base58Encode(reinterpretAsString(cityHash64(number % ${ACCOUNTS}))), intDiv(number, 1000), number,
               'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 2039280 + number % 1000, false, 18446744073709551615, 165,
               base64Encode(concat(reinterpretAsString(cityHash64(number % ${ACCOUNTS})), repeat('x', 149), reinterpretAsString(number))),
               if(number < ${ROWS / 2}, now() - 3600, now())
        FROM numbers(${ROWS}) SETTINGS max_insert_block_size = 100000`,
    }),
  );
  await ch.command({ query: `OPTIMIZE TABLE ${DB}.account_writes FINAL` });
  const before = await figures();
  const stateBefore = await newest();
  const set = await timed(() => applyRetention(ch, DB, { accountHistoryS: 1800, transactionsS: 1800 }, silentLogger));
  const apply = await timed(async () => {
    await ch.command({ query: `ALTER TABLE ${DB}.account_writes MATERIALIZE TTL SETTINGS mutations_sync = 2` });
    await ch.command({ query: `OPTIMIZE TABLE ${DB}.account_writes FINAL` });
  });
  const after = await figures();
  const stateAfter = await newest();
  console.log(`\n${cpus().length} cores, load average ${load0.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end\n`);
  console.log('| rows before | MB before | fill s | set TTL s | apply TTL s | rows after | MB after | newest state of every account |');
  console.log('|--:|--:|--:|--:|--:|--:|--:|---|');
  console.log(
    `| ${before.rows} | ${(Number(before.bytes) / 1e6).toFixed(1)} | ${fill.toFixed(1)} | ${set.toFixed(2)} | ${apply.toFixed(1)} | ${after.rows} | ${(Number(after.bytes) / 1e6).toFixed(1)} | ${
      stateBefore.h === stateAfter.h && stateBefore.n === stateAfter.n ? `unchanged (${stateAfter.n} accounts)` : 'CHANGED'
    } |`,
  );
} finally {
  await ch.close();
  await rm(dir, { recursive: true, force: true });
}

// getTransactionsForAddress benchmark (issue 21): 10,000,000 transactions of which 1,000,000 touch one address,
// inserted straight into embedded ClickHouse with INSERT ... SELECT FROM numbers() (signatures_by_address rows
// and transaction_records bodies, each a real TransactionEvent protobuf with its own slot, position and
// signature). Pages of 100 `full` transactions (json, maxSupportedTransactionVersion 0) at the first, middle and
// last page of the address's history, both orders, under autocannon (a child process: the load generator does
// not share the server's event loop), against the same two statements the method runs (the page's history
// window, its lost-fork check, then the bodies) straight through the client in the same run: overhead = JSON-RPC p50 / SQL p50.
// Prints one line per case:
//   jsonrpc method=getTransactionsForAddress[<case>] p50_ms=<x> p99_ms=<y> rps=<r> sql_p50_ms=<s> overhead=<ratio>
// Env: BENCH_GTFA_TRANSACTIONS (10000000), BENCH_SECONDS (10), BENCH_ONLY (case name prefixes), BENCH_KEEP=1 keeps the
// data folder, BENCH_DIR=<kept folder> measures it again without filling.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TupleParam } from '@clickhouse/client';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { applyMigrations } from '../platform/migrations.js';
import { startBenchRpc } from './support/jsonrpc-server.js';
import { historySql, RECORDS_SQL, SKIPPED_SQL } from '../api/jsonrpc/methods/getTransactionsForAddress.js';
import { TransactionEvent } from '../schemas/codec.js';
import { transferTx } from '../test/support/jsonrpc/tx-chain.js';
import { key } from '../test/support/jsonrpc/store.js';

const run = promisify(execFile);
const TRANSACTIONS = Number(process.env.BENCH_GTFA_TRANSACTIONS ?? 10_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DB = 'bench_gtfa';
/** Ten transactions per slot; the address is in the one at position 3 of every slot: 1 in 10. */
const TX_PER_SLOT = 10;
const TARGET_POSITION = 3;
const FIRST_SLOT = 1_000_000;
const OTHER_ADDRESSES = 1000;
const PAGE = 100;
const TARGET = key(1, 51);
const others = Array.from({ length: OTHER_ADDRESSES }, (_, i) => key(i, 52));
const ERR = '{"InstructionError":[0,{"Custom":6002}]}';

/** Signature bytes of transaction `n`: the 8-byte counter, then 56 filler bytes. */
const SIG_SQL = (n: string): string => `unhex(concat(leftPad(hex(${n}), 16, '0'), repeat('ab', 56)))`;

/** A legacy transfer with a real transaction's meta, without slot, position and signature (SQL appends them). */
function bodyTemplate(): Buffer {
  const e = transferTx(1, 0, Buffer.alloc(64));
  e.slot = 0n;
  e.index = 0;
  e.signatures = [];
  e.logMessages = [
    ...e.logMessages,
    'Program log: a benchmark transaction with a typical log line or two',
    'Program consumption: 199850 units remaining',
  ];
  return Buffer.from(TransactionEvent.encode(e).finish());
}

async function fill(ch: ClickHouseClient): Promise<number> {
  const slots = Math.ceil(TRANSACTIONS / TX_PER_SLOT);
  const lastSlot = FIRST_SLOT + slots - 1;
  // The body's slot is appended as a 3-byte varint.
  if (lastSlot >= 2 ** 21 || FIRST_SLOT < 2 ** 14) throw new Error('slot varint of the bench bodies needs 2^14 <= slot < 2^21');
  const t0 = performance.now();
  const params = { db: DB, first: FIRST_SLOT, per: TX_PER_SLOT, rows: TRANSACTIONS };
  // One address row per transaction: the target's at position 3 of every slot, the others spread over 1,000
  // addresses (a transaction's other keys would only add rows for other addresses; the target's range is the same).
  await ch.command({
    query: `INSERT INTO {db:Identifier}.signatures_by_address (address, slot, position, signature, err, memo, block_time)
      SELECT if(number % {per:UInt32} = {tp:UInt32}, {target:String}, arrayElement({others:Array(String)}, (intDiv(number, {per:UInt32}) % {n:UInt32}) + 1)),
             {first:UInt64} + intDiv(number, {per:UInt32}), number % {per:UInt32}, base58Encode(${SIG_SQL('number')}),
             if(number % 7 = 0, {err:String}, NULL), NULL, 1700000000 + intDiv(number, {per:UInt32} * 2)
      FROM numbers({rows:UInt64})`,
    query_params: { ...params, tp: TARGET_POSITION, target: TARGET, others, n: OTHER_ADDRESSES, err: ERR },
  });
  await ch.command({
    query: `INSERT INTO {db:Identifier}.transaction_records (slot, position, signature, record)
      SELECT s, p, base58Encode(sig),
             concat(base64Decode({tpl:String}),
               char(8, bitOr(bitAnd(s, 127), 128), bitOr(bitAnd(bitShiftRight(s, 7), 127), 128), bitShiftRight(s, 14)),
               char(16, p), char(26, 64), sig)
      FROM (SELECT {first:UInt64} + intDiv(number, {per:UInt32}) AS s, toUInt8(number % {per:UInt32}) AS p, ${SIG_SQL('number')} AS sig
            FROM numbers({rows:UInt64}))`,
    query_params: { ...params, tpl: bodyTemplate().toString('base64') },
  });
  // Every slot finalized but one in 20, skipped (a lost fork's slots are left out by the method).
  await ch.command({
    query: `INSERT INTO {db:Identifier}.slot_status (slot, status) SELECT {first:UInt64} + number, if(number % 20 = 7, 3, 2) FROM numbers({slots:UInt64})`,
    query_params: { db: DB, first: FIRST_SLOT, slots },
  });
  await ch.insert({
    table: `${DB}.heads`,
    columns: ['commitment', 'slot'],
    format: 'JSONEachRow',
    values: ['processed', 'confirmed', 'finalized'].map((commitment) => ({ commitment, slot: String(lastSlot) })),
  });
  for (const t of ['signatures_by_address', 'transaction_records', 'slot_status']) {
    await ch.command({ query: `OPTIMIZE TABLE {db:Identifier}.${t} FINAL`, query_params: { db: DB } });
  }
  const counts = await (
    await ch.query({
      query: `SELECT count() AS n, countIf(address = {target:String}) AS t FROM {db:Identifier}.signatures_by_address`,
      query_params: { db: DB, target: TARGET },
      format: 'JSONEachRow',
    })
  ).json<{ n: string; t: string }>();
  console.log(
    `# filled ${counts[0]!.n} transactions (${counts[0]!.t} touch the address), ${slots} slots, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return lastSlot;
}

async function autocannon(url: string, body: string): Promise<{ p50: number; p99: number; rps: number; non2xx: number; errors: number }> {
  const bin = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));
  const { stdout } = await run(
    process.execPath,
    [bin, '-j', '-c', '1', '-d', String(SECONDS), '-m', 'POST', '-H', 'content-type=application/json', '-b', body, url],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const r = JSON.parse(stdout) as { latency: { p50: number; p99: number }; requests: { average: number }; non2xx: number; errors: number };
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, non2xx: r.non2xx, errors: r.errors };
}

/** `f` sequentially for `seconds`: p50. */
async function direct(f: () => Promise<unknown>, seconds: number): Promise<number> {
  const lat: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t = performance.now();
    await f();
    lat.push(performance.now() - t);
  }
  lat.sort((a, b) => a - b);
  return lat[Math.floor(lat.length * 0.5)]!;
}

async function main(): Promise<void> {
  const reuse = process.env.BENCH_DIR;
  const dir = reuse ?? mkdtempSync(join(tmpdir(), 'slotstream-bench-gtfa-'));
  const ch = await createClickHouse({ dataDir: dir, database: DB });
  let close = async (): Promise<void> => {};
  try {
    let lastSlot: number;
    if (reuse === undefined) {
      await applyMigrations(ch, DB);
      lastSlot = await fill(ch);
    } else {
      const heads = await (
        await ch.query({ query: `SELECT max(slot) AS s FROM ${DB}.heads`, format: 'JSONEachRow' })
      ).json<{ s: string }>();
      lastSlot = Number(heads[0]!.s);
      console.log(`# reusing ${dir}: last slot ${lastSlot}`);
    }
    const rpc = await startBenchRpc(ch, DB, lastSlot);
    close = rpc.close;
    const url = rpc.url;
    const midSlot = FIRST_SLOT + Math.floor((lastSlot - FIRST_SLOT) / 2);
    // Tokens: the middle of the history, and one that leaves about one page.
    const cases: { name: string; order: 'asc' | 'desc'; token: string | undefined; lo: [number, number]; hi: [number, number] }[] = [
      { name: 'desc,first', order: 'desc', token: undefined, lo: [0, 0], hi: [lastSlot, 2 ** 32] },
      { name: 'desc,middle', order: 'desc', token: `${midSlot}:${TARGET_POSITION}`, lo: [0, 0], hi: [midSlot, TARGET_POSITION - 1] },
      {
        name: 'desc,last',
        order: 'desc',
        token: `${FIRST_SLOT + PAGE + 5}:${TARGET_POSITION}`,
        lo: [0, 0],
        hi: [FIRST_SLOT + PAGE + 5, TARGET_POSITION - 1],
      },
      { name: 'asc,first', order: 'asc', token: undefined, lo: [0, 0], hi: [lastSlot, 2 ** 32] },
      {
        name: 'asc,middle',
        order: 'asc',
        token: `${midSlot}:${TARGET_POSITION}`,
        lo: [midSlot, TARGET_POSITION + 1],
        hi: [lastSlot, 2 ** 32],
      },
      {
        name: 'asc,last',
        order: 'asc',
        token: `${lastSlot - PAGE - 5}:${TARGET_POSITION}`,
        lo: [lastSlot - PAGE - 5, TARGET_POSITION + 1],
        hi: [lastSlot, 2 ** 32],
      },
    ];
    console.log(
      `# machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; ${SECONDS} s per run`,
    );
    const only = process.env.BENCH_ONLY?.split(',');
    for (const c of cases.filter((x) => only === undefined || only.some((o) => x.name.startsWith(o)))) {
      const config = {
        transactionDetails: 'full',
        maxSupportedTransactionVersion: 0,
        limit: PAGE,
        sortOrder: c.order,
        paginationToken: c.token,
      };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTransactionsForAddress', params: [TARGET, config] });
      const sample = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()) as {
        result?: { data: { slot: number; transactionIndex: number }[]; paginationToken: string | null };
      };
      const data = sample.result?.data ?? [];
      const ok = data.length > 0 && data.length <= PAGE && data.every((t) => t.transactionIndex === TARGET_POSITION);
      if (!ok) throw new Error(`${c.name}: unexpected answer ${JSON.stringify(sample).slice(0, 300)}`);
      // The bare SQL: the same two statements, the same parameters.
      const sql = historySql(c.order, { tokenAccounts: false, balanceChanges: false });
      const bare = async (): Promise<void> => {
        const rows = await (
          await ch.query({
            query: sql,
            query_params: {
              db: DB,
              address: TARGET,
              accounts: [],
              loSlot: c.lo[0],
              loPos: c.lo[1],
              hiSlot: c.hi[0],
              hiPos: c.hi[1],
              status: 0,
              timeFiltered: false,
              minTime: 0,
              maxTime: 0,
              window: 2 * (PAGE + 1),
            },
            format: 'JSONEachRow',
          })
        ).json<{ slot: string; position: number }>();
        await (
          await ch.query({
            query: SKIPPED_SQL,
            query_params: { db: DB, slots: [...new Set(rows.map((r) => BigInt(r.slot)))] },
            format: 'JSONEachRow',
          })
        ).json();
        const page = rows.slice(0, PAGE);
        await (
          await ch.query({
            query: RECORDS_SQL,
            query_params: {
              db: DB,
              slots: [...new Set(page.map((r) => BigInt(r.slot)))],
              keys: page.map((r) => new TupleParam([BigInt(r.slot), Number(r.position)])),
            },
            format: 'JSONEachRow',
          })
        ).json();
      };
      const sqlP50 = await direct(bare, Math.min(SECONDS, 5));
      const load = await autocannon(url, body);
      if (load.non2xx > 0 || load.errors > 0) throw new Error(`${c.name}: ${load.non2xx} non-2xx answers, ${load.errors} errors`);
      console.log(`# ${c.name}: ${data.length} transactions, first slot ${data[0]!.slot}; load ${loadavg()[0]!.toFixed(1)}`);
      console.log(
        `jsonrpc method=getTransactionsForAddress[full,limit=${PAGE},${c.name}] p50_ms=${load.p50} p99_ms=${load.p99} rps=${Math.round(load.rps)} ` +
          `sql_p50_ms=${sqlP50.toFixed(2)} overhead=${(Math.max(load.p50, 0.01) / sqlP50).toFixed(2)}`,
      );
    }
  } finally {
    await close();
    await ch.close();
    if (process.env.BENCH_KEEP !== '1' && reuse === undefined) rmSync(dir, { recursive: true, force: true });
    else console.log(`# data kept in ${dir} (database ${DB})`);
  }
}

await main();

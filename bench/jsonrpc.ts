// JSON-RPC benchmark: fills embedded ClickHouse with >= 10,000,000 signature rows and >= 100,000 program
// accounts through INSERT ... SELECT FROM numbers() (fast, no client-side rows), starts the server, loads it
// with autocannon (a child process, so the load generator does not share the server's event loop), and
// runs the same SQL directly against ClickHouse for the overhead ratio (JSON-RPC p50 / direct SQL p50).
// Prints one line per method:
//   jsonrpc method=<m> p50_ms=<x> p99_ms=<y> rps=<r> overhead=<ratio>
// getTransaction reads one of >= 1,000,000 stored transactions (transaction_index + transaction_records, each record
// a real TransactionEvent protobuf with its own slot, position and signature) and getAccountInfo one of
// >= 1,000,000 accounts (account_writes).
// Env: BENCH_SIGNATURES (10000000), BENCH_ACCOUNTS (100000), BENCH_TRANSACTIONS (1000000), BENCH_INFO_ACCOUNTS
// (1000000), BENCH_SECONDS (10), BENCH_ONLY (comma-separated case names), BENCH_KEEP=1 keeps the data folder.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { createServer } from 'node:http';
import Koa from 'koa';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { applyMigrations } from '../platform/migrations.js';
import { startBenchRpc } from './support/jsonrpc-server.js';
import { key } from '../test/support/jsonrpc/store.js';
import { SIGNATURES_SQL } from '../api/jsonrpc/methods/getSignaturesForAddress.js';
import { BLOCKS_IN_RANGE_SQL } from '../api/jsonrpc/methods/getBlocks.js';
import { programAccountsSql } from '../api/views/program-accounts.js';
import { readViewsState } from '../api/views/state.js';
import { decodeBase58 } from '../schemas/decode-input.js';
import { TRANSACTION_SQL } from '../api/jsonrpc/methods/getTransaction.js';
import { ACCOUNT_STATE_SQL } from '../api/jsonrpc/account-state.js';
import { TransactionEvent } from '../schemas/codec.js';
import { transferTx } from '../test/support/jsonrpc/tx-chain.js';
import bs58 from 'bs58';

const run = promisify(execFile);
const SIGNATURES = Number(process.env.BENCH_SIGNATURES ?? 10_000_000);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const INFO_ACCOUNTS = Number(process.env.BENCH_INFO_ACCOUNTS ?? 1_000_000);
const DB = 'bench_jsonrpc';
const ADDRESSES = 100; // signatures spread over 100 addresses: 100,000 each at 10M rows
const TX_PER_SLOT = 5;
const FIRST_SLOT = 1_000_000;
const MINTS = 100;

const addresses = Array.from({ length: ADDRESSES }, (_, i) => key(i, 21));
const mints = Array.from({ length: MINTS }, (_, i) => key(i, 41));
const PROGRAM = key(1, 31);
const OTHER = key(2, 31);
const WALLETS = key(3, 31);

/** Signature bytes of row `n` (as the signatures rows): the 8-byte counter, then 56 filler bytes. */
const SIG_HEX_SQL = (n: string): string => `unhex(concat(leftPad(hex(${n}), 16, '0'), repeat('ab', 56)))`;
/** Pubkey of getAccountInfo account `n`: the 8-byte counter, then 24 filler bytes. */
const INFO_KEY_SQL = (n: string): string => `base58Encode(unhex(concat(leftPad(hex(${n}), 16, '0'), repeat('ef', 24))))`;
const infoKey = (n: number): string => bs58.encode(Buffer.from(n.toString(16).padStart(16, '0') + 'ef'.repeat(24), 'hex'));
const sigOfRow = (n: number): string => bs58.encode(Buffer.from(n.toString(16).padStart(16, '0') + 'ab'.repeat(56), 'hex'));

/**
 * The body of every benchmark transaction but its slot, position and signature: a legacy transfer with the
 * meta a real one carries (balances, logs, compute units). Protobuf fields may come in any order, so SQL
 * appends slot (field 1), index (field 2) and the signature (field 3) per row.
 */
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

async function fill(ch: ClickHouseClient): Promise<{ lastSlot: number; midSlot: number }> {
  const slots = Math.ceil(SIGNATURES / TX_PER_SLOT);
  const lastSlot = FIRST_SLOT + slots - 1;
  const t0 = performance.now();
  // Signatures: 64 bytes (8-byte counter + filler) in base58; slot advances every TX_PER_SLOT rows.
  await ch.command({
    query: `INSERT INTO {db:Identifier}.signatures_by_address (address, slot, position, signature, err, memo, block_time)
      SELECT arrayElement({addrs:Array(String)}, (number % {n:UInt32}) + 1),
             {first:UInt64} + intDiv(number, {per:UInt32}), number % {per:UInt32},
             base58Encode(unhex(concat(leftPad(hex(number), 16, '0'), repeat('ab', 56)))),
             if(number % 10 = 0, '{"InstructionError":[0,{"Custom":6002}]}', NULL), NULL,
             1700000000 + intDiv(number, {per:UInt32} * 2)
      FROM numbers({rows:UInt64})`,
    query_params: { db: DB, addrs: addresses, n: ADDRESSES, first: FIRST_SLOT, per: TX_PER_SLOT, rows: SIGNATURES },
  });
  // Blocks: every 20th slot skipped.
  await ch.command({
    query: `INSERT INTO {db:Identifier}.blocks (slot, parent_slot, blockhash, block_height, block_time, leader, transaction_count, vote_transaction_count)
      SELECT {first:UInt64} + number, {first:UInt64} + number - 1, 'h', number, 1700000000 + intDiv(number * 2, 5), 'L', 5, 3
      FROM numbers({slots:UInt64}) WHERE number % 20 != 7`,
    query_params: { db: DB, first: FIRST_SLOT, slots },
  });
  await ch.command({
    query: `INSERT INTO {db:Identifier}.slot_status (slot, status)
      SELECT {first:UInt64} + number, if(number % 20 = 7, 3, 2) FROM numbers({slots:UInt64})`,
    query_params: { db: DB, first: FIRST_SLOT, slots },
  });
  // Accounts: ACCOUNTS token-like accounts (165 bytes, mint at 0 among MINTS) under PROGRAM, as many under OTHER.
  for (const [owner, salt] of [
    [PROGRAM, 0],
    [OTHER, 1],
  ] as const) {
    const accounts = `SELECT base58Encode(unhex(concat(leftPad(hex(number * 2 + {salt:UInt8}), 16, '0'), repeat('cd', 24)))) AS pubkey, number
      FROM numbers({rows:UInt64})`;
    await ch.command({
      query: `INSERT INTO {db:Identifier}.account_writes (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
        SELECT pubkey, {first:UInt64} + number % 1000, number, {owner:String}, 2039280, false, 18446744073709551615, 165,
               base64Encode(concat(base58Decode(arrayElement({mints:Array(String)}, (number % {m:UInt32}) + 1)), repeat('o', 32), repeat('\\0', 101)))
        FROM (${accounts})`,
      query_params: { db: DB, owner, salt, rows: ACCOUNTS, first: FIRST_SLOT, mints, m: MINTS },
    });
  }
  // The owner-keyed copy getProgramAccounts reads (006_program_accounts.sql) and the ownership check's copy
  // (011_owner_writes.sql), as the projector writes them.
  await ch.command({
    query: `INSERT INTO {db:Identifier}.program_accounts (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
      SELECT pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data FROM {db:Identifier}.account_writes`,
    query_params: { db: DB },
  });
  await ch.command({
    query: `INSERT INTO {db:Identifier}.owner_writes (pubkey, slot, write_version, owner)
      SELECT pubkey, slot, write_version, owner FROM {db:Identifier}.account_writes`,
    query_params: { db: DB },
  });
  // Transactions: TX_PER_SLOT per slot from FIRST_SLOT (slots below 2^21: a 3-byte varint), position < 128.
  if (FIRST_SLOT + TRANSACTIONS / TX_PER_SLOT >= 2 ** 21 || FIRST_SLOT < 2 ** 14)
    throw new Error('slot varint of the bench bodies needs 2^14 <= slot < 2^21');
  await ch.command({
    query: `INSERT INTO {db:Identifier}.transaction_records (slot, position, signature, record)
      SELECT s, p, base58Encode(sig),
             concat(base64Decode({tpl:String}),
               char(8, bitOr(bitAnd(s, 127), 128), bitOr(bitAnd(bitShiftRight(s, 7), 127), 128), bitShiftRight(s, 14)),
               char(16, p), char(26, 64), sig)
      FROM (SELECT {first:UInt64} + intDiv(number, {per:UInt32}) AS s, toUInt8(number % {per:UInt32}) AS p, ${SIG_HEX_SQL('number')} AS sig
            FROM numbers({rows:UInt64}))`,
    query_params: { db: DB, tpl: bodyTemplate().toString('base64'), first: FIRST_SLOT, per: TX_PER_SLOT, rows: TRANSACTIONS },
  });
  await ch.command({
    query: `INSERT INTO {db:Identifier}.transaction_index (signature, slot, position)
      SELECT base58Encode(${SIG_HEX_SQL('number')}), {first:UInt64} + intDiv(number, {per:UInt32}), number % {per:UInt32} FROM numbers({rows:UInt64})`,
    query_params: { db: DB, first: FIRST_SLOT, per: TX_PER_SLOT, rows: TRANSACTIONS },
  });
  // getAccountInfo: INFO_ACCOUNTS system accounts (0 bytes of data, as a wallet), one write each.
  await ch.command({
    query: `INSERT INTO {db:Identifier}.account_writes (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
      SELECT ${INFO_KEY_SQL('number')}, {first:UInt64} + number % 1000, number, {owner:String}, 1000000 + number, false, 18446744073709551615, 0, ''
      FROM numbers({rows:UInt64})`,
    query_params: { db: DB, first: FIRST_SLOT, owner: WALLETS, rows: INFO_ACCOUNTS },
  });
  await ch.insert({
    table: `${DB}.heads`,
    columns: ['commitment', 'slot'],
    format: 'JSONEachRow',
    values: ['processed', 'confirmed', 'finalized'].map((commitment) => ({ commitment, slot: String(lastSlot) })),
  });
  await ch.command({ query: `OPTIMIZE TABLE {db:Identifier}.signatures_by_address FINAL`, query_params: { db: DB } });
  const rows = await (
    await ch.query({
      query: 'SELECT count() AS n FROM {db:Identifier}.signatures_by_address',
      query_params: { db: DB },
      format: 'JSONEachRow',
    })
  ).json<{ n: string }>();
  for (const t of ['transaction_index', 'transaction_records', 'account_writes']) {
    await ch.command({ query: `OPTIMIZE TABLE {db:Identifier}.${t} FINAL`, query_params: { db: DB } });
  }
  console.log(
    `# filled ${rows[0]!.n} signature rows, ${slots} slots, ${ACCOUNTS} + ${ACCOUNTS} program accounts, ` +
      `${TRANSACTIONS} transactions, ${INFO_ACCOUNTS} getAccountInfo accounts in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const sizes = await (
    await ch.query({
      query: `SELECT table, sum(rows) AS r, sum(data_compressed_bytes) AS c, sum(data_uncompressed_bytes) AS u FROM system.parts
            WHERE database = {db:String} AND active AND table IN ('transaction_index', 'transaction_records', 'account_writes') GROUP BY table ORDER BY table`,
      query_params: { db: DB },
      format: 'JSONEachRow',
    })
  ).json<{ table: string; r: string; c: string; u: string }>();
  console.log(
    `# storage: ${sizes
      .map(
        (x) =>
          `${x.table} ${x.r} rows, ${(Number(x.c) / 2 ** 20).toFixed(0)} MiB compressed ` +
          `(${(Number(x.c) / Number(x.r)).toFixed(0)} B/row; ${(Number(x.u) / Number(x.r)).toFixed(0)} B/row uncompressed)`,
      )
      .join('; ')}`,
  );
  return { lastSlot, midSlot: FIRST_SLOT + Math.floor(slots / 2) };
}

interface Load {
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
  errors: number;
}

async function autocannon(url: string, body: string, connections: number): Promise<Load> {
  const bin = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));
  const { stdout } = await run(
    process.execPath,
    [bin, '-j', '-c', String(connections), '-d', String(SECONDS), '-m', 'POST', '-H', 'content-type=application/json', '-b', body, url],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const r = JSON.parse(stdout) as { latency: { p50: number; p99: number }; requests: { average: number }; non2xx: number; errors: number };
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, non2xx: r.non2xx, errors: r.errors };
}

/** The same statement straight through the client, sequentially, for `seconds`. */
async function direct(f: () => Promise<unknown>, seconds: number): Promise<{ p50: number; p99: number }> {
  const lat: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t = performance.now();
    await f();
    lat.push(performance.now() - t);
  }
  lat.sort((a, b) => a - b);
  return { p50: lat[Math.floor(lat.length * 0.5)]!, p99: lat[Math.min(lat.length - 1, Math.floor(lat.length * 0.99))]! };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slotstream-bench-jsonrpc-'));
  const ch = await createClickHouse({ dataDir: dir, database: DB });
  const server = { close: async () => {} };
  try {
    await applyMigrations(ch, DB);
    const { lastSlot, midSlot } = await fill(ch);
    const rpc = await startBenchRpc(ch, DB, lastSlot);
    server.close = () => rpc.close();
    const url = rpc.url;
    const q = async (sql: string, params: Record<string, unknown>) =>
      (await ch.query({ query: sql, query_params: params, format: 'JSONEachRow' })).json();
    const memcmp = [{ kind: 'memcmp' as const, offset: 0n, bytes: (decodeBase58(mints[3]!) as { bytes: Uint8Array }).bytes }];
    const pa = programAccountsSql({ db: DB, program: PROGRAM, slot: 0n, filters: memcmp }, { limit: false });
    const txRow = Math.min(TRANSACTIONS - 1, 500_006);
    const infoRow = Math.floor(INFO_ACCOUNTS / 2) + 3;
    const cases: {
      name: string;
      method: string;
      params: unknown[];
      connections: number;
      sql: () => Promise<unknown>;
      check: (r: unknown) => boolean;
    }[] = [
      {
        name: 'getSignaturesForAddress[limit=10]',
        method: 'getSignaturesForAddress',
        params: [addresses[5], { limit: 10 }],
        connections: 1,
        sql: () =>
          q(SIGNATURES_SQL, {
            db: DB,
            address: addresses[5],
            maxSlot: lastSlot,
            beforeSlot: lastSlot + 1,
            beforePos: 0,
            untilSlot: 0,
            untilPos: -1,
            limit: 10,
          }),
        check: (r) => Array.isArray(r) && r.length === 10,
      },
      {
        name: 'getSignaturesForAddress[limit=1000]',
        method: 'getSignaturesForAddress',
        params: [addresses[5], { limit: 1000 }],
        connections: 1,
        sql: () =>
          q(SIGNATURES_SQL, {
            db: DB,
            address: addresses[5],
            maxSlot: lastSlot,
            beforeSlot: lastSlot + 1,
            beforePos: 0,
            untilSlot: 0,
            untilPos: -1,
            limit: 1000,
          }),
        check: (r) => Array.isArray(r) && r.length === 1000,
      },
      {
        name: 'getBlocksWithLimit',
        method: 'getBlocksWithLimit',
        params: [midSlot, 100],
        connections: 1,
        sql: () => q(BLOCKS_IN_RANGE_SQL, { db: DB, start: midSlot, end: lastSlot, limit: 100 }),
        check: (r) => Array.isArray(r) && r.length === 100,
      },
      {
        // A transaction in the middle of the 1 M (slot FIRST_SLOT + 100,001: not one of the skipped slots).
        name: 'getTransaction',
        method: 'getTransaction',
        params: [sigOfRow(txRow), { maxSupportedTransactionVersion: 0 }],
        connections: 1,
        sql: () => q(TRANSACTION_SQL, { db: DB, sig: sigOfRow(txRow), head: lastSlot }),
        check: (r) =>
          (r as { slot?: number; transaction?: { signatures: string[] } })?.transaction?.signatures[0] === sigOfRow(txRow) &&
          (r as { slot: number }).slot === FIRST_SLOT + Math.floor(txRow / TX_PER_SLOT),
      },
      {
        name: 'getAccountInfo',
        method: 'getAccountInfo',
        params: [infoKey(infoRow), { encoding: 'base64' }],
        connections: 1,
        sql: () => q(ACCOUNT_STATE_SQL, { db: DB, pubkeys: [infoKey(infoRow)], slot: lastSlot }),
        check: (r) => (r as { value?: { lamports: number } })?.value?.lamports === 1_000_000 + infoRow,
      },
      {
        name: 'getBlockHeight',
        method: 'getBlockHeight',
        params: [],
        connections: 32,
        sql: () => readViewsState(ch, DB),
        check: (r) => typeof r === 'number' && r > 0,
      },
      {
        name: 'getProgramAccounts[memcmp]',
        method: 'getProgramAccounts',
        params: [PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: mints[3] } }] }],
        connections: 1,
        sql: () => q(pa.sql, { ...pa.params(undefined), slot: BigInt(lastSlot) }),
        check: (r) => Array.isArray(r) && r.length === ACCOUNTS / MINTS,
      },
    ];
    console.log(
      `# machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; ${SECONDS} s per run`,
    );
    // The ceiling of this machine at this moment: koa answering a constant, same load generator.
    const koa = new Koa();
    koa.use((ctx) => {
      ctx.type = 'application/json';
      ctx.body = '{"jsonrpc":"2.0","result":1,"id":1}';
    });
    const baseline = createServer(koa.callback());
    await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve));
    const baseCpu0 = process.cpuUsage();
    const base = await autocannon(`http://127.0.0.1:${(baseline.address() as { port: number }).port}/`, '{}', 32);
    const baseCpu = process.cpuUsage(baseCpu0);
    baseline.close();
    console.log(
      `# baseline: koa answering a constant, 32 connections: ${Math.round(base.rps)} requests/s, p50 ${base.p50} ms, ` +
        `${((baseCpu.user + baseCpu.system) / 1000 / (base.rps * SECONDS)).toFixed(3)} ms CPU per answer; load ${loadavg()[0]!.toFixed(1)}`,
    );
    // BENCH_ONLY=getTransaction,getAccountInfo runs only the cases whose names start with one of these.
    const only = process.env.BENCH_ONLY?.split(',');
    for (const c of cases.filter((x) => only === undefined || only.some((o) => x.name.startsWith(o)))) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: c.method, params: c.params });
      const sample = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()) as {
        result?: unknown;
        error?: unknown;
      };
      if (!c.check(sample.result)) throw new Error(`${c.name}: unexpected answer ${JSON.stringify(sample).slice(0, 300)}`);
      const d = await direct(c.sql, Math.min(SECONDS, 5));
      const cpu0 = process.cpuUsage();
      const load = await autocannon(url, body, c.connections);
      const cpu = process.cpuUsage(cpu0);
      if (load.non2xx > 0 || load.errors > 0) throw new Error(`${c.name}: ${load.non2xx} non-2xx answers, ${load.errors} errors`);
      // CPU of this process (server + embedded ClickHouse) per answer: the figure that survives a busy machine.
      const cpuPerReq = (cpu.user + cpu.system) / (load.rps * SECONDS);
      console.log(
        `# ${c.name}: ${c.connections} connection(s); direct SQL p50 ${d.p50.toFixed(2)} ms p99 ${d.p99.toFixed(2)} ms; ` +
          `server CPU ${(cpuPerReq / 1000).toFixed(2)} ms per answer (${Math.round(1e6 / cpuPerReq)} answers per CPU second); load ${loadavg()[0]!.toFixed(1)}`,
      );
      console.log(
        `jsonrpc method=${c.name} p50_ms=${load.p50} p99_ms=${load.p99} rps=${Math.round(load.rps)} overhead=${(Math.max(load.p50, 0.01) / d.p50).toFixed(2)}`,
      );
    }
  } finally {
    await server.close();
    await ch.close();
    if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
    else console.log(`# data kept in ${dir} (database ${DB})`);
  }
}

await main();

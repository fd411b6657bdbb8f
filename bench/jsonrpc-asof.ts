// JSON-RPC benchmark of account reads as of a past slot (issue 21, item 3): fills embedded ClickHouse with
// BENCH_ASOF_ACCOUNTS accounts written BENCH_ASOF_WRITES times each over BENCH_ASOF_SLOTS slots (10,000,000
// account_writes rows by default) through INSERT ... SELECT FROM numbers(), BENCH_ASOF_PROGRAM_ACCOUNTS of them
// owned by one program, starts the server, and times each method as of a random slot of the history (the same
// seeded sequence of slots and keys for the JSON-RPC client and for the bare SQL), one request at a time from this
// process (the first REQUESTS of the sequence, cycled). Prints one line per figure:
//   jsonrpc-asof case=<name> p50_ms=<x> p99_ms=<y> sql_p50_ms=<z> overhead=<p50 / sql p50>
// Env: BENCH_ASOF_ACCOUNTS (1000000), BENCH_ASOF_WRITES (10), BENCH_ASOF_SLOTS (100000), BENCH_ASOF_PROGRAM_ACCOUNTS
// (10000), BENCH_SECONDS (5 per side of each case), BENCH_KEEP=1 keeps the data folder. Run: npx tsx bench/jsonrpc-asof.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { applyMigrations } from '../platform/migrations.js';
import { startBenchRpc } from './support/jsonrpc-server.js';
import { ACCOUNT_STATE_SQL } from '../api/jsonrpc/account-state.js';
import { newestWritesSql } from '../api/jsonrpc/as-of.js';
import { programAccountsSql } from '../api/views/program-accounts.js';
import { key } from '../test/support/jsonrpc/store.js';

const ACCOUNTS = Number(process.env.BENCH_ASOF_ACCOUNTS ?? 1_000_000);
const WRITES = Number(process.env.BENCH_ASOF_WRITES ?? 10);
const SLOTS = Number(process.env.BENCH_ASOF_SLOTS ?? 100_000);
const PROGRAM_ACCOUNTS = Number(process.env.BENCH_ASOF_PROGRAM_ACCOUNTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const DB = 'bench_jsonrpc_asof';
const FIRST = 1_000_000;
const LAST = FIRST + SLOTS - 1;
const STEP = Math.floor(SLOTS / WRITES);
const PROGRAM = key(1, 51);
const WALLETS = key(2, 51);

/** Pubkey of account `n`: the 8-byte counter, then 24 filler bytes (SQL and JS agree). */
const KEY_SQL = `base58Encode(unhex(concat(leftPad(hex(n), 16, '0'), repeat('a5', 24))))`;
const keyOf = (n: number): string => bs58.encode(Buffer.from(n.toString(16).padStart(16, '0') + 'a5'.repeat(24), 'hex'));
/** Slot of write `k` of account `n`: spread over the history, distinct per account. */
const writeSlot = (n: number, k: number): number => FIRST + ((n * 7919 + k * STEP) % SLOTS);
/** The lamports account `n` holds as of `slot` (0 before its first write), the oracle of the answers. */
function lamportsAt(n: number, slot: number): number {
  let best = -1;
  let bestSlot = -1;
  for (let k = 0; k < WRITES; k++) {
    const s = writeSlot(n, k);
    if (s <= slot && s > bestSlot) [best, bestSlot] = [k, s];
  }
  return best < 0 ? 0 : 1_000_000 + n * 10 + best;
}

async function fill(ch: ClickHouseClient): Promise<void> {
  const t0 = performance.now();
  await ch.command({
    query: `INSERT INTO {db:Identifier}.account_writes (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
      SELECT ${KEY_SQL}, {first:UInt64} + ((n * 7919 + k * {step:UInt64}) % {slots:UInt64}), number,
             if(n < {pa:UInt64}, {program:String}, {wallets:String}), 1000000 + n * 10 + k, false, 18446744073709551615, 32,
             base64Encode(concat(unhex(leftPad(hex(number), 16, '0')), repeat('d', 24)))
      FROM (SELECT number, intDiv(number, {w:UInt64}) AS n, number % {w:UInt64} AS k FROM numbers({rows:UInt64}))`,
    query_params: {
      db: DB,
      first: FIRST,
      step: STEP,
      slots: SLOTS,
      pa: PROGRAM_ACCOUNTS,
      program: PROGRAM,
      wallets: WALLETS,
      w: WRITES,
      rows: ACCOUNTS * WRITES,
    },
  });
  // The program's writes in the owner-keyed copy getProgramAccounts reads (migration 006; the projector writes both).
  await ch.command({
    query: `INSERT INTO {db:Identifier}.program_accounts (owner, pubkey, slot, write_version, lamports, executable, rent_epoch, space, data)
      SELECT owner, pubkey, slot, write_version, lamports, executable, rent_epoch, space, data FROM {db:Identifier}.account_writes
      WHERE owner = {program:String}`,
    query_params: { db: DB, program: PROGRAM },
  });
  // The ownership check's copy (migration 011), every write of every account as the projector writes it.
  await ch.command({
    query: `INSERT INTO {db:Identifier}.owner_writes (pubkey, slot, write_version, owner)
      SELECT pubkey, slot, write_version, owner FROM {db:Identifier}.account_writes`,
    query_params: { db: DB },
  });
  // Blocks: the oldest one is the floor of the history an as-of read may ask for.
  await ch.command({
    query: `INSERT INTO {db:Identifier}.blocks (slot, parent_slot, blockhash, block_height, block_time, leader, transaction_count, vote_transaction_count)
      SELECT {first:UInt64} + number, {first:UInt64} + number - 1, 'h', number, 1700000000 + intDiv(number * 2, 5), 'L', 0, 0
      FROM numbers({slots:UInt64})`,
    query_params: { db: DB, first: FIRST, slots: SLOTS },
  });
  await ch.insert({
    table: `${DB}.heads`,
    columns: ['commitment', 'slot'],
    format: 'JSONEachRow',
    values: ['processed', 'confirmed', 'finalized'].map((commitment) => ({ commitment, slot: String(LAST) })),
  });
  await ch.command({ query: `OPTIMIZE TABLE {db:Identifier}.account_writes FINAL`, query_params: { db: DB } });
  console.log(
    `# filled ${ACCOUNTS * WRITES} account writes (${ACCOUNTS} accounts x ${WRITES}) over slots ${FIRST}..${LAST}, ` +
      `${PROGRAM_ACCOUNTS} owned by one program, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

/** A seeded sequence (mulberry32), so the JSON-RPC side and the SQL side ask the same questions. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Requests generated per case before timing (cycled), so building and checking them costs the timings nothing. */
const REQUESTS = 200;

/** Runs `f(i)` one at a time for `seconds`; latency percentiles in ms. */
async function timed(f: (i: number) => Promise<void>, seconds: number): Promise<{ p50: number; p99: number; n: number }> {
  const lat: number[] = [];
  const end = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const t = performance.now();
    await f(i);
    lat.push(performance.now() - t);
  }
  lat.sort((a, b) => a - b);
  return { p50: lat[Math.floor(lat.length * 0.5)]!, p99: lat[Math.min(lat.length - 1, Math.floor(lat.length * 0.99))]!, n: lat.length };
}

interface Case {
  name: string;
  /** Request `i` of the sequence: JSON-RPC method and params, the bare SQL and its params, and a check of the answer. */
  request(r: () => number): {
    method: string;
    params: unknown[];
    sql: string;
    sqlParams: Record<string, unknown>;
    check(result: unknown): boolean;
  };
}

const randomSlot = (r: () => number): number => FIRST + Math.floor(r() * SLOTS);
const randomAccount = (r: () => number): number => Math.floor(r() * ACCOUNTS);

const CASES: Case[] = [
  {
    name: 'getAccountInfo[slot]',
    request(r) {
      const [n, slot] = [randomAccount(r), randomSlot(r)];
      return {
        method: 'getAccountInfo',
        params: [keyOf(n), { encoding: 'base64', slot }],
        sql: ACCOUNT_STATE_SQL,
        sqlParams: { db: DB, pubkeys: [keyOf(n)], slot },
        check: (res) => ((res as { value: { lamports: number } | null }).value?.lamports ?? 0) === lamportsAt(n, slot),
      };
    },
  },
  {
    name: 'getAccountInfo[head]',
    request(r) {
      const n = randomAccount(r);
      return {
        method: 'getAccountInfo',
        params: [keyOf(n), { encoding: 'base64' }],
        sql: ACCOUNT_STATE_SQL,
        sqlParams: { db: DB, pubkeys: [keyOf(n)], slot: LAST },
        check: (res) => (res as { value: { lamports: number } }).value.lamports === lamportsAt(n, LAST),
      };
    },
  },
  {
    name: 'getBalance[slot]',
    request(r) {
      const [n, slot] = [randomAccount(r), randomSlot(r)];
      return {
        method: 'getBalance',
        params: [keyOf(n), { slot }],
        sql: newestWritesSql('({pubkey:String})', 'pubkey, lamports'),
        sqlParams: { db: DB, pubkey: keyOf(n), slot },
        check: (res) => (res as { value: number }).value === lamportsAt(n, slot),
      };
    },
  },
  {
    name: 'getMultipleAccounts[100,slot]',
    request(r) {
      const slot = randomSlot(r);
      const ns = Array.from({ length: 100 }, () => randomAccount(r));
      const keys = ns.map(keyOf);
      return {
        method: 'getMultipleAccounts',
        params: [keys, { slot }],
        sql: ACCOUNT_STATE_SQL,
        sqlParams: { db: DB, pubkeys: keys, slot },
        check: (res) =>
          (res as { value: ({ lamports: number } | null)[] }).value.every((a, i) => (a?.lamports ?? 0) === lamportsAt(ns[i]!, slot)),
      };
    },
  },
  {
    name: `getProgramAccounts[${PROGRAM_ACCOUNTS},slot]`,
    request(r) {
      const slot = randomSlot(r);
      const q = programAccountsSql({ db: DB, program: PROGRAM, slot: BigInt(slot), filters: [] }, { limit: false });
      let existing = 0;
      for (let n = 0; n < PROGRAM_ACCOUNTS; n++) if (lamportsAt(n, slot) > 0) existing++;
      return {
        method: 'getProgramAccounts',
        params: [PROGRAM, { encoding: 'base64', slot }],
        sql: q.sql,
        sqlParams: q.params(undefined),
        check: (res) => Array.isArray(res) && res.length === existing,
      };
    },
  },
];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slotstream-bench-jsonrpc-asof-'));
  const ch = await createClickHouse({ dataDir: dir, database: DB });
  let close = async () => {};
  try {
    await applyMigrations(ch, DB);
    await fill(ch);
    const rpc = await startBenchRpc(ch, DB, LAST);
    close = rpc.close;
    const url = rpc.url;
    console.log(
      `# machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; ` +
        `${SECONDS} s per side of each case, one request at a time; load ${loadavg()[0]!.toFixed(1)}`,
    );
    for (const c of CASES) {
      // The same requests on both sides: the same accounts and slots, in the same order.
      const r = rng(7);
      const requests = Array.from({ length: REQUESTS }, () => c.request(r));
      // Warm-up (first statements, the views state cache, connections), untimed.
      for (const q of requests.slice(0, 5)) {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: q.method, params: q.params });
        await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json();
      }
      const rpcSide = await timed(async (i) => {
        const q = requests[i % REQUESTS]!;
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: q.method, params: q.params });
        const res = (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).json()) as {
          result?: unknown;
          error?: unknown;
        };
        if (res.error !== undefined || !q.check(res.result)) {
          throw new Error(`${c.name}: unexpected answer ${JSON.stringify(res).slice(0, 300)} to ${body.slice(0, 200)}`);
        }
      }, SECONDS);
      const sqlSide = await timed(async (i) => {
        const q = requests[i % REQUESTS]!;
        await (await ch.query({ query: q.sql, query_params: q.sqlParams, format: 'JSONEachRow' })).json();
      }, SECONDS);
      console.log(`# ${c.name}: ${rpcSide.n} JSON-RPC requests, ${sqlSide.n} bare SQL; load ${loadavg()[0]!.toFixed(1)}`);
      console.log(
        `jsonrpc-asof case=${c.name} p50_ms=${rpcSide.p50.toFixed(2)} p99_ms=${rpcSide.p99.toFixed(2)} ` +
          `sql_p50_ms=${sqlSide.p50.toFixed(2)} overhead=${(rpcSide.p50 / sqlSide.p50).toFixed(2)}`,
      );
    }
  } finally {
    await close();
    await ch.close();
    if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
    else console.log(`# data kept in ${dir} (database ${DB})`);
  }
}

await main();

// JSON-RPC benchmark of issue 21, item 5 (Agave's remaining read methods): fills embedded ClickHouse through
// INSERT ... SELECT FROM numbers() with 1,000,000 SPL token accounts (10 mints of 100,000 holders; 1,000 of them
// delegated to one delegate), one 432,000-slot epoch of blocks (5% skipped) with its leader schedule, and the
// last 150 blocks' transactions (1,000 each, with a compute-unit price), starts the server and measures each
// method sequentially (one request at a time), beside the method's main SQL run directly (overhead = JSON-RPC p50 /
// SQL p50). Prints one line per figure:
//   jsonrpc-agave method=<m> p50_ms=<x> p99_ms=<y> sql_p50_ms=<z> overhead=<ratio>
// Env: BENCH_TOKEN_ACCOUNTS (1000000), BENCH_SLOTS (432000), BENCH_REQUESTS (30), BENCH_ONLY (comma-separated method
// names), BENCH_KEEP=1 keeps the data folder.
// Run: npx tsx bench/jsonrpc-agave.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { applyMigrations } from '../platform/migrations.js';
import { startBenchRpc } from './support/jsonrpc-server.js';
import { TransactionEvent } from '../schemas/codec.js';
import { COMPUTE_BUDGET_PROGRAM, SYSTEM_PROGRAM, TOKEN_PROGRAM } from '../schemas/programs.js';
import { encodeMessage } from '../schemas/wire.js';
import { LARGEST_SQL } from '../api/jsonrpc/methods/getTokenLargestAccounts.js';
import { DELEGATE_ACCOUNTS_SQL } from '../api/jsonrpc/methods/getTokenAccountsByDelegate.js';
import { PRODUCED_SQL } from '../api/jsonrpc/methods/getBlockProduction.js';
import { RECORDS_SQL, WINDOW_SQL } from '../api/jsonrpc/methods/getRecentPrioritizationFees.js';
import { TRANSACTION_COUNT_SQL } from '../api/jsonrpc/methods/getEpochInfo.js';
import { key, setHeads } from '../test/support/jsonrpc/store.js';

const TOKEN_ACCOUNTS = Number(process.env.BENCH_TOKEN_ACCOUNTS ?? 1_000_000);
const SLOTS = Number(process.env.BENCH_SLOTS ?? 432_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const ONLY = process.env.BENCH_ONLY?.split(',');
const wanted = (method: string): boolean => ONLY === undefined || ONLY.includes(method);
const DB = 'bench_agave';
const MINTS = 10;
const FIRST_SLOT = 10_000_000;
const LAST_SLOT = FIRST_SLOT + SLOTS - 1;
const TX_PER_BLOCK = 1000;
const LEADERS = 50;
const mints = Array.from({ length: MINTS }, (_, i) => key(i, 61));
const DELEGATE = key(1, 62);
const identities = Array.from({ length: LEADERS }, (_, i) => key(i, 63));

async function fill(ch: ClickHouseClient): Promise<void> {
  const p = { db: DB };
  // Token accounts: pubkey n, mint n % 10, wallet n, amount (n * 7919) % 1e9, every 1,000th delegated.
  const accounts = `
    SELECT number AS n,
      base58Encode(unhex(concat(leftPad(hex(number), 16, '0'), repeat('cd', 24)))) AS pubkey,
      {mints:Array(String)}[(number % ${MINTS}) + 1] AS mint,
      number % 1000 = 0 AS delegated
    FROM numbers(${TOKEN_ACCOUNTS})`;
  const u64le = (x: string) => `substring(concat(reinterpretAsString(toUInt64(${x})), repeat(char(0), 8)), 1, 8)`;
  await ch.command({
    query: `INSERT INTO {db:Identifier}.account_writes (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
      SELECT pubkey, ${FIRST_SLOT} + n % 1000, n, {token:String}, 2039280, false, 18446744073709551615, 165,
        base64Encode(concat(base58Decode(mint), unhex(concat(leftPad(hex(n), 16, '0'), repeat('ee', 24))), ${u64le('(n * 7919) % 1000000000')},
          if(delegated, unhex('01000000'), unhex('00000000')), if(delegated, base58Decode({delegate:String}), repeat(char(0), 32)),
          char(1), repeat(char(0), 56)))
      FROM (${accounts})`,
    query_params: { ...p, mints, token: TOKEN_PROGRAM, delegate: DELEGATE },
  });
  await ch.command({
    query: `INSERT INTO {db:Identifier}.token_accounts_by_mint (mint, program, pubkey) SELECT mint, {token:String}, pubkey FROM (${accounts})`,
    query_params: { ...p, mints, token: TOKEN_PROGRAM },
  });
  await ch.command({
    query: `INSERT INTO {db:Identifier}.token_accounts_by_delegate (delegate, program, mint, pubkey)
      SELECT {delegate:String}, {token:String}, mint, pubkey FROM (${accounts}) WHERE delegated`,
    query_params: { ...p, mints, token: TOKEN_PROGRAM, delegate: DELEGATE },
  });
  // Mints: 82 bytes, 6 decimals.
  await ch.command({
    query: `INSERT INTO {db:Identifier}.account_writes (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
      SELECT m, ${FIRST_SLOT}, 1, {token:String}, 1461600, false, 18446744073709551615, 82,
        base64Encode(concat(unhex('01000000'), repeat('a', 32), ${u64le('1000000000000')}, char(6), char(1), unhex('00000000'), repeat(char(0), 32)))
      FROM (SELECT arrayJoin({mints:Array(String)}) AS m)`,
    query_params: { ...p, mints, token: TOKEN_PROGRAM },
  });
  // One epoch of blocks, every 20th slot skipped (no block row, status 3), 1,000 transactions each.
  await ch.command({
    query: `INSERT INTO {db:Identifier}.blocks (slot, parent_slot, blockhash, block_height, block_time, leader, transaction_count, vote_transaction_count)
      SELECT ${FIRST_SLOT} + number, ${FIRST_SLOT} + number - 1, base58Encode(unhex(concat(leftPad(hex(number), 16, '0'), repeat('bb', 24)))),
        number, 1700000000 + intDiv(number * 2, 5), {ids:Array(String)}[(intDiv(number, 4) % ${LEADERS}) + 1], ${TX_PER_BLOCK}, 600
      FROM numbers(${SLOTS}) WHERE number % 20 != 7`,
    query_params: { ...p, ids: identities },
  });
  await ch.command({
    query: `INSERT INTO {db:Identifier}.blockhashes (blockhash, slot, block_height)
      SELECT blockhash, slot, block_height FROM {db:Identifier}.blocks WHERE slot > ${LAST_SLOT - 400}`,
    query_params: p,
  });
  await ch.command({
    query: `INSERT INTO {db:Identifier}.slot_status (slot, status) SELECT ${FIRST_SLOT} + number, if(number % 20 = 7, 3, 2) FROM numbers(${SLOTS})`,
    query_params: p,
  });
  await ch.command({
    query: `INSERT INTO {db:Identifier}.epochs (epoch, first_slot, slots_per_epoch, slots_per_leader, identities, schedule)
      SELECT 100, ${FIRST_SLOT}, ${SLOTS}, 4, {ids:Array(String)}, arrayMap(i -> toUInt32(i % ${LEADERS}), range(${Math.ceil(SLOTS / 4)}))`,
    query_params: { ...p, ids: identities },
  });
  // The last 150 produced blocks' transactions: one non-vote transaction's record (price 1,000 + position).
  const record = (price: bigint): string =>
    Buffer.from(
      TransactionEvent.encode(
        TransactionEvent.fromPartial({
          signatures: [Buffer.alloc(64, 1)],
          numRequiredSignatures: 1,
          numReadonlyUnsignedAccounts: 2,
          accountKeys: [Buffer.alloc(32, 1), Buffer.alloc(32, 2), bs58.decode(SYSTEM_PROGRAM), bs58.decode(COMPUTE_BUDGET_PROGRAM)].map(
            (b) => Buffer.from(b),
          ),
          recentBlockhash: Buffer.alloc(32, 3),
          instructions: [
            {
              programIdIndex: 3,
              accounts: Buffer.alloc(0),
              data: Buffer.concat([Buffer.from([3]), Buffer.from(new BigUint64Array([price]).buffer)]),
            },
            { programIdIndex: 2, accounts: Buffer.from([0, 1]), data: Buffer.from([2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]) },
          ],
        }),
      ).finish(),
    ).toString('base64');
  await ch.command({
    query: `INSERT INTO {db:Identifier}.transaction_records (slot, position, signature, record)
      SELECT s, p, base58Encode(unhex(concat(leftPad(hex(s), 16, '0'), leftPad(hex(p), 16, '0'), repeat('ab', 48)))), base64Decode({record:String})
      FROM (SELECT slot AS s FROM {db:Identifier}.blocks ORDER BY slot DESC LIMIT 150) ARRAY JOIN range(${TX_PER_BLOCK}) AS p`,
    query_params: { ...p, record: record(1000n) },
  });
  await setHeads(ch, DB, { processed: LAST_SLOT, confirmed: LAST_SLOT, finalized: LAST_SLOT });
}

const pct = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const time = async (f: () => Promise<unknown>, n: number): Promise<number[]> => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f();
    out.push(performance.now() - t);
  }
  return out;
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-agave-'));
  const ch = await createClickHouse({ dataDir: dir, database: DB });
  let close = async () => {};
  try {
    await applyMigrations(ch, DB);
    const filled = performance.now();
    await fill(ch);
    console.log(
      `jsonrpc-agave fill token_accounts=${TOKEN_ACCOUNTS} slots=${SLOTS} seconds=${((performance.now() - filled) / 1000).toFixed(1)}`,
    );
    const rpc = await startBenchRpc(ch, DB, LAST_SLOT, { maxBatch: 10 });
    close = rpc.close;
    const url = rpc.url;
    const call = async (method: string, params: unknown[]): Promise<unknown> => {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await r.json()) as { result?: unknown; error?: unknown };
      if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
      return body.result;
    };
    const sql = async (query: string, params: Record<string, unknown>) =>
      (await ch.query({ query, query_params: { db: DB, ...params }, format: 'JSONEachRow' })).json();
    const window = (await sql(WINDOW_SQL, { head: LAST_SLOT, n: 150 })) as { slot: string }[];
    const message = Buffer.from(
      encodeMessage(
        TransactionEvent.fromPartial({
          numRequiredSignatures: 1,
          numReadonlyUnsignedAccounts: 1,
          accountKeys: [Buffer.alloc(32, 1), Buffer.alloc(32, 2), Buffer.from(bs58.decode(SYSTEM_PROGRAM))],
          recentBlockhash: Buffer.from(
            bs58.decode(
              (
                (await sql(`SELECT blockhash FROM {db:Identifier}.blocks WHERE slot = {s:UInt64}`, { s: LAST_SLOT - 1 })) as {
                  blockhash: string;
                }[]
              )[0]!.blockhash,
            ),
          ),
          instructions: [{ programIdIndex: 2, accounts: Buffer.from([0, 1]), data: Buffer.from([2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]) }],
        }),
      ),
    ).toString('base64');

    // The first getRecentPrioritizationFees reads and summarises the 150 blocks (150,000 records); later calls only the window.
    if (wanted('getRecentPrioritizationFees')) {
      const cold = await time(() => call('getRecentPrioritizationFees', [[]]), 1);
      const coldSql = await time(() => sql(RECORDS_SQL, { slots: window.map((w) => BigInt(w.slot)) }), 3);
      console.log(
        `jsonrpc-agave method=getRecentPrioritizationFees[cold,150x${TX_PER_BLOCK}] p50_ms=${cold[0]!.toFixed(1)} p99_ms=${cold[0]!.toFixed(1)} sql_p50_ms=${pct(coldSql, 0.5).toFixed(1)} overhead=${(cold[0]! / pct(coldSql, 0.5)).toFixed(2)}`,
      );
    }
    const cases: { name: string; method: string; params: unknown[]; sql: () => Promise<unknown> }[] = [
      {
        name: `getTokenLargestAccounts[${TOKEN_ACCOUNTS / MINTS} holders]`,
        method: 'getTokenLargestAccounts',
        params: [mints[3]],
        sql: () => sql(LARGEST_SQL, { mint: mints[3], program: TOKEN_PROGRAM, slot: LAST_SLOT, limit: 20 }),
      },
      {
        name: `getTokenAccountsByDelegate[${TOKEN_ACCOUNTS / 1000} accounts,base64]`,
        method: 'getTokenAccountsByDelegate',
        params: [DELEGATE, { programId: TOKEN_PROGRAM }, { encoding: 'base64' }],
        sql: () => sql(DELEGATE_ACCOUNTS_SQL, { delegate: DELEGATE, program: TOKEN_PROGRAM, mint: '', slot: LAST_SLOT }),
      },
      {
        name: `getTransactionCount[${SLOTS} slots]`,
        method: 'getTransactionCount',
        params: [],
        sql: () => sql(TRANSACTION_COUNT_SQL, { slot: LAST_SLOT }),
      },
      {
        name: `getBlockProduction[epoch of ${SLOTS} slots]`,
        method: 'getBlockProduction',
        params: [],
        sql: () => sql(PRODUCED_SQL, { first: FIRST_SLOT, last: LAST_SLOT, epoch: 100, firstSlot: FIRST_SLOT, perLeader: 4 }),
      },
      {
        name: 'getRecentPrioritizationFees[warm]',
        method: 'getRecentPrioritizationFees',
        params: [[key(1, 1)]],
        sql: () => sql(WINDOW_SQL, { head: LAST_SLOT, n: 150 }),
      },
      {
        name: 'getSlotLeaders[limit=5000]',
        method: 'getSlotLeaders',
        params: [FIRST_SLOT + 1000, 5000],
        sql: () => sql(`SELECT 1`, {}),
      },
      {
        name: 'getFeeForMessage',
        method: 'getFeeForMessage',
        params: [message],
        sql: () => sql(`SELECT block_height FROM {db:Identifier}.blockhashes LIMIT 1`, {}),
      },
    ];
    for (const c of cases.filter((x) => wanted(x.method))) {
      await call(c.method, c.params); // warm-up
      const api = await time(() => call(c.method, c.params), REQUESTS);
      const direct = await time(c.sql, REQUESTS);
      const p50 = pct(api, 0.5);
      const s50 = pct(direct, 0.5);
      console.log(
        `jsonrpc-agave method=${c.name} p50_ms=${p50.toFixed(1)} p99_ms=${pct(api, 0.99).toFixed(1)} sql_p50_ms=${s50.toFixed(1)} overhead=${(p50 / s50).toFixed(2)}`,
      );
    }
    console.log(`jsonrpc-agave load1=${loadavg()[0]!.toFixed(2)}`);
  } finally {
    await close();
    await ch.close();
    if (process.env.BENCH_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  }
}

await main();

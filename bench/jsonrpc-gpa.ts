// Paged and streamed program-account reads (issue 21 items 1, 4, 6): fills embedded ClickHouse through
// INSERT ... SELECT FROM numbers() with 10,000,000 accounts under one program (writes spread over 100,000 slots)
// and 1,000,000 SPL Token accounts, as the projector stores them (account_writes and 006's program_accounts and
// program_account_changes), starts the JSON-RPC server in this process, and measures, sequentially:
//   - a getProgramAccountsV2 page of 1,000 (base64) at the first, middle and last page of the walk;
//   - changedSinceSlot over the last 100 slots (a page of 1,000);
//   - an unpaginated getProgramAccounts over the 1,000,000 token accounts, streamed: time to first byte, total
//     time and the process's RSS growth (chdb runs in this process, so its memory counts too);
// each beside the same statements run straight against ClickHouse (the "bare SQL") and the ratio of the two p50s;
// and, before them, the CPU of a page (this process's, chdb's threads included) with the ownership check against
// owner_writes (011) and, interleaved on the same data, against account_writes (the check before 011).
// Prints one line per figure:
//   gpa <case> p50_ms=<x> sql_p50_ms=<y> overhead=<ratio> ...
//   gpa-cpu <case> page_cpu_ms=<x> page_before_cpu_ms=<y> ... (medians of BENCH_GPA_CPU_ROUNDS; the "before" page
//   is an older tree's reader, BENCH_GPA_BEFORE=/path/to/old/api/views/program-accounts.ts, on the same data)
// Run: npx tsx bench/jsonrpc-gpa.ts. Env: BENCH_GPA_ACCOUNTS (10000000), BENCH_GPA_TOKEN_ACCOUNTS (1000000),
// BENCH_GPA_RUNS (30 requests per page figure), BENCH_KEEP=1 keeps the data folder, BENCH_GPA_DIR=<a kept folder>
// measures on it again without filling (an A/B of two trees on the same data).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { createClickHouse, queryStream, type ClickHouseClient } from '../platform/clickhouse.js';
import { applyMigrations } from '../platform/migrations.js';
import { startBenchRpc } from './support/jsonrpc-server.js';
import {
  programAccountsPage,
  programAccountsSql,
  stillOwned,
  type ProgramAccountRow,
  type ProgramAccountsRead,
} from '../api/views/program-accounts.js';
import { queryRows } from '../api/views/query.js';
import { TOKEN_PROGRAM } from '../schemas/programs.js';
import { key } from '../test/support/jsonrpc/store.js';

const ACCOUNTS = Number(process.env.BENCH_GPA_ACCOUNTS ?? 10_000_000);
const TOKEN_ACCOUNTS = Number(process.env.BENCH_GPA_TOKEN_ACCOUNTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_GPA_RUNS ?? 30);
const CPU_ROUNDS = Number(process.env.BENCH_GPA_CPU_ROUNDS ?? 15);
// An older tree's page reader (its api/views/program-accounts.ts), measured on the same data for an A/B in one process.
const before = process.env.BENCH_GPA_BEFORE
  ? ((await import(process.env.BENCH_GPA_BEFORE)) as { programAccountsPage: typeof programAccountsPage })
  : undefined;
const DB = 'bench_gpa';
const FIRST_SLOT = 1_000_000;
const SLOTS = 100_000;
const LAST_SLOT = FIRST_SLOT + SLOTS - 1;
const PROGRAM = key(1, 33);
const WALLETS = 1000;
const MINT = key(2, 33);

/** Pubkey bytes of row n: 8 hash bytes (spread over the key space), the 8-byte counter (unique), 16 filler. */
const PUBKEY_SQL = (salt: string): string =>
  `base58Encode(unhex(concat(hex(sipHash64(number, '${salt}')), leftPad(hex(number), 16, '0'), repeat('ab', 16))))`;

async function fill(ch: ClickHouseClient): Promise<void> {
  const t0 = performance.now();
  const cmd = (query: string, params: Record<string, unknown> = {}) => ch.command({ query, query_params: { db: DB, ...params } });
  // Program accounts: 100 bytes of data, written at one of 100,000 slots (the last 100 slots hold ~10,000).
  await cmd(
    `INSERT INTO {db:Identifier}.account_writes (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
     SELECT ${PUBKEY_SQL('p')}, {first:UInt64} + number % {slots:UInt64}, number, {program:String}, 1000000 + number, false,
            18446744073709551615, 100, base64Encode(concat(reinterpretAsFixedString(number), repeat('d', 92)))
     FROM numbers({rows:UInt64})`,
    { first: FIRST_SLOT, slots: SLOTS, program: PROGRAM, rows: ACCOUNTS },
  );
  // Token accounts: 165 bytes, one mint, a thousand wallets.
  await cmd(
    `INSERT INTO {db:Identifier}.account_writes (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
     SELECT ${PUBKEY_SQL('t')}, {first:UInt64} + number % {slots:UInt64}, number, {token:String}, 2039280, false, 18446744073709551615, 165,
            base64Encode(concat(base58Decode({mint:String}), unhex(concat('07', leftPad(hex(number % {wallets:UInt32}), 16, '0'), repeat('00', 23))),
                                reinterpretAsFixedString(number), char(1), repeat('\\0', 92)))
     FROM numbers({rows:UInt64})`,
    { first: FIRST_SLOT, slots: SLOTS, token: TOKEN_PROGRAM, mint: MINT, wallets: WALLETS, rows: TOKEN_ACCOUNTS },
  );
  // The ownership check's copy (011_owner_writes.sql), as the projector writes it beside every account write.
  await cmd(
    `INSERT INTO {db:Identifier}.owner_writes (pubkey, slot, write_version, owner)
     SELECT pubkey, slot, write_version, owner FROM {db:Identifier}.account_writes`,
  );
  // The owner-keyed copies, as the projector writes them beside every account write.
  for (const t of ['program_accounts', 'program_account_changes']) {
    await cmd(
      `INSERT INTO {db:Identifier}.${t} (pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data)
       SELECT pubkey, slot, write_version, owner, lamports, executable, rent_epoch, space, data FROM {db:Identifier}.account_writes`,
    );
  }
  await ch.insert({
    table: `${DB}.heads`,
    columns: ['commitment', 'slot'],
    format: 'JSONEachRow',
    values: ['processed', 'confirmed', 'finalized'].map((commitment) => ({ commitment, slot: String(LAST_SLOT) })),
  });
  // The head's block, as a running projector stores it: without it every refresh of the api's views state (one per
  // 200 ms, charged to whichever call comes then) looks for the newest block below each head as well (16 → 29 ms CPU).
  await cmd(
    `INSERT INTO {db:Identifier}.blocks (slot, parent_slot, blockhash, block_height, block_time, leader, transaction_count, vote_transaction_count)
     VALUES ({last:UInt64}, {last:UInt64} - 1, 'h', {last:UInt64}, 1700000000, 'L', 0, 0)`,
    { last: LAST_SLOT },
  );
  console.log(
    `# filled ${ACCOUNTS} program accounts and ${TOKEN_ACCOUNTS} token accounts in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
}

const p50 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** POST a call, read the answer as text (no JSON parse on this side: it would be the client's cost). */
async function post(port: number, method: string, params: unknown[]): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return res.text();
}

/** CPU ms (user + system, every thread of this process: chdb's too) of one call. */
async function cpuMs(f: () => Promise<unknown>): Promise<number> {
  const c = process.cpuUsage();
  await f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
}

/**
 * Waits (at most 10 minutes) until the engine merges nothing in the bench's database: the fill leaves merges
 * running for minutes, in this process, and their CPU would count in every CPU figure taken meanwhile.
 */
async function mergesSettled(ch: ClickHouseClient): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    const [m] = await queryRows<{ n: string }>(ch, `SELECT count() AS n FROM system.merges WHERE database = {db:String}`, { db: DB });
    if (Number(m?.n ?? 0) === 0 || performance.now() - t0 > 600_000) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  console.log(`# merges settled after ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

/** The same client with the ownership check sent to account_writes, as before migration 011. */
function checkingAccountWrites(ch: ClickHouseClient): ClickHouseClient {
  return new Proxy(ch, {
    get(target, prop, receiver) {
      if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown;
      return (o: Parameters<ClickHouseClient['query']>[0]) =>
        target.query({ ...o, query: o.query.replaceAll('}.owner_writes', '}.account_writes') });
    },
  });
}

async function timed(f: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await f();
    out.push(performance.now() - t);
  }
  return out;
}

/** The pubkey at `fraction` of the program's key range (the cursor a walk has there). */
async function cursorAt(ch: ClickHouseClient, fraction: number): Promise<string | undefined> {
  if (fraction === 0) return undefined;
  const offset = Math.floor(ACCOUNTS * fraction);
  const [row] = await queryRows<{ pubkey: string }>(
    ch,
    `SELECT pubkey FROM {db:Identifier}.program_accounts WHERE owner = {program:String} ORDER BY key LIMIT 1 OFFSET {o:UInt64}`,
    { db: DB, program: PROGRAM, o: offset },
  );
  return row!.pubkey;
}

async function main(): Promise<void> {
  const reuse = process.env.BENCH_GPA_DIR;
  if (reuse !== undefined && !existsSync(reuse)) throw new Error(`BENCH_GPA_DIR: no folder ${reuse}`);
  const dir = reuse ?? mkdtempSync(join(tmpdir(), 'slotstream-bench-gpa-'));
  const ch = await createClickHouse({ dataDir: dir, database: DB });
  let close = async () => {};
  try {
    await applyMigrations(ch, DB);
    if (reuse === undefined) await fill(ch);
    await mergesSettled(ch);
    const rpc = await startBenchRpc(ch, DB, LAST_SLOT, { maxProgramAccounts: TOKEN_ACCOUNTS });
    close = rpc.close;
    console.log(
      `# machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    // Pages of 1,000 at three depths of the walk.
    for (const [name, fraction] of [
      ['first', 0],
      ['middle', 0.5],
      ['last', 0.9999],
    ] as const) {
      const after = await cursorAt(ch, fraction);
      const params = [PROGRAM, { limit: 1000, encoding: 'base64', ...(after ? { paginationKey: after } : {}) }];
      const check = JSON.parse(await post(rpc.port, 'getProgramAccountsV2', params)) as { result: { accounts: unknown[] } };
      const read: ProgramAccountsRead = { db: DB, program: PROGRAM, slot: BigInt(LAST_SLOT), filters: [] };
      const cursor = after === undefined ? undefined : bs58.decode(after);
      // CPU of the page (its statements straight against ClickHouse), of the page of an older tree's reader
      // (BENCH_GPA_BEFORE) on the same data, of the ownership check as a statement of its own (stream's) against
      // owner_writes and against account_writes, and of a call through the api (client and server: this process);
      // interleaved.
      const oldCh = checkingAccountWrites(ch);
      const candidates = (await programAccountsPage(ch, read, cursor, 1000)).rows;
      const cpu = { page: [] as number[], before: [] as number[], check: [] as number[], checkAw: [] as number[], api: [] as number[] };
      for (let i = 0; i < CPU_ROUNDS; i++) {
        cpu.page.push(await cpuMs(() => programAccountsPage(ch, read, cursor, 1000)));
        if (before) cpu.before.push(await cpuMs(() => before.programAccountsPage(ch, read, cursor, 1000)));
        cpu.check.push(await cpuMs(() => stillOwned(ch, read, candidates)));
        cpu.checkAw.push(await cpuMs(() => stillOwned(oldCh, read, candidates)));
        cpu.api.push(await cpuMs(() => post(rpc.port, 'getProgramAccountsV2', params)));
      }
      console.log(
        `gpa-cpu getProgramAccountsV2[limit=1000,base64,${name} page] page_cpu_ms=${p50(cpu.page).toFixed(1)} page_before_cpu_ms=${before ? p50(cpu.before).toFixed(1) : '-'} check_statement_owner_writes_cpu_ms=${p50(cpu.check).toFixed(1)} check_statement_account_writes_cpu_ms=${p50(cpu.checkAw).toFixed(1)} api_cpu_ms=${p50(cpu.api).toFixed(1)} rounds=${CPU_ROUNDS}`,
      );
      const api = await timed(() => post(rpc.port, 'getProgramAccountsV2', params));
      // The bare SQL: the statements the method runs for the page (programAccountsPage), straight against ClickHouse.
      const sql = await timed(() => programAccountsPage(ch, read, cursor, 1000));
      console.log(
        `gpa getProgramAccountsV2[limit=1000,base64,${name} page] p50_ms=${p50(api).toFixed(1)} sql_p50_ms=${p50(sql).toFixed(1)} overhead=${(p50(api) / p50(sql)).toFixed(2)} accounts=${check.result.accounts.length}`,
      );
    }

    // changedSinceSlot over the last 100 slots.
    {
      const since = LAST_SLOT - 99;
      const params = [PROGRAM, { limit: 1000, encoding: 'base64', changedSinceSlot: since }];
      const check = JSON.parse(await post(rpc.port, 'getProgramAccountsV2', params)) as { result: { accounts: unknown[] } };
      const read: ProgramAccountsRead = { db: DB, program: PROGRAM, slot: BigInt(LAST_SLOT), filters: [], changedSinceSlot: BigInt(since) };
      const api = await timed(() => post(rpc.port, 'getProgramAccountsV2', params));
      const sql = await timed(() => programAccountsPage(ch, read, undefined, 1000));
      // CPU per call (client and server: one process), interleaved with the bare SQL's.
      const cpuApi: number[] = [];
      const cpuSql: number[] = [];
      for (let i = 0; i < CPU_ROUNDS; i++) {
        cpuApi.push(await cpuMs(() => post(rpc.port, 'getProgramAccountsV2', params)));
        cpuSql.push(await cpuMs(() => programAccountsPage(ch, read, undefined, 1000)));
      }
      console.log(
        `gpa getProgramAccountsV2[changedSinceSlot=last 100 slots,limit=1000] p50_ms=${p50(api).toFixed(1)} sql_p50_ms=${p50(sql).toFixed(1)} overhead=${(p50(api) / p50(sql)).toFixed(2)} api_cpu_ms=${p50(cpuApi).toFixed(1)} sql_cpu_ms=${p50(cpuSql).toFixed(1)} accounts=${check.result.accounts.length}`,
      );
    }

    // Unpaginated getProgramAccounts over the token accounts, streamed; RSS sampled meanwhile.
    {
      const read: ProgramAccountsRead = { db: DB, program: TOKEN_PROGRAM, slot: BigInt(LAST_SLOT), filters: [] };
      const s = programAccountsSql(read, { limit: false });
      let rows = 0;
      const t0 = performance.now();
      for await (const chunk of queryStream<ProgramAccountRow>(ch, s.sql, s.params(undefined)))
        rows += (await stillOwned(ch, read, chunk)).length;
      const sqlMs = performance.now() - t0;
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const r = await streamedCall(rpc.port, 'getProgramAccounts', [TOKEN_PROGRAM, { encoding: 'base64' }]);
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      console.log(
        `gpa getProgramAccounts[${rows} accounts,base64,streamed] total_ms=${r.totalMs.toFixed(0)} first_byte_ms=${r.firstByteMs.toFixed(0)} sql_ms=${sqlMs.toFixed(0)} overhead=${(r.totalMs / sqlMs).toFixed(2)} rss_growth_mb=${((peak - rssBefore) / 2 ** 20).toFixed(0)} answer_mb=${(r.bytes / 2 ** 20).toFixed(0)}`,
      );
    }
    console.log(
      `# load after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await close();
    await ch.close();
    if (process.env.BENCH_KEEP !== '1' && reuse === undefined) rmSync(dir, { recursive: true, force: true });
    else console.log(`# data kept in ${dir}`);
  }
}

/** One call whose answer is counted as it arrives and dropped (a client that does not hold it). */
function streamedCall(port: number, method: string, params: unknown[]): Promise<{ firstByteMs: number; totalMs: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first = 0;
    let bytes = 0;
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': 'application/json' } }, (res) => {
      res.on('data', (c: Buffer) => {
        if (bytes === 0) first = performance.now() - t0;
        bytes += c.length;
      });
      res.on('end', () => resolve({ firstByteMs: first, totalMs: performance.now() - t0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  });
}

await main();

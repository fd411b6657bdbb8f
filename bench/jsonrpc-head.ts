// The head cache against the views (issue 33, item 2): the same chain stored in embedded ClickHouse (through the
// projector's projections) and held by a HeadCache fed the same records as the live read hands them on, two JSON-RPC
// servers (one with the cache, one on the views alone), and getLatestBlockhash / getTransaction / getBlock (signatures)
// / getAccountInfo / getBalance / getSignaturesForAddress (the busy payer's newest 10) asked one after another of
// each, timed at the client (the same process: the figures compare the two paths, same session, same load). Every
// transaction writes its two accounts (the payer and the destination, as a transfer does). Prints the cache's feed
// cost per record of each kind and one line per method and path:
//   jsonrpc-head method=<m> path=<cache|views> p50_ms=<x> p99_ms=<y> calls=<n>
// Env: BENCH_SLOTS (300), BENCH_TX_PER_SLOT (200), BENCH_CALLS (2000), BENCH_CACHE_SLOTS (150).
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { HeadCache, type HeadEvent } from '../api/head/head-cache.js';
import { createClickHouse } from '../platform/clickhouse.js';
import { applyMigrations } from '../platform/migrations.js';
import { AccountEvent, SlotStatus, TransactionEvent, type ChainEvent } from '../schemas/codec.js';
import { scanAccount, scanTransaction } from '../schemas/scan.js';
import { projectInto } from '../test/support/jsonrpc/chain.js';
import { DEST, PAYER, transferTx } from '../test/support/jsonrpc/tx-chain.js';
import type { SlotBatch } from '../test/support/projector/chain.js';
import { slotStatus } from '../test/support/projector/events.js';
import { startBenchRpc } from './support/jsonrpc-server.js';

const SLOTS = Number(process.env.BENCH_SLOTS ?? 300);
const TX_PER_SLOT = Number(process.env.BENCH_TX_PER_SLOT ?? 200);
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const CACHE_SLOTS = Number(process.env.BENCH_CACHE_SLOTS ?? 150);
const FIRST = 100; // transferTx balances allow slots below 1,000
const DB = 'bench_head';
const FINALITY_LAG = 32;

const sigOf = (slot: number, i: number): Buffer => {
  const b = Buffer.alloc(64, 0xcd);
  b.writeUInt32BE(slot, 0);
  b.writeUInt32BE(i, 4);
  return b;
};

function chain(): SlotBatch[] {
  const batches: SlotBatch[] = [];
  for (let s = FIRST; s < FIRST + SLOTS; s++) {
    const events: ChainEvent[] = [];
    for (let i = 0; i < TX_PER_SLOT; i++) {
      const tx = transferTx(s, i, sigOf(s, i));
      events.push({ kind: 'transactions', event: tx });
      for (const [k, key] of [PAYER, DEST].entries()) {
        const w = {
          pubkey: key,
          owner: Buffer.alloc(32),
          lamports: tx.postBalances[k]!,
          slot: BigInt(s),
          writeVersion: BigInt(s * 1000 + i),
        };
        events.push({ kind: 'accounts', event: AccountEvent.fromPartial(w) });
      }
    }
    // The end marker counts the slot's records, as the ingest's does: the cache proves an account's state with them.
    const marker = slotStatus(s, SlotStatus.SLOT_STATUS_PROCESSED, { parent: s - 1, height: s, time: 1_700_000_000 + s, txs: TX_PER_SLOT });
    marker.end = {
      counts: [
        { kind: 'transactions', partition: 0, count: TX_PER_SLOT },
        { kind: 'accounts', partition: 0, count: 2 * TX_PER_SLOT },
      ],
    };
    events.push({ kind: 'slots', event: marker });
    if (s - FINALITY_LAG >= FIRST) events.push({ kind: 'slots', event: slotStatus(s - FINALITY_LAG, SlotStatus.SLOT_STATUS_FINALIZED) });
    batches.push({ slot: BigInt(s), events });
  }
  return batches;
}

const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function timed(url: string, body: (i: number) => unknown): Promise<{ p50: number; p99: number }> {
  const ms: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(i)) });
    const json = (await r.json()) as { error?: unknown };
    if (json.error !== undefined) throw new Error(`bench call failed: ${JSON.stringify(json.error)}`);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { p50: pct(ms, 50), p99: pct(ms, 99) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-head-'));
  const ch = await createClickHouse({ dataDir: dir, database: DB });
  try {
    await applyMigrations(ch, DB);
    const batches = chain();
    const last = FIRST + SLOTS - 1;
    await projectInto(ch, DB, batches, { processed: last, confirmed: last, finalized: last - FINALITY_LAG });
    // The records as the live tail hands them on (scanned), encoded first: the feed is timed alone.
    const records: HeadEvent[] = batches.flatMap((b) =>
      b.events.flatMap((e): HeadEvent[] =>
        e.kind === 'transactions'
          ? [{ kind: 'transaction' as const, scan: scanTransaction(Buffer.from(TransactionEvent.encode(e.event).finish())) }]
          : e.kind === 'accounts'
            ? [{ kind: 'account' as const, scan: scanAccount(Buffer.from(AccountEvent.encode(e.event).finish())) }]
            : e.kind === 'slots'
              ? [{ kind: 'slot' as const, event: e.event }]
              : [],
      ),
    );
    // The feed timed per kind: a cache fed only the transactions and slots, then one fed everything (a warm-up
    // round of each first); the accounts' cost is the difference.
    const withoutAccounts = records.filter((r) => r.kind !== 'account');
    const feed = (rs: readonly HeadEvent[]): { cache: HeadCache; ms: number } => {
      const cache = new HeadCache({ slots: CACHE_SLOTS, fromStart: true });
      const started = performance.now();
      for (const r of rs) cache.onEvent(r);
      return { cache, ms: performance.now() - started };
    };
    feed(withoutAccounts);
    const txOnly = feed(withoutAccounts).ms;
    feed(records);
    const { cache, ms: all } = feed(records);
    const txCount = SLOTS * TX_PER_SLOT;
    const views = await startBenchRpc(ch, DB, last);
    const cached = await startBenchRpc(ch, DB, last, { head: cache });
    const busy = [bs58.encode(PAYER), bs58.encode(DEST)];
    // Recent transactions: in the cache's slots at or below the confirmed head.
    const recent = (i: number) => {
      const slot = last - (i % (CACHE_SLOTS - 10));
      return bs58.encode(sigOf(slot, (i * 7919) % TX_PER_SLOT));
    };
    const cases: [string, (i: number) => unknown][] = [
      ['getLatestBlockhash', (i) => ({ jsonrpc: '2.0', id: i, method: 'getLatestBlockhash', params: [{ commitment: 'confirmed' }] })],
      ['getTransaction', (i) => ({ jsonrpc: '2.0', id: i, method: 'getTransaction', params: [recent(i), { commitment: 'confirmed' }] })],
      [
        'getBlock',
        (i) => ({
          jsonrpc: '2.0',
          id: i,
          method: 'getBlock',
          params: [last - FINALITY_LAG - (i % 50), { transactionDetails: 'signatures' }],
        }),
      ],
      [
        'getAccountInfo',
        (i) => ({
          jsonrpc: '2.0',
          id: i,
          method: 'getAccountInfo',
          params: [busy[i % 2], { encoding: 'base64', commitment: 'confirmed' }],
        }),
      ],
      ['getBalance', (i) => ({ jsonrpc: '2.0', id: i, method: 'getBalance', params: [busy[i % 2]] })],
      [
        'getSignaturesForAddress',
        (i) => ({ jsonrpc: '2.0', id: i, method: 'getSignaturesForAddress', params: [busy[i % 2], { limit: 10 }] }),
      ],
    ];
    console.log(
      `machine cpus=${cpus().length} model="${cpus()[0]?.model}" mem_gb=${(totalmem() / 2 ** 30).toFixed(1)} load=${loadavg()[0]!.toFixed(1)} node=${process.version}`,
    );
    console.log(`chain slots=${SLOTS} tx_per_slot=${TX_PER_SLOT} cache_slots=${CACHE_SLOTS} calls=${CALLS}`);
    // The cost the cache adds to the live read: per transaction record fed (slot records and evictions included).
    const perAccount = ((all - txOnly) * 1000) / (txCount * 2);
    console.log(
      `jsonrpc-head feed_us_per_transaction=${((txOnly * 1000) / txCount).toFixed(2)} feed_us_per_account_write=${perAccount.toFixed(2)}`,
    );
    for (const [method, body] of cases) {
      for (const [path, server] of [
        ['views', views],
        ['cache', cached],
      ] as const) {
        await timed(server.url, body); // warm-up round (JIT, connection pool, the views' first reads)
        const r = await timed(server.url, body);
        console.log(`jsonrpc-head method=${method} path=${path} p50_ms=${r.p50.toFixed(3)} p99_ms=${r.p99.toFixed(3)} calls=${CALLS}`);
      }
    }
    console.log(`load_after=${loadavg()[0]!.toFixed(1)}`);
    await views.close();
    await cached.close();
  } finally {
    await ch.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

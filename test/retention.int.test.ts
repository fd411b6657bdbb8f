// Retention enforced by ClickHouse (issue 22, item 4), through what users get: a chain published to a real
// broker with the default codec's sibling zstd (records compressed on the wire and on disk), the projector
// writing embedded ClickHouse with both windows set, the JSON-RPC server reading. The window moves: the first
// part of the chain is aged past it (its rows' written_at moved an hour back, as an hour passing would) and a
// forced TTL merge applies it. Then the views hold the second part only, getFirstAvailableBlock and
// minimumLedgerSlot name its first block, getTransaction of an older transaction is null, an as-of read before
// the window is refused, and every account's newest state is intact (getAccountInfo, getProgramAccounts), its
// older writes rolled up into it. Last, a rebuild replays the compressed topics exactly once into fresh views.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { JsonRpcServer } from '../api/jsonrpc/server.js';
import { readViewsState } from '../api/views/state.js';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { createKafka, kafkaCompression, type Kafka } from '../platform/kafka/index.js';
import { applyMigrations } from '../platform/migrations.js';
import { silentLogger } from '../platform/log.js';
import { AccountEvent, TransactionEvent } from '../schemas/codec.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { makeChain, PROGRAMS, type SlotBatch } from './support/projector/chain.js';
import { dumpViews, heads, kafkaLag } from './support/projector/dump.js';
import { b58 } from './support/projector/events.js';
import { expectedViews } from './support/projector/expected.js';
import { consumeAll, publishChain } from './support/projector/kafka.js';
import { readStoreHistory } from '../projector/history.js';
import { rebuild } from '../projector/rebuild.js';
import { ACCOUNT_HISTORY_TABLES, TRANSACTION_TABLES, type RetentionWindows } from '../projector/retention.js';
import { startProjector, type Projector } from '../projector/run.js';

const DB = 'retention_int';
const WINDOWS: RetentionWindows = { accountHistoryS: 600, transactionsS: 600 };
const OPTIONS = { database: DB, groupId: 'g-retention', batchRows: 400, batchMs: 50, retention: WINDOWS };
let dir: string;
let ch: ClickHouseClient;
let kafka: Kafka;
let topics: TopicNames;
let projector: Projector | undefined;
let rpc: JsonRpcServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'projector-retention-int-'));
  ch = await createClickHouse({ dataDir: dir, database: DB });
  topics = topicNames(uniquePrefix('retention'));
  kafka = createKafka({ brokers: testBrokers(), clientId: 'retention-int-test', compression: kafkaCompression('zstd', 3) });
  await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
  await applyMigrations(ch, DB);
  projector = await startProjector(OPTIONS, silentLogger, { ch, kafka, topics });
  rpc = await JsonRpcServer.open({
    ch,
    database: DB,
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 50 * 1024,
    maxBatch: 10,
    maxSlotLag: 1000,
    chainTip: () => undefined,
    log: silentLogger,
    stateTtlMs: 0,
  });
});

afterAll(async () => {
  await rpc?.close();
  await projector?.stop();
  await ch?.close();
  await kafka?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const r = await fetch(`http://127.0.0.1:${rpc.port}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await r.json()) as { result?: unknown; error?: { code: number; message: string } };
}

async function result<T>(method: string, params: unknown[]): Promise<T> {
  const body = await call(method, params);
  if (body.error) throw new Error(`${method} answered ${JSON.stringify(body.error)}`);
  return body.result as T;
}

/** Waits until the projector stored everything published and its processed head is `slot`. */
async function caughtUp(slot: bigint): Promise<void> {
  await waitFor(async () => (await kafkaLag(ch, DB)) === 0n && (await heads(ch, DB)).includes(`processed|${slot}`), {
    what: `processed head ${slot} with no lag`,
    timeoutMs: 300_000,
  });
}

const count = async (table: string): Promise<number> => {
  const rs = await ch.query({ query: `SELECT count() AS n FROM ${DB}.${table}`, format: 'JSONEachRow' });
  return Number((await rs.json<{ n: string }>())[0]!.n);
};

interface Newest {
  owner: string;
  lamports: bigint;
  data: string;
  slot: bigint;
}

/** Each account's newest write in these batches (the chain's writes are in slot and write_version order). */
function newestWrites(batches: readonly SlotBatch[]): Map<string, Newest> {
  const out = new Map<string, Newest>();
  for (const b of batches)
    for (const e of b.events) {
      if (e.kind !== 'accounts') continue;
      const a = e.event as AccountEvent;
      out.set(bs58.encode(a.pubkey), {
        owner: bs58.encode(a.owner),
        lamports: a.lamports,
        data: Buffer.from(a.data).toString('base64'),
        slot: a.slot,
      });
    }
  return out;
}

const produced = (batches: readonly SlotBatch[]): bigint[] =>
  batches
    .filter((b) => b.events.some((e) => e.kind === 'slots' && e.event.slot === b.slot && e.event.block !== undefined))
    .map((b) => b.slot);
const lastProduced = (batches: readonly SlotBatch[]): bigint => produced(batches).at(-1)!;

/** The first slot of these batches with a block (a PROCESSED slot record carrying its block). */
const firstProduced = (batches: readonly SlotBatch[]): bigint =>
  batches.find((b) => b.events.some((e) => e.kind === 'slots' && e.event.slot === b.slot && e.event.block !== undefined))!.slot;

const signaturesIn = (batches: readonly SlotBatch[]): { slot: bigint; signature: string }[] =>
  batches.flatMap((b) =>
    b.events
      .filter((e) => e.kind === 'transactions')
      .map((e) => ({ slot: b.slot, signature: bs58.encode((e.event as TransactionEvent).signatures[0]!) })),
  );

it('moves the window: views, first available block, old transactions, as-of reads, every account newest state, and a replay', async () => {
  const chain = [...makeChain({ slots: 60, txPerSlot: 4, writesPerSlot: 3, accounts: 30, seed: 22 })];
  const [older, newer] = [chain.slice(0, 40), chain.slice(40)];
  const published = await publishChain(kafka, topics, older);
  await caughtUp(lastProduced(older));

  const before = { accountWrites: await count('account_writes'), transactions: await count('transactions') };
  expect(before.transactions).toBe(signaturesIn(older).length);
  // An hour passes for the older part: its rows are stored an hour ago (a mutation, as time would have moved).
  for (const t of [...Object.keys(ACCOUNT_HISTORY_TABLES), ...TRANSACTION_TABLES]) {
    await ch.command({ query: `ALTER TABLE ${DB}.${t} UPDATE written_at = written_at - 3600 WHERE 1 SETTINGS mutations_sync = 2` });
  }
  const total = published + (await publishChain(kafka, topics, newer));
  const tip = lastProduced(newer);
  await caughtUp(tip);
  // The TTL merge ClickHouse runs by itself at most every merge_with_ttl_timeout, forced: parts merged into one
  // first, then the TTL applied to it. (A TTL applied part by part rolls each part's old rows up on their own, and
  // a later merge of those parts need not roll them up again: several old rows of one account can stay for a
  // while. Reads are right either way, they take the newest; the one-row check below needs the single part.)
  for (const t of [...Object.keys(ACCOUNT_HISTORY_TABLES), ...TRANSACTION_TABLES]) {
    await ch.command({ query: `OPTIMIZE TABLE ${DB}.${t} FINAL` });
    await ch.command({ query: `ALTER TABLE ${DB}.${t} MATERIALIZE TTL SETTINGS mutations_sync = 2` });
  }

  // The transaction views hold the newer part only, and say so.
  const first = firstProduced(newer);
  expect(await result<number>('getFirstAvailableBlock', [])).toBe(Number(first));
  expect(await result<number>('minimumLedgerSlot', [])).toBe(Number(first));
  expect((await result<number[]>('getBlocks', [Number(first), Number(tip) - 5, { commitment: 'confirmed' }]))[0]).toBe(Number(first));
  const oldTx = signaturesIn(older)[0]!;
  expect(await result('getTransaction', [oldTx.signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }])).toBeNull();
  const newTx = signaturesIn(newer).find((s) => s.slot <= tip - 5n)!;
  const got = await result<{ slot: number } | null>('getTransaction', [
    newTx.signature,
    { commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
  ]);
  expect(got?.slot).toBe(Number(newTx.slot));
  expect(await count('transactions')).toBe(signaturesIn(newer).length);

  // Every account's newest write, written in either part, is what the reads answer.
  const newest = newestWrites(chain);
  const onlyOlder = [...newestWrites(older).keys()].filter((k) => !newestWrites(newer).has(k));
  expect(onlyOlder.length, 'accounts written only before the window').toBeGreaterThan(0);
  for (const [pubkey, w] of newest) {
    const info = await result<{ value: { owner: string; lamports: number; data: [string, string] } | null }>('getAccountInfo', [
      pubkey,
      { commitment: 'processed', encoding: 'base64' },
    ]);
    if (w.lamports === 0n) expect(info.value, `closed ${pubkey}`).toBeNull();
    else
      expect(info.value && { owner: info.value.owner, lamports: info.value.lamports, data: info.value.data[0] }, pubkey).toEqual({
        owner: w.owner,
        lamports: Number(w.lamports),
        data: w.data,
      });
  }
  for (const program of PROGRAMS.map((p) => b58(p))) {
    const listed = await result<{ pubkey: string; account: { lamports: number; data: [string, string] } }[]>('getProgramAccounts', [
      program,
      { commitment: 'processed', encoding: 'base64' },
    ]);
    const want = [...newest]
      .filter(([, w]) => w.owner === program && w.lamports > 0n)
      .map(([k, w]) => `${k}:${w.lamports}:${w.data}`)
      .sort();
    expect(listed.map((a) => `${a.pubkey}:${a.account.lamports}:${a.account.data[0]}`).sort(), `getProgramAccounts(${program})`).toEqual(
      want,
    );
  }
  // Older writes rolled up: one row per account before the window, the writes inside it untouched.
  const rs = await ch.query({
    query: `SELECT countIf(slot < {first:UInt64}) AS old, uniqExactIf(pubkey, slot < {first:UInt64}) AS accounts FROM ${DB}.account_writes`,
    query_params: { first },
    format: 'JSONEachRow',
  });
  const [rolled] = await rs.json<{ old: string; accounts: string }>();
  expect(Number(rolled!.old)).toBe(Number(rolled!.accounts));
  expect(await count('account_writes')).toBeLessThan(before.accountWrites);

  // As-of reads inside the window answer; before it, -32018 naming where history starts.
  const someAccount = onlyOlder[0]!;
  const asOf = await result<{ context: { slot: number } }>('getAccountInfo', [
    someAccount,
    { commitment: 'processed', slot: Number(first) },
  ]);
  expect(asOf.context.slot).toBe(Number(first));
  const refused = await call('getAccountInfo', [someAccount, { commitment: 'processed', slot: Number(first) - 1 }]);
  expect(refused.error?.code).toBe(-32018);

  // /health/history's figures.
  const history = await readStoreHistory(ch, DB, readViewsState, { admin: kafka.admin(), topics });
  const store = (name: string) => history.find((h) => h.store === name)!;
  expect(store('clickhouse.transactions').firstSlot).toBe(first);
  expect(store('clickhouse.account_history').firstSlot).toBe(first);
  expect(store('clickhouse.account_history').rows).toBeGreaterThan(0);
  expect(store('clickhouse.transactions').bytes).toBeGreaterThan(0);
  // Kafka keeps everything (retention -1): from the first slot on, every partition holds each slot's record (the
  // newest of the partitions' first slots, a few slots in with 3 partitions).
  const kafkaFirst = store('kafka.slots').firstSlot!;
  expect(kafkaFirst >= chain[0]!.slot && kafkaFirst < chain[0]!.slot + 10n, `kafka first slot ${kafkaFirst}`).toBe(true);
  expect(history.map((h) => h.store)).toContain('kafka.transactions');

  // A replay of the compressed topics into fresh views (with the same windows): every record exactly once.
  await projector!.stop();
  projector = undefined;
  await rebuild({ kafka, ch, topics, log: silentLogger, ...OPTIONS, timeoutMs: 300_000 });
  const records = await consumeAll(kafka, topics);
  expect(records.length).toBe(total);
  const programs = PROGRAMS.map((p) => b58(p));
  expect(await dumpViews(ch, DB, programs)).toEqual(expectedViews(records, programs));
  // Replayed rows are stored now: the whole chain is inside the window again, and said so.
  expect(await result<number>('getFirstAvailableBlock', [])).toBe(Number(firstProduced(chain)));
});

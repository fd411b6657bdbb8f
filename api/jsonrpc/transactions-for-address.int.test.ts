/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// getTransactionsForAddress on the real stack: the chain of test/support/jsonrpc/history-chain.ts published to a
// real Kafka broker, the projector filling embedded ClickHouse (token_balance_changes of migration 007 among
// the views), JSON-RPC answering Helius's own SDK (helius-sdk, createHelius({ baseUrl })), walked page by page
// in both orders. Every walk must equal what the Agave methods answer for the same address: the
// getSignaturesForAddress walks of the address (and, for tokenAccounts, of each token account
// getTokenAccountsByOwner lists, balance changes judged from getTransaction's token balances), each
// transaction as getTransaction answers it, transactionIndex its place in getBlock's signatures. The new
// view must equal the projections of the same events, also after `projector rebuild`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { createHelius } from 'helius-sdk';
import { createClickHouse, type ClickHouseClient } from '../../platform/clickhouse.js';
import type { ProjectorOptions } from '../../projector/run.js';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { applyMigrations } from '../../platform/migrations.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../schemas/programs.js';
import { topicNames, type TopicNames } from '../../schemas/topics.js';
import { rebuildViews, startProjector, type Projector } from '../../projector/run.js';
import { publishChain } from '../../test/support/projector/kafka.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { projectInto } from '../../test/support/jsonrpc/chain.js';
import {
  H_DEAD,
  H_HEADS,
  H_NO_TX_TIME,
  H_TA,
  H_WALLET,
  buildHistoryChain,
  hBlockTime,
  hSig,
  slotTransactions,
} from '../../test/support/jsonrpc/history-chain.js';
import { JsonRpcServer } from './server.js';

const DB = 'gtfa_pipeline';
const EXPECTED_DB = 'gtfa_pipeline_expected';
const WALLET = bs58.encode(H_WALLET);
type Commitment = 'confirmed' | 'finalized';
type Mode = 'none' | 'balanceChanged' | 'all';

let dir: string;
let ch: ClickHouseClient;
let kafka: Kafka;
let topics: TopicNames;
let config: ProjectorOptions;
let projector: Projector | undefined;
let rpc: JsonRpcServer;
let url: string;
let helius: ReturnType<typeof createHelius>;
/** The last JSON-RPC answer the SDK received (read through its transport hook: the SDK drops error codes). */
let lastAnswer: any;

const rows = async (sql: string): Promise<string[]> => {
  const rs = await ch.query({ query: sql, format: 'TabSeparated' });
  return (await rs.text())
    .split('\n')
    .filter((l) => l !== '')
    .sort();
};
const balanceChanges = (db: string) =>
  rows(`SELECT account, slot, position, signature, err, memo, block_time FROM ${db}.token_balance_changes FINAL`);
const headsNow = () =>
  rows(`SELECT commitment, max(slot) FROM ${DB}.heads WHERE commitment IN ('processed', 'confirmed', 'finalized') GROUP BY commitment`);
const WANT_HEADS = [`confirmed\t${H_HEADS.confirmed}`, `finalized\t${H_HEADS.finalized}`, `processed\t${H_HEADS.processed}`];

const call = async (method: string, params: unknown): Promise<any> => {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return r.json();
};
const result = async (method: string, params: unknown): Promise<any> => {
  const r = await call(method, params);
  if (r.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
  return r.result;
};

/**
 * `result`, but the calls made together (in one tick: a Promise.all of the reference's) go as JSON-RPC batches of
 * the server's 10: the reference asks hundreds of getTransaction and getBlock calls, each answer the same as alone.
 */
let queued: { method: string; params: unknown; done: (r: any) => void; fail: (e: unknown) => void }[] = [];
const batched = (method: string, params: unknown): Promise<any> =>
  new Promise((done, fail) => {
    if (queued.length === 0) setImmediate(flush);
    queued.push({ method, params, done, fail });
  });
function flush(): void {
  const all = queued;
  queued = [];
  for (let i = 0; i < all.length; i += 10) {
    const chunk = all.slice(i, i + 10);
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chunk.map((c, id) => ({ jsonrpc: '2.0', id, method: c.method, params: c.params }))),
    })
      .then((r) => r.json() as Promise<any[]>)
      .then((answers: any[]) => {
        for (const a of answers) {
          const c = chunk[a.id]!;
          if (a.error) c.fail(new Error(`${c.method}: ${JSON.stringify(a.error)}`));
          else c.done(a.result);
        }
      })
      .catch((e: unknown) => chunk.forEach((c) => c.fail(e)));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gtfa-int-'));
  ch = await createClickHouse({ dataDir: dir, database: DB });
  for (const db of [DB, EXPECTED_DB]) {
    await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
    await applyMigrations(ch, db);
  }
  await projectInto(ch, EXPECTED_DB, buildHistoryChain(), H_HEADS);
  const prefix = uniquePrefix('gtfa');
  topics = topicNames(prefix);
  kafka = createKafka({ brokers: testBrokers(), clientId: 'gtfa-int-test' });
  await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
  await publishChain(kafka, topics, buildHistoryChain());
  config = { database: DB, groupId: 'g-gtfa', batchRows: 200, batchMs: 50 };
  projector = await startProjector(config, silentLogger, { ch, kafka, topics });
  await waitFor(async () => JSON.stringify(await headsNow()) === JSON.stringify(WANT_HEADS), {
    what: 'heads of the projected chain',
    timeoutMs: 300_000,
    intervalMs: 200,
  });
  // The views are whole: the projector's heads timer would only poll Kafka and ClickHouse beside every test
  // (~10% of the file's CPU). The rebuild test projects again, with the projector stopped as it must be.
  await projector.stop();
  projector = undefined;
  rpc = await JsonRpcServer.open({
    ch,
    database: DB,
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 50 * 1024,
    maxBatch: 10,
    maxSlotLag: 150,
    chainTip: () => undefined,
    log: silentLogger,
    // The views' state (heads, oldest block) is whole before the server opens and no test changes it (the copies
    // and the rebuild touch other tables): read once, not at every page, where it was a third of a page's CPU.
    stateTtlMs: 3_600_000,
  });
  url = `http://127.0.0.1:${rpc.port}/`;
  helius = createHelius({
    baseUrl: url,
    transport: (t: any) => async (req: any) => {
      lastAnswer = await t(req);
      return lastAnswer;
    },
  });
});

afterAll(async () => {
  await rpc?.close();
  await projector?.stop();
  await kafka?.close();
  await ch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---- the Agave side: what getSignaturesForAddress, getTokenAccountsByOwner and getTransaction answer ----

/** Every getSignaturesForAddress element of an address, newest first, walked with `before` (pages of Agave's
 * largest limit: the reference's own paging is getSignaturesForAddress's tests' subject, not this file's). */
async function signaturesOf(address: string, commitment: Commitment): Promise<any[]> {
  const out: any[] = [];
  for (;;) {
    const before = out.length === 0 ? undefined : out[out.length - 1].signature;
    const page = await result('getSignaturesForAddress', [address, { commitment, limit: 1000, before }]);
    if (page.length === 0) return out;
    out.push(...page);
  }
}

const ownedTokenAccounts = async (commitment: Commitment): Promise<string[]> => {
  const out: string[] = [];
  for (const programId of [TOKEN_PROGRAM, TOKEN_2022_PROGRAM]) {
    const r = await result('getTokenAccountsByOwner', [WALLET, { programId }, { commitment, encoding: 'base64' }]);
    out.push(...r.value.map((a: any) => a.pubkey));
  }
  return out;
};

/** getTransaction's answer, asked once per (signature, commitment, encoding): the reference histories of the six
 * modes and commitments, and the full walks' items, ask it of the same transactions again and again (a view read
 * each), and the views do not change before the rebuild test, which asks none. */
const answers = new Map<string, Promise<any>>();
const txOf = (signature: string, commitment: Commitment, encoding = 'json'): Promise<any> => {
  const key = `${signature}/${commitment}/${encoding}`;
  if (!answers.has(key))
    answers.set(key, batched('getTransaction', [signature, { commitment, encoding, maxSupportedTransactionVersion: 0 }]));
  return answers.get(key)!;
};

/** Whether getTransaction's token balances say `account`'s amount changed (a missing entry is 0). */
function balanceChanged(tx: any, account: string): boolean {
  const keys = [...tx.transaction.message.accountKeys, ...tx.meta.loadedAddresses.writable, ...tx.meta.loadedAddresses.readonly];
  const amount = (list: any[]) => BigInt(list.find((b) => keys[b.accountIndex] === account)?.uiTokenAmount.amount ?? '0');
  return amount(tx.meta.preTokenBalances) !== amount(tx.meta.postTokenBalances);
}

/**
 * The history a wallet's getTransactionsForAddress walk must give, newest first, from the Agave methods. The
 * views do not change between the tests that ask (the duplicating test asks before it inserts), so each
 * (mode, commitment) is walked once: the reference costs hundreds of getTransaction calls.
 */
const histories = new Map<string, Promise<any[]>>();
function expectedHistory(mode: Mode, commitment: Commitment): Promise<any[]> {
  const key = `${mode}/${commitment}`;
  if (!histories.has(key)) histories.set(key, agaveHistory(mode, commitment));
  return histories.get(key)!;
}

async function agaveHistory(mode: Mode, commitment: Commitment): Promise<any[]> {
  const bySig = new Map<string, any>();
  for (const s of await signaturesOf(WALLET, commitment)) bySig.set(s.signature, s);
  if (mode !== 'none') {
    for (const account of await ownedTokenAccounts(commitment)) {
      const listed = await signaturesOf(account, commitment);
      const txs = await Promise.all(listed.map((s) => txOf(s.signature, commitment)));
      listed.forEach((s, i) => {
        if (mode === 'balanceChanged' && txs[i] !== null && !balanceChanged(txs[i], account)) return;
        bySig.set(s.signature, s);
      });
    }
  }
  // getSignaturesForAddress lists a lost fork's transactions; getTransaction (and so the full history) does not.
  const all = [...bySig.values()];
  const found = await Promise.all(all.map((s) => txOf(s.signature, commitment)));
  const served = all.filter((_s, i) => found[i] !== null);
  return served.sort((a, b) => b.slot - a.slot || b.transactionIndex - a.transactionIndex);
}

// ---- the Helius side: the SDK walking pages ----

async function walk(config: Record<string, unknown>): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let paginationToken: string | null | undefined;
  let pages = 0;
  do {
    const page: any = plain(await helius.getTransactionsForAddress([WALLET, { ...config, paginationToken } as any]));
    pages++;
    expect(page.data.length).toBeLessThanOrEqual(config.limit as number);
    if (page.paginationToken !== null) expect(page.data.length).toBe(config.limit);
    items.push(...page.data);
    paginationToken = page.paginationToken;
  } while (paginationToken !== null);
  return { items, pages };
}

/**
 * kit 8.4's transport (which helius-sdk 3.2.0 wraps) lists getTransactionsForAddress among Solana's methods and
 * parses its answers with bigints for every number; the values here are all below 2^53, so numbers compare.
 */
const plain = (v: unknown): any => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)));

const sigOfFull = (t: any): string => t.transaction.signatures?.[0];

describe('the projector fills token_balance_changes from Kafka', () => {
  it('equals the projections of the same events (exactly once)', async () => {
    const got = await balanceChanges(DB);
    expect(got).toEqual(await balanceChanges(EXPECTED_DB));
    expect(got.length).toBeGreaterThan(30);
  });
});

describe('getTransactionsForAddress through helius-sdk equals getSignaturesForAddress + getTransaction', () => {
  for (const commitment of ['finalized', 'confirmed'] as const) {
    for (const mode of ['none', 'balanceChanged', 'all'] as const) {
      it(`signatures, tokenAccounts ${mode}, ${commitment}: both orders page by page, none missing or doubled`, async () => {
        const want = await expectedHistory(mode, commitment);
        const filters = { tokenAccounts: mode };
        const desc = await walk({ commitment, limit: 7, filters });
        const asc = await walk({ commitment, limit: 7, sortOrder: 'asc', filters });
        expect(desc.items).toEqual(want);
        expect(asc.items).toEqual([...want].reverse());
        expect(desc.pages).toBeGreaterThan(2);
        expect(new Set(desc.items.map((s) => s.signature)).size).toBe(want.length);
      });
    }
  }

  it('the three modes differ as the chain says: the token accounts add history, a read without a change only to "all"', async () => {
    const none = await expectedHistory('none', 'finalized');
    const changed = await expectedHistory('balanceChanged', 'finalized');
    const all = await expectedHistory('all', 'finalized');
    expect(none.length).toBeGreaterThan(10);
    expect(changed.length).toBeGreaterThan(none.length);
    expect(all.length).toBeGreaterThan(changed.length);
    // ta5 became the wallet's at 325: its earlier transactions count too; the closed ta4's never do.
    const signatures = new Set(all.map((s) => s.signature));
    const early = slotTransactions(301).find((t) => t.accountKeys.some((k) => k.equals(H_TA.ta5)))!;
    expect(signatures.has(bs58.encode(early.signatures[0]!))).toBe(true);
    for (const account of [H_TA.ta3, H_TA.ta4]) {
      for (const s of await signaturesOf(bs58.encode(account), 'finalized')) {
        const only = !(await txOf(s.signature, 'finalized')).transaction.message.accountKeys.some((k: string) =>
          [WALLET, bs58.encode(H_TA.ta1), bs58.encode(H_TA.ta2), bs58.encode(H_TA.ta5)].includes(k),
        );
        if (only) expect(signatures.has(s.signature)).toBe(false);
      }
    }
  });

  for (const encoding of ['json', 'jsonParsed', 'base64', 'base58'] as const) {
    it(`full, ${encoding}, tokenAccounts balanceChanged: each item is getTransaction's answer plus its block position, both orders`, async () => {
      const want = await expectedHistory('balanceChanged', 'finalized');
      const wantFull = await Promise.all(
        want.map(async (s) => ({ transactionIndex: s.transactionIndex, ...(await txOf(s.signature, 'finalized', encoding)) })),
      );
      // Pages of 10: a few pages an order (of 5, twice as many for the same items at ~40 ms of CPU a page).
      const config = { commitment: 'finalized', transactionDetails: 'full', encoding, maxSupportedTransactionVersion: 0, limit: 10 };
      const desc = await walk({ ...config, filters: { tokenAccounts: 'balanceChanged' } });
      const asc = await walk({ ...config, sortOrder: 'asc', filters: { tokenAccounts: 'balanceChanged' } });
      expect(desc.pages).toBeGreaterThan(2);
      expect(desc.items).toEqual(wantFull);
      expect(asc.items).toEqual([...wantFull].reverse());
      if (encoding === 'json') {
        expect(desc.items.map(sigOfFull)).toEqual(want.map((s) => s.signature));
        expect(desc.items.some((t) => t.version === 0)).toBe(true);
      }
    });
  }

  it("transactionIndex is the position in getBlock (votes included); the block time of an event without one is the block's", async () => {
    const { items } = await walk({ commitment: 'confirmed', limit: 50, filters: { tokenAccounts: 'all' } });
    const slots = [...new Set(items.map((s) => s.slot as number))];
    const blocks = await Promise.all(
      slots.map((slot) => batched('getBlock', [slot, { commitment: 'confirmed', transactionDetails: 'signatures', rewards: false }])),
    );
    const signaturesAt = new Map(slots.map((slot, i) => [slot, blocks[i].signatures as string[]]));
    for (const s of items) {
      expect(signaturesAt.get(s.slot)![s.transactionIndex]).toBe(s.signature);
      expect(s.transactionIndex).toBeGreaterThan(0); // a vote is first in every block
    }
    const full = await walk({
      commitment: 'confirmed',
      limit: 100,
      transactionDetails: 'full',
      maxSupportedTransactionVersion: 0,
      filters: { slot: { eq: H_NO_TX_TIME }, tokenAccounts: 'all' },
    });
    expect(full.items.length).toBeGreaterThan(0);
    for (const t of full.items) expect(t.blockTime).toBe(hBlockTime(H_NO_TX_TIME));
    // The signature lists too (a yellowstone source's pieces store transactions without a time of their own).
    const listed = await walk({ commitment: 'confirmed', limit: 100, filters: { slot: { eq: H_NO_TX_TIME }, tokenAccounts: 'all' } });
    const signatures = [];
    for (const a of [WALLET, ...(await ownedTokenAccounts('confirmed'))])
      signatures.push(...(await signaturesOf(a, 'confirmed')).filter((s) => s.slot === H_NO_TX_TIME));
    expect(listed.items.length).toBeGreaterThan(0);
    expect(signatures.length).toBeGreaterThan(0);
    for (const t of [...listed.items, ...signatures]) expect(t.blockTime).toBe(hBlockTime(H_NO_TX_TIME));
    // And a block-time filter finds them by their block's time.
    const timed = await walk({
      commitment: 'confirmed',
      limit: 100,
      filters: { blockTime: { eq: hBlockTime(H_NO_TX_TIME) }, tokenAccounts: 'all' },
    });
    expect(timed.items.map((t) => t.signature).sort()).toEqual(listed.items.map((t) => t.signature).sort());
  });

  it("a lost fork's transaction is listed by getSignaturesForAddress but never served", async () => {
    const dead = bs58.encode(hSig(H_DEAD, 1));
    expect((await signaturesOf(WALLET, 'finalized')).map((s) => s.signature)).toContain(dead);
    expect(await txOf(dead, 'finalized')).toBeNull();
    const { items } = await walk({ commitment: 'finalized', limit: 1000 });
    expect(items.map((s) => s.signature)).not.toContain(dead);
  });
});

describe('filters', () => {
  const between = (s: any, lo: number, hi: number) => s.slot >= lo && s.slot <= hi;
  it('slot, blockTime, status and signature (chronological) bounds, with both orders and pages, equal the filtered walk', async () => {
    const all = await expectedHistory('all', 'confirmed');
    const bySig = new Map(all.map((s) => [s.signature, s]));
    const pivot = all[Math.floor(all.length / 3)];
    const pivot2 = all[Math.floor((2 * all.length) / 3)];
    const cases: [Record<string, unknown>, (s: any) => boolean][] = [
      [{ slot: { gte: 312, lt: 330 } }, (s) => between(s, 312, 329)],
      [{ slot: { gt: 312, lte: 330 } }, (s) => between(s, 313, 330)],
      [
        { blockTime: { gte: hBlockTime(318), lt: hBlockTime(333) } },
        (s) => s.blockTime !== null && s.blockTime >= hBlockTime(318) && s.blockTime < hBlockTime(333),
      ],
      [{ blockTime: { eq: hBlockTime(322) } }, (s) => s.blockTime === hBlockTime(322)],
      // Around the slot whose transactions have no time of their own: theirs is the block's.
      [
        { blockTime: { gte: hBlockTime(H_NO_TX_TIME - 1), lte: hBlockTime(H_NO_TX_TIME + 1) } },
        (s) => s.blockTime >= hBlockTime(H_NO_TX_TIME - 1) && s.blockTime <= hBlockTime(H_NO_TX_TIME + 1),
      ],
      [{ status: 'failed' }, (s) => s.err !== null],
      [{ status: 'succeeded' }, (s) => s.err === null],
      // Newer than pivot2 and older than pivot: strictly between them in the walk.
      [
        { signature: { gt: pivot2.signature, lt: pivot.signature } },
        (s) => all.indexOf(s) > all.indexOf(pivot) && all.indexOf(s) < all.indexOf(pivot2),
      ],
      [
        { signature: { gte: pivot2.signature, lte: pivot.signature } },
        (s) => all.indexOf(s) >= all.indexOf(pivot) && all.indexOf(s) <= all.indexOf(pivot2),
      ],
      [
        { slot: { gte: 320 }, status: 'succeeded', signature: { lte: pivot.signature } },
        (s) => s.slot >= 320 && s.err === null && all.indexOf(s) >= all.indexOf(pivot),
      ],
    ];
    for (const [f, keep] of cases) {
      const want = all.filter(keep);
      expect(want.length, JSON.stringify(f)).toBeGreaterThan(0);
      // Three pages a walk (two tokens inside the bounds; fewer only for the smallest results): a page costs ~35 ms
      // of CPU whatever its size, and limit 3 walked up to 12 pages a filter for no case three do not show.
      const limit = Math.max(2, Math.ceil(want.length / 3));
      const desc = await walk({ commitment: 'confirmed', limit, filters: { ...f, tokenAccounts: 'all' } });
      const asc = await walk({ commitment: 'confirmed', limit, sortOrder: 'asc', filters: { ...f, tokenAccounts: 'all' } });
      expect(desc.items, JSON.stringify(f)).toEqual(want);
      expect(asc.items, JSON.stringify(f)).toEqual([...want].reverse());
      for (const s of desc.items) expect(bySig.get(s.signature)).toEqual(s);
    }
    // Contradictory bounds: an empty page, no token.
    expect(plain(await helius.getTransactionsForAddress([WALLET, { filters: { slot: { gt: 330, lt: 320 } } } as any]))).toEqual({
      data: [],
      paginationToken: null,
    });
  });
});

describe('errors', () => {
  const code = async (params: unknown[]): Promise<{ code: number; message: string; data?: unknown }> => {
    await expect(helius.getTransactionsForAddress(params as any)).rejects.toThrow(/RPC error \(getTransactionsForAddress\)/);
    return plain(lastAnswer.error);
  };
  it('every invalid parameter answers -32602 naming it', async () => {
    const bad: [unknown[], RegExp][] = [
      [['not-a-key'], /address/],
      [[WALLET, { limit: 0 }], /limit/],
      [[WALLET, { limit: 1001 }], /limit/],
      [[WALLET, { limit: 2.5 }], /limit/],
      [[WALLET, { limit: '10' }], /limit/],
      [[WALLET, { sortOrder: 'newest' }], /sortOrder/],
      [[WALLET, { transactionDetails: 'accounts' }], /transactionDetails/],
      [[WALLET, { transactionDetails: 'full', encoding: 'xml' }], /encoding/],
      [[WALLET, { paginationToken: 'abc' }], /paginationToken/],
      [[WALLET, { paginationToken: '12:3:4' }], /paginationToken/],
      [[WALLET, { paginationToken: '1:4294967296' }], /paginationToken/],
      [[WALLET, { commitment: 'processed' }], /commitment below `confirmed`/],
      [[WALLET, { filters: { slot: { gte: -1 } } }], /filters\.slot\.gte/],
      [[WALLET, { filters: { slot: { after: 3 } } }], /filters\.slot\.after/],
      [[WALLET, { filters: { blockTime: { gt: 'now' } } }], /filters\.blockTime\.gt/],
      [[WALLET, { filters: { signature: { lt: 'xyz' } } }], /filters\.signature\.lt/],
      [[WALLET, { filters: { status: 'ok' } }], /filters\.status/],
      [[WALLET, { filters: { tokenAccounts: 'some' } }], /filters\.tokenAccounts/],
      [[WALLET, { filters: { mint: 'x' } }], /filters\.mint/],
      [[WALLET, {}, 3], /at most 2/],
    ];
    for (const [params, names] of bad) {
      const e = await code(params);
      expect(e.code, JSON.stringify(params)).toBe(-32602);
      expect(`${e.message} ${String(e.data ?? '')}`, JSON.stringify(params)).toMatch(names);
    }
  });

  it('a signature filter naming no transaction is -32020 (as getSignaturesForAddress), not -32602 or an empty page', async () => {
    const unknown = bs58.encode(Buffer.alloc(64, 9));
    expect(await code([WALLET, { filters: { signature: { gt: unknown } } }])).toMatchObject({
      code: -32020,
      message: `Transaction ${unknown} not found`,
    });
  });

  it("full without maxSupportedTransactionVersion and a v0 transaction in the page: -32015 (Agave's getBlock rule); signatures need none", async () => {
    const e = await code([WALLET, { transactionDetails: 'full', filters: { tokenAccounts: 'balanceChanged' } }]);
    expect(e.code).toBe(-32015);
    const page: any = await helius.getTransactionsForAddress([WALLET, { filters: { tokenAccounts: 'balanceChanged' } } as any]);
    expect(page.data.length).toBeGreaterThan(0);
  });

  it('minContextSlot beyond the context slot: -32016 with the context slot', async () => {
    const e = await code([WALLET, { commitment: 'confirmed', minContextSlot: H_HEADS.confirmed + 1 }]);
    expect(e.code).toBe(-32016);
    expect(e.data).toEqual({ contextSlot: H_HEADS.confirmed });
  });
});

describe('rows a merge has not collapsed yet', () => {
  it('three copies of every row of the address: pages stay full and nothing comes twice (the window grows)', async () => {
    const want = await expectedHistory('all', 'finalized');
    await ch.command({ query: `SYSTEM STOP MERGES ${DB}.signatures_by_address` });
    try {
      for (let i = 0; i < 2; i++) {
        await ch.command({
          query: `INSERT INTO ${DB}.signatures_by_address SELECT * FROM ${DB}.signatures_by_address WHERE address = {a:String} SETTINGS insert_deduplicate = 0`,
          query_params: { a: WALLET },
        });
      }
      const copies = await rows(`SELECT count() FROM ${DB}.signatures_by_address WHERE address = '${WALLET}'`);
      expect(Number(copies[0])).toBeGreaterThanOrEqual(3 * 20);
      // Any limit: a window of 2 x (limit + 1) rows holds at most a third as many transactions, so every page but
      // the last must grow its window (limit 2 walked ~30 pages an order for the same path).
      const desc = await walk({ commitment: 'finalized', limit: 6, filters: { tokenAccounts: 'all' } });
      const asc = await walk({ commitment: 'finalized', limit: 6, sortOrder: 'asc', filters: { tokenAccounts: 'all' } });
      expect(desc.pages).toBeGreaterThan(3);
      expect(desc.items).toEqual(want);
      expect(asc.items).toEqual([...want].reverse());
    } finally {
      await ch.command({ query: `SYSTEM START MERGES ${DB}.signatures_by_address` });
      await ch.command({ query: `OPTIMIZE TABLE ${DB}.signatures_by_address FINAL` });
    }
  });
});

describe('projector rebuild', () => {
  it('rebuilds token_balance_changes: the emptied view comes back equal to the projections, and the walk with it', async () => {
    const before = await walk({ commitment: 'finalized', limit: 1000, filters: { tokenAccounts: 'balanceChanged' } });
    expect(projector).toBeUndefined(); // stopped once the views were whole (beforeAll)
    await ch.command({ query: `TRUNCATE TABLE ${DB}.token_balance_changes` });
    await ch.command({ query: `TRUNCATE TABLE ${DB}.transaction_records` });
    const emptied = await walk({ commitment: 'finalized', limit: 1000, filters: { tokenAccounts: 'balanceChanged' } });
    expect(emptied.items.length).toBeLessThan(before.items.length);
    // Bodies missing (views filled before they were stored): a clear error, not a page without them.
    const e = (await call('getTransactionsForAddress', [WALLET, { transactionDetails: 'full', maxSupportedTransactionVersion: 0 }])).error;
    expect(e.code).toBe(-32011);
    expect(e.data).toMatch(/has no stored body; `slotstream projector rebuild` restores them/);
    await rebuildViews(config, silentLogger, { ch, kafka, topics });
    expect(await balanceChanges(DB)).toEqual(await balanceChanges(EXPECTED_DB));
    const after = await walk({ commitment: 'finalized', limit: 1000, filters: { tokenAccounts: 'balanceChanged' } });
    expect(after.items).toEqual(before.items);
    const full = await walk({ commitment: 'finalized', limit: 100, transactionDetails: 'full', maxSupportedTransactionVersion: 0 });
    const signatures = await walk({ commitment: 'finalized', limit: 1000 });
    expect(full.items.map(sigOfFull)).toEqual(signatures.items.map((s) => s.signature));
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// getProgramAccountsV2 and getTokenAccountsByOwnerV2 on the real stack (spec/provider-methods.md 1, 2): the chain of
// test/support/jsonrpc/program-chain.ts published to a real Kafka broker, the projector filling embedded ClickHouse
// (migration 006's owner-keyed views included), and Helius's own SDK (helius-sdk, createHelius({ baseUrl })) walking
// the api: its walks and single pages return exactly what getProgramAccounts / getTokenAccountsByOwner return, also
// while the chain moves under a walk; errors answer the spec's codes. getProgramAccounts itself is streamed and
// bounded by rpcMaxProgramAccounts (issue 21 item 4).
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
import type { SlotBatch } from '../../test/support/projector/chain.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import {
  LAST,
  MINT,
  MINT_22,
  PROGRAM,
  WALLET,
  buildProgramChain,
  extraSlot,
  openAccountsOf,
  stateAt,
} from '../../test/support/jsonrpc/program-chain.js';
import { RECENT_SLOTS } from '../views/program-accounts.js';
import { JsonRpcServer } from './server.js';

const DB = 'provider_accounts';
let dir: string;
let ch: ClickHouseClient;
let kafka: Kafka;
let topics: TopicNames;
let config: ProjectorOptions;
let projector: Projector | undefined;
let rpc: JsonRpcServer;
let small: JsonRpcServer;
const chain: SlotBatch[] = buildProgramChain();
let tip = LAST;

/** `stateTtlMs` 0: the views' state read at every request (the chain moves under the test). */
const startRpc = (maxProgramAccounts?: number, stateTtlMs = 0) =>
  JsonRpcServer.open({
    ch,
    database: DB,
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 50 * 1024,
    maxBatch: 10,
    maxSlotLag: 1000,
    chainTip: () => undefined,
    log: silentLogger,
    stateTtlMs,
    maxProgramAccounts,
  });

const finalizedHead = async (): Promise<number> => {
  const rs = await ch.query({ query: `SELECT max(slot) AS s FROM ${DB}.heads WHERE commitment = 'finalized'`, format: 'JSONEachRow' });
  return Number((await rs.json<{ s: string }>())[0]?.s ?? 0);
};
const waitForSlot = (slot: number) =>
  waitFor(async () => (await finalizedHead()) >= slot, { what: `finalized head at ${slot}`, timeoutMs: 300_000, intervalMs: 100 });

/**
 * The projector runs only while a test moves the chain: idle, its heads timer polls Kafka and ClickHouse every
 * 100 ms (~8% of a core) beside tests that only read. It resumes from its group's offsets.
 */
const projecting = async (): Promise<void> => {
  projector ??= await startProjector(config, silentLogger, { ch, kafka, topics });
};
/** Stops the projector, and opens `rpc` again: the views hold still until the next `projecting`, so its state (a
 * third of a small page's CPU) is read once, at its first request after this. */
const idle = async (): Promise<void> => {
  await projector?.stop();
  projector = undefined;
  await rpc?.close();
  rpc = await startRpc(undefined, 3_600_000);
};

/** Publishes one more slot and waits until the views answer at it. */
async function advance(fresh: number): Promise<Set<string>> {
  await projecting();
  tip += 1;
  const { batch, touched } = extraSlot(tip, fresh);
  chain.push(batch);
  await publishChain(kafka, topics, [batch]);
  await waitForSlot(tip);
  return touched;
}

async function call(server: JsonRpcServer, method: string, params: unknown[]): Promise<{ result?: any; error?: any }> {
  const res = await fetch(`http://127.0.0.1:${server.port}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: any; error?: any };
}

/**
 * Equal lists, checked so that a failure names the first difference (vitest's diff of two lists of a thousand
 * accounts takes minutes and blocks the test's timeout).
 */
function expectSameList(got: readonly unknown[], want: readonly unknown[], what = 'list'): void {
  const n = Math.max(got.length, want.length);
  for (let i = 0; i < n; i++) {
    if (JSON.stringify(got[i]) !== JSON.stringify(want[i])) {
      expect({ what, index: i, got: got[i], want: want[i], gotLength: got.length, wantLength: want.length }).toEqual({
        what,
        index: i,
        got: want[i],
        want: want[i],
        gotLength: want.length,
        wantLength: want.length,
      });
    }
  }
}

const helius = () => createHelius({ baseUrl: `http://127.0.0.1:${rpc.port}/` });
const pubkeys = (accounts: { pubkey: string }[]) => accounts.map((a) => a.pubkey);
const byteOrder = (keys: string[]) =>
  keys
    .map((k) => ({ k, bytes: Buffer.from(bs58.decode(k)) }))
    .sort((x, y) => Buffer.compare(x.bytes, y.bytes))
    .map((x) => x.k);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'provider-accounts-int-'));
  ch = await createClickHouse({ dataDir: dir, database: DB });
  await applyMigrations(ch, DB);
  const prefix = uniquePrefix('provider-accounts');
  topics = topicNames(prefix);
  kafka = createKafka({ brokers: testBrokers(), clientId: 'provider-accounts-int-test' });
  await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
  await publishChain(kafka, topics, chain);
  config = { database: DB, groupId: 'g-provider-accounts', batchRows: 500, batchMs: 30 };
  await projecting();
  await waitForSlot(LAST);
  await idle();
  small = await startRpc(100);
});

afterAll(async () => {
  await small?.close();
  await rpc?.close();
  await projector?.stop();
  await kafka?.close();
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('getProgramAccountsV2', () => {
  it("helius-sdk's getAllProgramAccounts returns exactly getProgramAccounts' accounts (closed and reassigned ones left out)", async () => {
    const all = await helius().getAllProgramAccounts(PROGRAM, { encoding: 'base64' });
    const agave = (await call(rpc, 'getProgramAccounts', [PROGRAM, { encoding: 'base64' }])).result;
    expectSameList(all, agave);
    const expected = openAccountsOf(stateAt(chain, tip), PROGRAM);
    expectSameList(
      pubkeys(all as any),
      expected.map((a) => a.pubkey),
    );
    expect(expected.length).toBeGreaterThan(1100);
    expect(expected.length).toBeLessThan(1200);
  });

  it('pages of a few accounts walk the same set in byte order, none twice, and end with an empty page whose key is null', async () => {
    const h = helius();
    const seen: string[] = [];
    let paginationKey: string | null = null;
    let pages = 0;
    for (;;) {
      const page: any = await h.getProgramAccountsV2([
        PROGRAM,
        { limit: 97, encoding: 'base64', ...(paginationKey ? { paginationKey } : {}) },
      ]);
      pages++;
      expect(page.accounts.length).toBeLessThanOrEqual(97);
      if (page.accounts.length === 0) {
        expect(page.paginationKey).toBeNull();
        break;
      }
      expect(page.paginationKey).toBe(page.accounts[page.accounts.length - 1].pubkey);
      seen.push(...pubkeys(page.accounts));
      paginationKey = page.paginationKey;
    }
    const agave = (await call(rpc, 'getProgramAccounts', [PROGRAM])).result;
    expectSameList(seen, pubkeys(agave));
    expectSameList(seen, byteOrder(seen));
    expect(pages).toBeGreaterThan(10);
  });

  it('tiny pages (the key-range window growing past keys written many times, closed, moved or filtered out) walk exactly the set', async () => {
    // A page reads the keys a window at a time (api/views/program-accounts.ts), starting at `limit` rows and doubling:
    // pages of two make pages end inside a window, windows end inside a page, and candidates dropped after the
    // statement's LIMIT (pages of one did too, in twice the calls: 30 s of the test suite's time).
    const rewritten = [{ memcmp: { offset: 4, bytes: bs58.encode(Buffer.from([1])) } }]; // one account in 7
    for (const limit of [2]) {
      const seen: string[] = [];
      let paginationKey: string | null = null;
      for (;;) {
        const page: any = (
          await call(rpc, 'getProgramAccountsV2', [PROGRAM, { limit, filters: rewritten, ...(paginationKey ? { paginationKey } : {}) }])
        ).result;
        expect(page.accounts.length).toBeLessThanOrEqual(limit);
        if (page.accounts.length === 0) break;
        seen.push(...pubkeys(page.accounts));
        paginationKey = page.paginationKey;
      }
      const agave = (await call(rpc, 'getProgramAccounts', [PROGRAM, { filters: rewritten }])).result;
      expectSameList(seen, pubkeys(agave), `limit ${limit}`);
      expect(seen.length).toBeGreaterThan(100);
    }
  });

  it('carries filters, dataSlice and encodings over, and wraps pages in a context with withContext', async () => {
    const filters = [{ dataSize: 16 }, { memcmp: { offset: 6, bytes: bs58.encode(Buffer.from([0, 0])) } }];
    const all = await helius().getAllProgramAccounts(PROGRAM, {
      filters,
      dataSlice: { offset: 0, length: 4 },
      encoding: 'base58',
      withContext: true,
    });
    const agave = (await call(rpc, 'getProgramAccounts', [PROGRAM, { filters, dataSlice: { offset: 0, length: 4 }, encoding: 'base58' }]))
      .result;
    expectSameList(all, agave);
    expect(all.length).toBeGreaterThan(300);
    const page = (await call(rpc, 'getProgramAccountsV2', [PROGRAM, { withContext: true, limit: 3 }])).result;
    expect(page.context.slot).toBe(tip);
    expect(Object.keys(page.value)).toEqual(['accounts', 'paginationKey']);
    expect(page.value.accounts).toHaveLength(3);
  });

  it('changedSinceSlot keeps the accounts whose newest write is at or after it (inclusive), as folded from the events', async () => {
    for (const since of [35, 39, 46, LAST]) {
      const got = await helius().getAllProgramAccounts(PROGRAM, { changedSinceSlot: since });
      const expected = openAccountsOf(stateAt(chain, tip), PROGRAM).filter((a) => a.slot >= since);
      expectSameList(
        pubkeys(got as any),
        expected.map((a) => a.pubkey),
        `changedSinceSlot ${since}`,
      );
    }
    const inclusive = openAccountsOf(stateAt(chain, tip), PROGRAM).filter((a) => a.slot === 39);
    expect(inclusive.length).toBeGreaterThan(0);
    const page = (await call(rpc, 'getProgramAccountsV2', [PROGRAM, { changedSinceSlot: 0, limit: 10000 }])).result;
    expect(page.accounts).toHaveLength(openAccountsOf(stateAt(chain, tip), PROGRAM).length);
  });

  it('a walk while the chain moves: no account twice, and none that existed for the whole walk missed', async () => {
    const moving = await startRpc(); // the views' state read at every page
    const h = createHelius({ baseUrl: `http://127.0.0.1:${moving.port}/` });
    const before = new Set(openAccountsOf(stateAt(chain, tip), PROGRAM).map((a) => a.pubkey));
    const seen: string[] = [];
    const touched = new Set<string>();
    let paginationKey: string | null = null;
    let page = 0;
    await projecting();
    for (;;) {
      const r: any = await h.getProgramAccountsV2([PROGRAM, { limit: 150, ...(paginationKey ? { paginationKey } : {}) }]);
      if (r.accounts.length === 0) break;
      seen.push(...pubkeys(r.accounts));
      paginationKey = r.paginationKey;
      // Between pages: new accounts (their keys fall before and after the cursor), rewrites and closures.
      if (page++ % 2 === 0) for (const k of await advance(20)) touched.add(k);
    }
    await moving.close();
    await idle();
    expect(page).toBeGreaterThan(4);
    expect(new Set(seen).size).toBe(seen.length);
    expectSameList(seen, byteOrder(seen));
    const after = new Set(openAccountsOf(stateAt(chain, tip), PROGRAM).map((a) => a.pubkey));
    const throughout = [...before].filter((k) => after.has(k) && !touched.has(k));
    const seenSet = new Set(seen);
    expect(throughout.filter((k) => !seenSet.has(k))).toEqual([]);
    // Nothing returned that was never the program's.
    const ever = new Set([...before, ...after, ...touched]);
    expect(seen.filter((k) => !ever.has(k))).toEqual([]);
  });

  it('answers -32602 naming the member for a bad limit, paginationKey or changedSinceSlot, and -32600 for base58 data over 128 bytes', async () => {
    const bad: [object, RegExp][] = [
      [{ limit: 0 }, /limit/],
      [{ limit: 10_001 }, /limit/],
      [{ limit: -1 }, /limit/],
      [{ limit: 1.5 }, /limit/],
      [{ limit: '10' }, /limit/],
      [{ paginationKey: 'not-base58!' }, /paginationKey/],
      [{ paginationKey: bs58.encode(Buffer.alloc(31, 1)) }, /paginationKey/],
      [{ paginationKey: 42 }, /paginationKey/],
      [{ changedSinceSlot: -1 }, /changedSinceSlot/],
      [{ changedSinceSlot: 2.5 }, /changedSinceSlot/],
      [{ filters: Array(5).fill({ dataSize: 8 }) }, /filters/],
      [{ encoding: 'json' }, /encoding/],
    ];
    for (const [config, why] of bad) {
      const r = await call(rpc, 'getProgramAccountsV2', [PROGRAM, config]);
      expect(r.error?.code, JSON.stringify(config)).toBe(-32602);
      expect(r.error.data, JSON.stringify(config)).toMatch(why);
    }
    expect((await call(rpc, 'getProgramAccountsV2', ['nope'])).error.code).toBe(-32602);
    // A 16-byte account in base58 is fine; getProgramAccounts' base58 limit carries over (no account here is that big).
    expect((await call(rpc, 'getProgramAccountsV2', [PROGRAM, { encoding: 'base58', limit: 2 }])).result.accounts).toHaveLength(2);
    // minContextSlot beyond the views: -32016 with the context slot.
    const r = await call(rpc, 'getProgramAccountsV2', [PROGRAM, { minContextSlot: 1_000_000 }]);
    expect(r.error).toMatchObject({ code: -32016, data: { contextSlot: tip } });
    // The SDK surfaces the message only (its caller drops the code).
    await expect(helius().getProgramAccountsV2([PROGRAM, { limit: 0 }])).rejects.toThrow(
      /RPC error \(getProgramAccountsV2\): Invalid params/,
    );
  });
});

describe('getProgramAccountsV2, changedSinceSlot far back', () => {
  it(`more than ${RECENT_SLOTS} slots back walks the key order instead of the recent writes: the same accounts`, async () => {
    // The chain jumps 5,000 slots: changedSinceSlot 36 is now far back, tip - 10 recent.
    tip += 5000;
    const { batch } = extraSlot(tip, 5);
    chain.push(batch);
    await projecting();
    await publishChain(kafka, topics, [batch]);
    await waitForSlot(tip);
    await idle();
    for (const since of [36, 46, tip - 10, tip]) {
      const got = await helius().getAllProgramAccounts(PROGRAM, { changedSinceSlot: since });
      const expected = openAccountsOf(stateAt(chain, tip), PROGRAM).filter((a) => a.slot >= since);
      expectSameList(
        pubkeys(got as any),
        expected.map((a) => a.pubkey),
        `changedSinceSlot ${since}`,
      );
      expect(expected.length).toBeGreaterThan(0);
    }
  });
});

describe('getTokenAccountsByOwnerV2', () => {
  it("helius-sdk's getAllTokenAccountsByOwner (withContext) returns exactly getTokenAccountsByOwner's value, by mint and by program", async () => {
    for (const [filter, count] of [
      [{ mint: MINT }, 100],
      [{ programId: TOKEN_PROGRAM }, 100],
      [{ programId: TOKEN_2022_PROGRAM }, 20],
      [{ mint: MINT_22 }, 20],
    ] as const) {
      for (const encoding of ['base64', 'jsonParsed'] as const) {
        const all = await helius().getAllTokenAccountsByOwner(WALLET, filter, { withContext: true, encoding });
        const agave = (await call(rpc, 'getTokenAccountsByOwner', [WALLET, filter, { encoding }])).result.value;
        expectSameList(all, agave, `${JSON.stringify(filter)} ${encoding}`);
        expect(all.length).toBeGreaterThan(count);
      }
    }
  });

  it('pages without context as the Helius page shows them ({value, paginationKey, totalResults}); with it, {context, value: {accounts, ...}}', async () => {
    const agave = (await call(rpc, 'getTokenAccountsByOwner', [WALLET, { mint: MINT }, { encoding: 'base64' }])).result.value;
    const seen: unknown[] = [];
    let paginationKey: string | null = null;
    for (;;) {
      const r: any = (
        await call(rpc, 'getTokenAccountsByOwnerV2', [WALLET, { mint: MINT }, { encoding: 'base64', limit: 13, paginationKey }])
      ).result;
      expect(Object.keys(r)).toEqual(['value', 'paginationKey', 'totalResults']);
      expect(r.totalResults).toBe(agave.length);
      if (r.value.length === 0) {
        expect(r.paginationKey).toBeNull();
        break;
      }
      seen.push(...r.value);
      paginationKey = r.paginationKey;
    }
    expectSameList(seen, agave);
    const page = (await call(rpc, 'getTokenAccountsByOwnerV2', [WALLET, { mint: MINT }, { withContext: true, limit: 2 }])).result;
    expect(page.context.slot).toBe(tip);
    expect(Object.keys(page.value)).toEqual(['accounts', 'paginationKey', 'totalResults']);
    expect(page.value.accounts).toHaveLength(2);
  });

  it('changedSinceSlot is inclusive over the newest write', async () => {
    const since = 30;
    const got: any = (await call(rpc, 'getTokenAccountsByOwnerV2', [WALLET, { mint: MINT }, { changedSinceSlot: since, limit: 10000 }]))
      .result;
    const state = stateAt(chain, tip);
    const expected = openAccountsOf(state, TOKEN_PROGRAM).filter(
      (a) => a.slot >= since && bs58.encode(a.data.subarray(32, 64)) === WALLET && bs58.encode(a.data.subarray(0, 32)) === MINT,
    );
    expectSameList(
      got.value.map((a: any) => a.pubkey),
      expected.map((a) => a.pubkey),
    );
    expect(expected.length).toBeGreaterThan(5);
  });

  it('answers -32602 without a filter, with a bad limit or paginationKey', async () => {
    expect((await call(rpc, 'getTokenAccountsByOwnerV2', [WALLET])).error.code).toBe(-32602);
    expect((await call(rpc, 'getTokenAccountsByOwnerV2', [WALLET, {}])).error.code).toBe(-32602);
    expect((await call(rpc, 'getTokenAccountsByOwnerV2', [WALLET, { mint: MINT }, { limit: 10_001 }])).error).toMatchObject({
      code: -32602,
    });
    expect((await call(rpc, 'getTokenAccountsByOwnerV2', [WALLET, { mint: MINT }, { paginationKey: 'xyz' }])).error).toMatchObject({
      code: -32602,
    });
  });
});

describe('getProgramAccounts, streamed within rpcMaxProgramAccounts', () => {
  it('is sent as it is read: chunked, no content length, and the same JSON', async () => {
    const res = await fetch(`http://127.0.0.1:${rpc.port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'getProgramAccounts', params: [PROGRAM, { withContext: true }] }),
    });
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const body: any = await res.json();
    expect(body.id).toBe('x');
    expect(body.result.context.slot).toBe(tip);
    expectSameList(
      pubkeys(body.result.value),
      openAccountsOf(stateAt(chain, tip), PROGRAM).map((a) => a.pubkey),
    );
  });

  it('over the limit: -32012 naming the limit and pointing to getProgramAccountsV2; a filtered answer within it is served', async () => {
    const r = await call(small, 'getProgramAccounts', [PROGRAM]);
    expect(r.error.code).toBe(-32012);
    expect(r.error.message).toMatch(/100 accounts/);
    expect(r.error.message).toMatch(/getProgramAccountsV2/);
    const narrow = await call(small, 'getProgramAccounts', [
      PROGRAM,
      { filters: [{ memcmp: { offset: 0, bytes: bs58.encode(Buffer.from([7, 0])) } }] },
    ]);
    expect(narrow.result.length).toBeGreaterThan(0);
    expect(narrow.result.length).toBeLessThanOrEqual(100);
    // In a batch, the streamed answer is joined into the batch's one text.
    const res = await fetch(`http://127.0.0.1:${rpc.port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'getProgramAccounts', params: [PROGRAM, { dataSlice: { offset: 0, length: 0 } }] },
        { jsonrpc: '2.0', id: 2, method: 'getSlot' },
      ]),
    });
    const batch: any = await res.json();
    expect(batch[0].result.length).toBe(openAccountsOf(stateAt(chain, tip), PROGRAM).length);
    expect(batch[1].result).toBe(tip);
  });
});

describe('projector rebuild', () => {
  it('rebuilds the owner-keyed views: the walks answer the same afterwards', async () => {
    const before = await helius().getAllProgramAccounts(PROGRAM, {});
    await idle();
    for (const t of ['program_accounts', 'program_account_changes']) await ch.command({ query: `TRUNCATE TABLE ${DB}.${t}` });
    expect(await helius().getAllProgramAccounts(PROGRAM, {})).toEqual([]);
    await rebuildViews(config, silentLogger, { ch, kafka, topics });
    expectSameList(await helius().getAllProgramAccounts(PROGRAM, {}), before);
    const slotOf = new Map(openAccountsOf(stateAt(chain, tip), PROGRAM).map((a) => [a.pubkey, a.slot]));
    const changed = await helius().getAllProgramAccounts(PROGRAM, { changedSinceSlot: 36 });
    expectSameList(
      changed,
      before.filter((a: any) => slotOf.get(a.pubkey)! >= 36),
    );
    expect(changed.length).toBeGreaterThan(0);
  });
});

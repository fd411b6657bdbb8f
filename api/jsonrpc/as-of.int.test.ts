// Accounts as of a slot (issue 21, item 3) through the whole pipeline: the chain of
// test/support/jsonrpc/as-of-chain.ts published to a real broker, projected into embedded ClickHouse by the
// projector, and read back by the JSON-RPC server at every slot with each of the six account methods and the
// `slot` config member; every answer is compared with the test's own fold of the accounts topic read back from
// Kafka. Then the errors (a slot not reached at the commitment, one older than the history held, one below
// minContextSlot), the clients (web3.js and kit pass the member through), and minContextSlot on every method
// Agave honours it on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, PublicKey } from '@solana/web3.js';
import { address, createSolanaRpc } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcServer } from './server.js';
import { createClickHouse, type ClickHouseClient } from '../../platform/clickhouse.js';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { applyMigrations } from '../../platform/migrations.js';
import { silentLogger } from '../../platform/log.js';
import { AccountEvent, decodeRecord, SlotStatus } from '../../schemas/codec.js';
import { topicNames, type TopicNames } from '../../schemas/topics.js';
import { startProjector, type Projector } from '../../projector/run.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { heads, kafkaLag } from '../../test/support/projector/dump.js';
import { publishChain } from '../../test/support/projector/kafka.js';
import { b58 } from '../../test/support/projector/events.js';
import { readTopics } from '../../test/support/kafka/read-topics.js';
import {
  ACC,
  ALL_ACCOUNTS,
  FIRST,
  FoldedWrites,
  LAST,
  MINT,
  MINT_DECIMALS,
  OTHER_PROGRAM,
  PROGRAM,
  TOKEN_ACC,
  WALLET,
  WALLET_2,
  slots,
  statusOf,
} from '../../test/support/jsonrpc/as-of-chain.js';

const DB = 'as_of_int';
/** Produced after LAST, processed only: the processed head runs two slots ahead of confirmed and finalized. */
const PROCESSED_HEAD = LAST + 2;
let dir: string;
let ch: ClickHouseClient;
let kafka: Kafka;
let topics: TopicNames;
let projector: Projector | undefined;
let rpc: JsonRpcServer;
let url: string;
let fold: FoldedWrites;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jsonrpc-as-of-int-'));
  ch = await createClickHouse({ dataDir: dir, database: DB });
  const prefix = uniquePrefix('jsonrpc-as-of');
  topics = topicNames(prefix);
  kafka = createKafka({ brokers: testBrokers(), clientId: 'jsonrpc-as-of-int-test' });
  await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
  await applyMigrations(ch, DB);
  projector = await startProjector({ database: DB, groupId: 'g-as-of', batchRows: 400, batchMs: 50 }, silentLogger, { ch, kafka, topics });
  const open = () =>
    JsonRpcServer.open({
      ch,
      database: DB,
      host: '127.0.0.1',
      port: 0,
      maxBodyBytes: 1024 * 1024,
      maxBatch: 100,
      maxSlotLag: 150,
      chainTip: () => undefined,
      log: silentLogger,
      // Opened once the views are whole (below), which no test changes: the views' state (heads, the oldest slot of
      // the account history) is read once, not at every batch.
      stateTtlMs: 3_600_000,
    });

  await publishChain(kafka, topics, [
    ...slots(FIRST, LAST),
    statusOf(LAST, SlotStatus.SLOT_STATUS_CONFIRMED),
    statusOf(LAST, SlotStatus.SLOT_STATUS_FINALIZED),
    ...slots(LAST + 1, PROCESSED_HEAD),
  ]);
  const want = JSON.stringify([`confirmed|${LAST}`, `finalized|${LAST}`, `processed|${PROCESSED_HEAD}`]);
  await waitFor(async () => (await kafkaLag(ch, DB)) === 0n && JSON.stringify(await heads(ch, DB)) === want, {
    what: `heads processed ${PROCESSED_HEAD}, confirmed and finalized ${LAST}, no lag`,
    timeoutMs: 300_000,
  });
  // Whole: the projector's heads timer would only poll Kafka and ClickHouse beside every test.
  await projector.stop();
  projector = undefined;
  rpc = await open();
  url = `http://127.0.0.1:${rpc.port}/`;

  // The independent reconstruction: the accounts topic as Kafka holds it, folded here.
  const contents = await readTopics(kafka, [topics.accounts]);
  const events: AccountEvent[] = [];
  for (const partition of contents.get(topics.accounts)!) {
    for (const r of partition) {
      const d = decodeRecord('accounts', r.value);
      if (!d.ok || d.value.kind !== 'accounts') throw new Error(`undecodable account record at offset ${r.offset}`);
      events.push(d.value.event);
    }
  }
  fold = new FoldedWrites(events);
});

afterAll(async () => {
  await rpc?.close();
  await projector?.stop();
  await ch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// ---- requests ----

type Call = [method: string, params: unknown[]];
interface Answer {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** One JSON-RPC batch; answers in call order. */
async function batch(calls: readonly Call[]): Promise<Answer[]> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params }))),
  });
  const answers = (await r.json()) as (Answer & { id: number })[];
  return answers.sort((a, b) => a.id - b.id);
}
const one = async (method: string, params: unknown[]): Promise<Answer> => (await batch([[method, params]]))[0]!;

interface UiAccount {
  lamports: number;
  owner: string;
  data: [string, string];
  space: number;
}
interface Ctx<T> {
  context: { slot: number };
  value: T;
}

/** What the comparisons look at: lamports, owner, data, space. */
const viewOf = (a: UiAccount | null): unknown =>
  a === null ? null : { lamports: BigInt(a.lamports), owner: a.owner, data: a.data[0], space: a.space };
const foldedView = (pubkey: string, slot: number): unknown => {
  const a = fold.at(pubkey, slot);
  return a === undefined ? null : { lamports: a.lamports, owner: a.owner, data: a.data.toString('base64'), space: a.data.length };
};

/** The six methods' calls as of `slot` (config members in `extra`). */
function asOfCalls(slot: number, extra: Record<string, unknown> = {}): Call[] {
  const c = { slot, ...extra };
  return [
    ...ALL_ACCOUNTS.map((k): Call => ['getAccountInfo', [k, { encoding: 'base64', ...c }]]),
    ['getMultipleAccounts', [ALL_ACCOUNTS, c]],
    ...ALL_ACCOUNTS.map((k): Call => ['getBalance', [k, c]]),
    ['getProgramAccounts', [PROGRAM, { withContext: true, ...c }]],
    ['getProgramAccounts', [OTHER_PROGRAM, { withContext: true, ...c }]],
    ['getTokenAccountsByOwner', [WALLET, { mint: MINT }, { encoding: 'base64', ...c }]],
    ['getTokenAccountsByOwner', [WALLET_2, { mint: MINT }, { encoding: 'base64', ...c }]],
    ...Object.values(TOKEN_ACC).map((k): Call => ['getTokenAccountBalance', [k, c]]),
  ];
}

/** Every answer of asOfCalls(slot) checked against the fold at `slot`, context slots included. */
function expectFoldAt(slot: number, answers: Answer[]): void {
  const at = (i: number) => {
    const a = answers[i]!;
    if (a.error !== undefined) throw new Error(`call ${i} as of ${slot} answered ${JSON.stringify(a.error)}`);
    const r = a.result as Ctx<unknown>;
    expect(r.context.slot, `context slot of call ${i} as of ${slot}`).toBe(slot);
    return r.value;
  };
  let i = 0;
  for (const k of ALL_ACCOUNTS)
    expect(viewOf(at(i++) as UiAccount | null), `getAccountInfo(${k}) as of ${slot}`).toEqual(foldedView(k, slot));
  expect((at(i++) as (UiAccount | null)[]).map(viewOf), `getMultipleAccounts as of ${slot}`).toEqual(
    ALL_ACCOUNTS.map((k) => foldedView(k, slot)),
  );
  for (const k of ALL_ACCOUNTS) expect(BigInt(at(i++) as number), `getBalance(${k}) as of ${slot}`).toBe(fold.at(k, slot)?.lamports ?? 0n);
  for (const program of [PROGRAM, OTHER_PROGRAM]) {
    const listed = at(i++) as { pubkey: string; account: UiAccount }[];
    expect(
      listed.map((a) => a.pubkey),
      `getProgramAccounts(${program}) as of ${slot}`,
    ).toEqual(fold.ownedBy(program, slot));
    for (const a of listed) expect(viewOf(a.account)).toEqual(foldedView(a.pubkey, slot));
  }
  for (const wallet of [WALLET, WALLET_2]) {
    const listed = at(i++) as { pubkey: string; account: UiAccount }[];
    expect(
      listed.map((a) => a.pubkey),
      `getTokenAccountsByOwner(${wallet}) as of ${slot}`,
    ).toEqual(fold.tokenAccounts(wallet, MINT, slot));
    for (const a of listed) expect(viewOf(a.account)).toEqual(foldedView(a.pubkey, slot));
  }
  for (const k of Object.values(TOKEN_ACC)) {
    const a = answers[i++]!;
    const folded = fold.at(k, slot);
    if (folded === undefined) {
      expect(a.error, `getTokenAccountBalance(${k}) as of ${slot}`).toEqual({
        code: -32602,
        message: 'Invalid param: could not find account',
      });
      continue;
    }
    expect(a.error).toBeUndefined();
    const r = a.result as Ctx<{ amount: string; decimals: number }>;
    expect(r.context.slot).toBe(slot);
    expect(r.value, `getTokenAccountBalance(${k}) as of ${slot}`).toMatchObject({
      amount: folded.data.readBigUInt64LE(64).toString(),
      decimals: MINT_DECIMALS,
    });
  }
  expect(i).toBe(answers.length);
}

describe('accounts as of a slot', () => {
  it('the chain covers what the as-of reads must get right', () => {
    // Guards the fixture: each case the reads are compared on happens in the published history.
    expect(fold.at(ACC.late, 29)).toBeUndefined(); // created after the slot
    expect(fold.at(ACC.late, 30)).toBeDefined();
    expect([fold.at(ACC.closer, 15), fold.at(ACC.closer, 16), fold.at(ACC.closer, 21)].map((a) => a !== undefined)).toEqual([
      true,
      false,
      true,
    ]);
    expect(fold.ownedBy(OTHER_PROGRAM, 22)).toEqual([ACC.mover]);
    expect(fold.tokenAccounts(WALLET_2, MINT, 26)).toEqual([TOKEN_ACC.ta3]);
    expect(new Set(Array.from({ length: LAST - FIRST + 1 }, (_, j) => fold.at(ACC.hot, FIRST + j)?.lamports)).size).toBeGreaterThan(20);
  });

  it(`answers every slot from ${FIRST} to ${LAST} with each of the six methods exactly as the fold of the accounts topic`, async () => {
    // As many slots a batch as the server's 100 calls hold: the same calls, fewer round trips.
    const per = asOfCalls(FIRST).length;
    const slotsPer = Math.floor(100 / per);
    expect(slotsPer).toBeGreaterThan(1);
    for (let from = FIRST; from <= LAST; from += slotsPer) {
      const at = Array.from({ length: Math.min(slotsPer, LAST - from + 1) }, (_, i) => from + i);
      const answers = await batch(at.flatMap((slot) => asOfCalls(slot)));
      at.forEach((slot, i) => expectFoldAt(slot, answers.slice(i * per, (i + 1) * per)));
    }
  });

  it(`the V2 methods (getProgramAccountsV2, getTokenAccountsByOwnerV2) answer every slot as the fold too`, async () => {
    type Page = Ctx<{ accounts: { pubkey: string; account: UiAccount }[]; paginationKey: string | null }>;
    for (let slot = FIRST; slot <= LAST; slot++) {
      const c = { slot, withContext: true, encoding: 'base64' };
      const answers = await batch([
        ['getProgramAccountsV2', [PROGRAM, { limit: 1000, ...c }]],
        ['getProgramAccountsV2', [OTHER_PROGRAM, { limit: 1000, ...c }]],
        ['getTokenAccountsByOwnerV2', [WALLET, { mint: MINT }, c]],
        ['getTokenAccountsByOwnerV2', [WALLET_2, { mint: MINT }, c]],
      ]);
      const want = [
        fold.ownedBy(PROGRAM, slot),
        fold.ownedBy(OTHER_PROGRAM, slot),
        fold.tokenAccounts(WALLET, MINT, slot),
        fold.tokenAccounts(WALLET_2, MINT, slot),
      ];
      answers.forEach((a, i) => {
        expect(a.error, `V2 call ${i} as of ${slot}`).toBeUndefined();
        const page = a.result as Page;
        expect(page.context.slot, `V2 call ${i} as of ${slot}: context slot`).toBe(slot);
        expect(
          page.value.accounts.map((x) => x.pubkey),
          `V2 call ${i} as of ${slot}`,
        ).toEqual(want[i]);
        for (const x of page.value.accounts) expect(viewOf(x.account)).toEqual(foldedView(x.pubkey, slot));
      });
    }
  });

  it('reads above the finalized head at processed, and refuses them at confirmed and finalized with -32016 and the context slot', async () => {
    for (let slot = LAST + 1; slot <= PROCESSED_HEAD; slot++) {
      expectFoldAt(slot, await batch(asOfCalls(slot, { commitment: 'processed' })));
      for (const commitment of ['confirmed', 'finalized']) {
        for (const a of await batch(asOfCalls(slot, { commitment }))) {
          expect(a.error).toEqual({
            code: -32016,
            message: `Minimum context slot has not been reached: slot ${slot} is above the newest ${commitment} slot, ${LAST}`,
            data: { contextSlot: LAST },
          });
        }
      }
    }
  });

  it('refuses a slot older than the history held with -32018 naming the oldest slot available', async () => {
    for (const slot of [0, FIRST - 1]) {
      for (const a of await batch(asOfCalls(slot))) {
        expect(a.error).toEqual({
          code: -32018,
          message: `Account history not available for slot ${slot}: the oldest slot held is ${FIRST}`,
          data: { oldestSlot: FIRST },
        });
      }
    }
    // The oldest slot itself answers (the fold agrees).
    expectFoldAt(FIRST, await batch(asOfCalls(FIRST)));
  });

  it('with minContextSlot: at or below the slot answers, above it -32602, above the head -32016', async () => {
    const methods = (answers: Answer[]) => answers.filter((_, i) => asOfCalls(0)[i]![0] !== 'getTokenAccountBalance');
    expectFoldAt(30, await batch(asOfCalls(30, { minContextSlot: 30 })));
    for (const a of methods(await batch(asOfCalls(20, { minContextSlot: 30 })))) {
      expect(a.error).toEqual({
        code: -32602,
        message: 'Invalid params',
        data: 'slot: 20 is below minContextSlot 30; an answer as of slot 20 has context slot 20',
      });
    }
    for (const a of methods(await batch(asOfCalls(20, { minContextSlot: LAST + 1 })))) {
      expect(a.error).toEqual({ code: -32016, message: 'Minimum context slot has not been reached', data: { contextSlot: LAST } });
    }
  });

  it('rejects a `slot` that is not a whole non-negative number with -32602 naming it, on each method', async () => {
    for (const a of await batch(asOfCalls(-1))) {
      expect(a.error).toEqual({ code: -32602, message: 'Invalid params', data: 'slot: expected a non-negative whole number, got -1' });
    }
  });

  it('passes through @solana/web3.js and @solana/kit unchanged', async () => {
    const connection = new Connection(url, 'finalized');
    const hot = new PublicKey(ACC.hot);
    for (const slot of [12, 25, 37]) {
      const info = await connection.getAccountInfoAndContext(hot, { commitment: 'finalized', slot } as never);
      expect(info.context.slot).toBe(slot);
      expect(BigInt(info.value!.lamports)).toBe(fold.at(ACC.hot, slot)!.lamports);
      expect(Buffer.from(info.value!.data)).toEqual(fold.at(ACC.hot, slot)!.data);
      const kit = createSolanaRpc(url);
      const balance = await kit.getBalance(address(ACC.hot), { commitment: 'finalized', slot: BigInt(slot) } as never).send();
      expect(balance).toEqual({ context: { slot: BigInt(slot), apiVersion: expect.any(String) }, value: fold.at(ACC.hot, slot)!.lamports });
    }
    const late = await connection.getProgramAccounts(new PublicKey(PROGRAM), { commitment: 'finalized', slot: 29 } as {
      commitment: 'finalized';
    });
    expect(late.map((a) => a.pubkey.toBase58()).sort()).toEqual(fold.ownedBy(PROGRAM, 29).sort());
  });
});

describe('minContextSlot on every method Agave honours it on', () => {
  // Agave's rpc.rs: the methods that check min_context_slot (get_bank_with_config, or the finalized root for
  // getBlocks, getBlocksWithLimit and getSignaturesForAddress), among those slotstream serves.
  const HONOURED: [string, (config: Record<string, unknown>) => unknown[]][] = [
    ['getSlot', (c) => [c]],
    ['getBlockHeight', (c) => [c]],
    ['getEpochInfo', (c) => [c]],
    ['getLatestBlockhash', (c) => [c]],
    ['isBlockhashValid', (c) => [b58(`blockhash-${LAST}`), c]],
    ['getBalance', (c) => [ACC.hot, c]],
    ['getAccountInfo', (c) => [ACC.hot, c]],
    ['getMultipleAccounts', (c) => [[ACC.hot], c]],
    ['getProgramAccounts', (c) => [PROGRAM, c]],
    ['getTokenAccountsByOwner', (c) => [WALLET, { mint: MINT }, { encoding: 'base64', ...c }]],
    ['getSignaturesForAddress', (c) => [ACC.hot, c]],
    ['getBlocks', (c) => [FIRST, c]],
    ['getBlocksWithLimit', (c) => [FIRST, 10, c]],
  ];
  /** Agave's check_is_at_least_confirmed: these refuse processed before anything else. */
  const CONFIRMED_ONLY = new Set(['getSignaturesForAddress', 'getBlocks', 'getBlocksWithLimit']);

  it.each(HONOURED.map(([m, p]) => [m, p] as const))(
    '%s answers -32016 with the context slot below it, and answers at it',
    async (method, params) => {
      for (const [commitment, head] of [
        ['confirmed', LAST],
        ['finalized', LAST],
        ['processed', PROCESSED_HEAD],
      ] as const) {
        if (CONFIRMED_ONLY.has(method) && commitment === 'processed') continue;
        expect((await one(method, params({ commitment, minContextSlot: head + 1 }))).error, `${method} at ${commitment}`).toEqual({
          code: -32016,
          message: 'Minimum context slot has not been reached',
          data: { contextSlot: head },
        });
        const at = await one(method, params({ commitment, minContextSlot: head }));
        // getEpochInfo needs an epoch record, which this chain has none of: -32007 after the check, not -32016.
        if (method === 'getEpochInfo') expect(at.error?.code, `${method} at ${commitment}`).toBe(-32007);
        else expect(at.error, `${method} at ${commitment}`).toBeUndefined();
      }
    },
  );

  it('getTokenAccountBalance ignores it, as Agave (its config is a bare commitment)', async () => {
    const a = await one('getTokenAccountBalance', [TOKEN_ACC.ta1, { minContextSlot: PROCESSED_HEAD + 100 }]);
    expect(a.error).toBeUndefined();
    expect((a.result as Ctx<unknown>).context.slot).toBe(LAST);
  });
});

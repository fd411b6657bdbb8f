/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// Issue 21, item 5: the rest of Agave's read methods on the real stack. The simulator (the real ingest) publishes
// 192 slots to a real Kafka broker, then the test publishes a hand-made extension (test/support/jsonrpc/agave-chain.ts:
// epoch-boundary rewards, partitioned and not, a mint and delegated token accounts, a feature account, a gap); the
// real projector fills embedded ClickHouse and JSON-RPC answers @solana/web3.js 1.x `Connection` (its superstruct
// schemas validate every answer) and @solana/kit's `createSolanaRpc`. Every value is checked against what the test
// computes from the records it consumed from the topics; then param errors and the -32601 list.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, PublicKey, VersionedTransaction } from '@solana/web3.js';
import { address, createSolanaRpc } from '@solana/kit';
import { connectKafka } from '../../cli/infrastructure.js';
import { startIngest } from '../../ingest/run.js';
import { createClickHouse, type ClickHouseClient } from '../../platform/clickhouse.js';
import { makeConfig } from '../../cli/config.js';
import type { Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { applyMigrations } from '../../platform/migrations.js';
import { COMPUTE_BUDGET_PROGRAM, TOKEN_PROGRAM } from '../../schemas/programs.js';
import type { TopicNames } from '../../schemas/topics.js';
import type { TransactionEvent } from '../../schemas/codec.js';
import { startProjector, type Projector } from '../../projector/run.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { heads } from '../../test/support/projector/dump.js';
import { expectedHeads, type ConsumedRecord } from '../../test/support/projector/expected.js';
import { consumeAll, publishChain } from '../../test/support/projector/kafka.js';
import {
  DELEGATE,
  E,
  FEATURE_1_SOL,
  LEADERS,
  MINT,
  MINT_SUPPLY,
  NOBODY,
  REWARDS,
  SIM_SLOTS,
  SLOTS_PER_EPOCH,
  STAKE_1,
  STAKE_2,
  TOKEN_ACCOUNTS,
  VOTE,
  extension,
  leaderOf,
  simChain,
  type SimChain,
} from '../../test/support/jsonrpc/agave-chain.js';
import { JsonRpcServer } from './server.js';
import { ingestSection, projectorSection } from '../../cli/config-sections.js';

const DB = 'agave_methods';
const IDENTITY = bs58.encode(Buffer.alloc(32, 7));
const TIP = BigInt(E + 100);
const FINALIZED = E + 33;
const CONFIRMED = E + 66;

let dir: string;
let ch: ClickHouseClient;
let kafka: Kafka;
let topics: TopicNames;
let projector: Projector | undefined;
let rpc: JsonRpcServer;
let bare: JsonRpcServer;
let url: string;
let conn: Connection;
let kit: ReturnType<typeof createSolanaRpc>;
let records: ConsumedRecord[];
let sim: SimChain;
let before: Record<string, any> = {};

const callAt = async (at: string, method: string, params?: unknown): Promise<any> => {
  const r = await fetch(at, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return r.json();
};
const call = (method: string, params?: unknown): Promise<any> => callAt(url, method, params);
const errorOf = async (method: string, params?: unknown): Promise<{ code: number; message: string; data?: unknown }> => {
  const r = await call(method, params);
  expect(r.error, `${method} ${JSON.stringify(params)} answered ${JSON.stringify(r.result)}`).toBeDefined();
  return r.error;
};
const waitHeads = async (what: string): Promise<void> => {
  const want = JSON.stringify(expectedHeads(records));
  await waitFor(async () => JSON.stringify(await heads(ch, DB)) === want, { what, timeoutMs: 180_000, intervalMs: 250 });
};

const txEvents = (): TransactionEvent[] => records.flatMap((r) => (r.event.kind === 'transactions' ? [r.event.event] : []));
const keysOf = (e: TransactionEvent): string[] => [...e.accountKeys, ...e.loadedWritable, ...e.loadedReadonly].map((k) => bs58.encode(k));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agave-methods-int-'));
  const common = { kafkaBrokers: testBrokers(), topicPrefix: uniquePrefix('agave-methods'), partitions: 3, logLevel: 'silent' } as const;
  ch = await createClickHouse({ dataDir: join(dir, 'ch'), database: DB });
  await applyMigrations(ch, DB);
  const projectorConfig = makeConfig('projector', {
    ...common,
    clickhouseDatabase: DB,
    groupId: 'g-agave-methods',
    batchRows: 5000,
    batchMs: 50,
  });
  ({ kafka, topics } = await connectKafka(projectorConfig, silentLogger));
  projector = await startProjector(projectorSection(projectorConfig), silentLogger, { ch, kafka, topics });
  const rpcOptions = {
    ch,
    database: DB,
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 50 * 1024,
    maxBatch: 10,
    maxSlotLag: 100_000,
    chainTip: () => TIP,
    log: silentLogger,
    stateTtlMs: 0,
  };
  rpc = await JsonRpcServer.open({ ...rpcOptions, identity: IDENTITY });
  bare = await JsonRpcServer.open(rpcOptions);
  url = `http://127.0.0.1:${rpc.port}/`;
  conn = new Connection(url, { commitment: 'finalized', disableRetryOnRateLimit: true });
  kit = createSolanaRpc(url);

  const ingest = await startIngest(
    ingestSection(
      makeConfig('ingest', {
        ...common,
        source: 'sim',
        slotMs: 0,
        maxSlots: SIM_SLOTS,
        slotsPerEpoch: SLOTS_PER_EPOCH,
        validators: 8,
        // ~20 transactions a slot (3,800 in all): every check has its cases (the counts, a busiest mint with
        // holders, fees the account filter changes, compute-budget messages); tps 150 tripled what the ingest, the
        // projector and the references compute for the same checks.
        tps: 50,
        fast: true,
        deadRate: 0,
        simEntries: false,
      }),
    ),
    silentLogger,
    { kafka, topics },
  );
  await ingest.done;
  records = await consumeAll(kafka, topics);
  sim = simChain(records);
  await waitHeads('the views to catch up with the simulated chain');
  // Before the extension: the feature account does not exist yet, the finalized head is a simulated block.
  before = {
    stakeMinimum: (await call('getStakeMinimumDelegation')).result,
    leader: (await call('getSlotLeader')).result,
    finalized: Math.max(...[...sim.finalized]),
  };

  await publishChain(kafka, topics, extension(sim));
  records = await consumeAll(kafka, topics);
  await waitHeads('the views to catch up with the extension');
  // The views are whole: the projector's heads timer would only poll Kafka and ClickHouse beside every test.
  await projector.stop();
  projector = undefined;
});

afterAll(async () => {
  await rpc?.close();
  await bare?.close();
  await projector?.stop();
  await kafka?.close();
  await ch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('heads after the extension', () => {
  it('finalized, confirmed and processed are where the extension put them', async () => {
    expect(await conn.getSlot('finalized')).toBe(FINALIZED);
    expect(await conn.getSlot('confirmed')).toBe(CONFIRMED);
    expect(await conn.getSlot('processed')).toBe(CONFIRMED);
  });
});

describe('getTransactionCount', () => {
  const txsUpTo = (slot: number) => txEvents().filter((e) => Number(e.slot) <= slot && sim.blocks.has(Number(e.slot))).length;
  it('counts the transactions of every block up to the head (web3.js and kit)', async () => {
    expect(txsUpTo(FINALIZED)).toBeGreaterThan(1000);
    expect(await conn.getTransactionCount('finalized')).toBe(txsUpTo(FINALIZED));
    expect(await kit.getTransactionCount({ commitment: 'confirmed' }).send()).toBe(BigInt(txsUpTo(CONFIRMED)));
  });
  it('honours minContextSlot', async () => {
    expect((await call('getTransactionCount', [{ minContextSlot: FINALIZED + 1 }])).error).toMatchObject({
      code: -32016,
      data: { contextSlot: FINALIZED },
    });
  });
});

describe('getSlotLeader and getSlotLeaders', () => {
  it("the head block's leader at each commitment", async () => {
    expect(before.leader).toBe(sim.blocks.get(before.finalized)!.leader);
    expect(await conn.getSlotLeader('finalized')).toBe(LEADERS[1]);
    expect(await kit.getSlotLeader({ commitment: 'confirmed' }).send()).toBe(LEADERS[0]);
  });
  it('the schedules of consecutive epochs (web3.js and kit)', async () => {
    const want = (start: number, n: number) =>
      Array.from({ length: n }, (_, i) => leaderOf(sim, start + i) ?? LEADERS[Math.floor((start + i - E) / 4) % 2]);
    expect((await conn.getSlotLeaders(20, 40)).map((k) => k.toBase58())).toEqual(want(20, 40));
    expect(await kit.getSlotLeaders(BigInt(E - 6), 30).send()).toEqual(want(E - 6, 30));
    expect(await kit.getSlotLeaders(0n, 0).send()).toEqual([]);
  });
  it("Agave's errors: limit over 5,000, an epoch without a schedule", async () => {
    expect(await errorOf('getSlotLeaders', [0, 5001])).toEqual({ code: -32602, message: 'Invalid limit; max 5000' });
    expect(await errorOf('getSlotLeaders', [E + 3 * 32 + 1, 1])).toEqual({
      code: -32602,
      message: 'Invalid slot range: leader schedule for epoch 9 is unavailable',
    });
    expect((await errorOf('getSlotLeaders', [0])).code).toBe(-32602);
  });
});

describe('getBlockProduction', () => {
  it("by default the head's epoch up to the head (web3.js validates)", async () => {
    const r = await conn.getBlockProduction({ commitment: 'finalized' });
    expect(r.context.slot).toBe(FINALIZED);
    expect(r.value).toEqual({ byIdentity: { [LEADERS[0]!]: [2, 2] }, range: { firstSlot: E + 32, lastSlot: FINALIZED } });
  });
  it('over a range of the simulated chain, and for one identity', async () => {
    const want: Record<string, [number, number]> = {};
    for (let s = 10; s <= 150; s++) {
      const leader = leaderOf(sim, s)!;
      const e = (want[leader] ??= [0, 0]);
      e[0]++;
      if (sim.blocks.has(s)) e[1]++;
    }
    const r = await conn.getBlockProduction({ range: { firstSlot: 10, lastSlot: 150 } });
    expect(r.value.byIdentity).toEqual(want);
    const one = Object.keys(want)[0]!;
    const k = await kit.getBlockProduction({ range: { firstSlot: 10n, lastSlot: 150n }, identity: address(one) }).send();
    expect(k.value.byIdentity).toEqual({ [one]: want[one]!.map(BigInt) });
    expect(k.value.range).toEqual({ firstSlot: 10n, lastSlot: 150n });
  });
  it("Agave's range errors", async () => {
    expect(await errorOf('getBlockProduction', [{ range: { firstSlot: 20, lastSlot: 10 } }])).toEqual({
      code: -32602,
      message: 'lastSlot, 10, cannot be less than firstSlot, 20',
    });
    expect(await errorOf('getBlockProduction', [{ range: { firstSlot: 20, lastSlot: FINALIZED + 1 } }])).toEqual({
      code: -32602,
      message: `lastSlot, ${FINALIZED + 1}, is too large; max ${FINALIZED}`,
    });
    expect((await errorOf('getBlockProduction', [{ identity: 'nope' }])).code).toBe(-32602);
    expect((await errorOf('getBlockProduction', [{ range: { lastSlot: 3 } }])).code).toBe(-32602);
  });
});

describe('getBlockCommitment', () => {
  it('answers no lockout commitment and no known stake (kit)', async () => {
    expect(await kit.getBlockCommitment(BigInt(FINALIZED)).send()).toEqual({ commitment: null, totalStake: 0n });
    expect((await errorOf('getBlockCommitment', [])).code).toBe(-32602);
  });
});

describe('getRecentPrioritizationFees', () => {
  // Independent of the product: a transaction's price is its SetComputeUnitPrice; an account is write-locked
  // when the header makes it writable and it is not a program the transaction calls.
  const priceOf = (e: TransactionEvent, keys: string[]): bigint => {
    for (const ix of e.instructions) {
      if (keys[ix.programIdIndex] === COMPUTE_BUDGET_PROGRAM && ix.data[0] === 3) return Buffer.from(ix.data).readBigUInt64LE(1);
    }
    return 0n;
  };
  const writable = (e: TransactionEvent, keys: string[]): string[] => {
    const called = new Set(e.instructions.map((ix) => ix.programIdIndex));
    const n = e.accountKeys.length;
    const sig = e.numRequiredSignatures;
    return keys.filter((_, i) => {
      const w =
        i < n ? (i < sig ? i < sig - e.numReadonlySignedAccounts : i < n - e.numReadonlyUnsignedAccounts) : i < n + e.loadedWritable.length;
      return w && !called.has(i);
    });
  };
  // Per block of the window: the lowest price of its non-vote transactions and of each write-locked account.
  let window: { slot: number; min: bigint | undefined; per: Map<string, bigint> }[] | undefined;
  const blocksOfWindow = () => {
    if (window !== undefined) return window;
    const slots = [...sim.blocks.keys(), E, E + 32, E + 33]
      .filter((s) => s <= FINALIZED)
      .sort((a, b) => a - b)
      .slice(-150);
    const bySlot = new Map(slots.map((slot) => [slot, { slot, min: undefined as bigint | undefined, per: new Map<string, bigint>() }]));
    for (const e of txEvents()) {
      const b = bySlot.get(Number(e.slot));
      if (b === undefined || e.isVote) continue;
      const keys = keysOf(e);
      const p = priceOf(e, keys);
      if (b.min === undefined || p < b.min) b.min = p;
      for (const k of writable(e, keys)) if (!b.per.has(k) || p < b.per.get(k)!) b.per.set(k, p);
    }
    return (window = [...bySlot.values()]);
  };
  const expected = (accounts: string[]) =>
    blocksOfWindow().map(({ slot, min, per }) => {
      let fee = min ?? 0n;
      for (const a of accounts) if (per.has(a) && per.get(a)! > fee) fee = per.get(a)!;
      return { slot, prioritizationFee: Number(fee) };
    });
  it('per slot of the 150 newest finalized blocks, the lowest price (web3.js)', async () => {
    const want = expected([]);
    expect(want).toHaveLength(150);
    expect(want.some((w) => w.prioritizationFee > 0) || want.every((w) => w.prioritizationFee === 0)).toBe(true);
    expect(await conn.getRecentPrioritizationFees()).toEqual(want);
  });
  it('raised to the lowest price of the write-locked accounts asked for (web3.js and kit)', async () => {
    // The account whose own minimum beats its blocks' minimum most often: the filter must change the answer.
    const base = expected([]);
    const counts = new Map<string, number>();
    for (const e of txEvents())
      if (!e.isVote && Number(e.slot) <= FINALIZED) for (const k of writable(e, keysOf(e))) counts.set(k, (counts.get(k) ?? 0) + 1);
    const candidates = [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 30)
      .map(([k]) => k);
    let best = candidates[0]!;
    let bestDiff = -1;
    for (const c of candidates) {
      const diff = expected([c]).filter((w, i) => w.prioritizationFee !== base[i]!.prioritizationFee).length;
      if (diff > bestDiff) [best, bestDiff] = [c, diff];
    }
    expect(bestDiff).toBeGreaterThan(0);
    const want = expected([best]);
    expect(await conn.getRecentPrioritizationFees({ lockedWritableAccounts: [new PublicKey(best)] })).toEqual(want);
    const k = await kit.getRecentPrioritizationFees([address(best)]).send();
    expect(k.map((x) => ({ slot: Number(x.slot), prioritizationFee: Number(x.prioritizationFee) }))).toEqual(want);
  });
  it("Agave's limit of 128 accounts and bad keys", async () => {
    expect(await errorOf('getRecentPrioritizationFees', [Array.from({ length: 129 }, () => NOBODY)])).toEqual({
      code: -32602,
      message: 'Too many inputs provided; max 128',
    });
    expect((await errorOf('getRecentPrioritizationFees', [['nope']])).code).toBe(-32602);
  });
});

describe('getFeeForMessage', () => {
  it("equals the fee the chain charged for the message's transaction (web3.js, kit)", async () => {
    const recent = txEvents().filter((e) => Number(e.slot) > FINALIZED - 80 - 33 && sim.blocks.has(Number(e.slot)));
    const picks = [
      ...recent.filter((e) => !e.isVote && keysOf(e).includes(COMPUTE_BUDGET_PROGRAM)).slice(0, 4),
      ...recent.filter((e) => !e.isVote && !keysOf(e).includes(COMPUTE_BUDGET_PROGRAM)).slice(0, 2),
      ...recent.filter((e) => e.isVote).slice(0, 1),
    ];
    expect(picks.length).toBeGreaterThanOrEqual(5);
    for (const e of picks) {
      const signature = bs58.encode(e.signatures[0]!);
      const got = await call('getTransaction', [signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 }]);
      const tx = VersionedTransaction.deserialize(Buffer.from(got.result.transaction[0], 'base64'));
      const fee = await conn.getFeeForMessage(tx.message, 'finalized');
      expect(fee.value, signature).toBe(Number(e.fee));
      const message = Buffer.from(tx.message.serialize()).toString('base64');
      const k = await kit.getFeeForMessage(message as never, { commitment: 'finalized' }).send();
      expect(k.value).toBe(e.fee);
    }
  });
  it('is null for a blockhash the chain does not know', async () => {
    const e = txEvents().find((x) => !x.isVote)!;
    const got = await call('getTransaction', [bs58.encode(e.signatures[0]!), { encoding: 'base64', maxSupportedTransactionVersion: 0 }]);
    const tx = VersionedTransaction.deserialize(Buffer.from(got.result.transaction[0], 'base64'));
    tx.message.recentBlockhash = bs58.encode(Buffer.alloc(32, 9));
    expect((await conn.getFeeForMessage(tx.message)).value).toBeNull();
  });
  it("Agave's decoding errors", async () => {
    expect(await errorOf('getFeeForMessage', ['not base64!'])).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^invalid base64 encoding/),
    });
    expect(await errorOf('getFeeForMessage', ['AAAA'])).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^failed to deserialize solana_message::versioned::VersionedMessage/),
    });
    expect(await errorOf('getFeeForMessage', ['A'.repeat(1648)])).toMatchObject({
      code: -32602,
      message: 'base64 encoded solana_message::versioned::VersionedMessage too large: 1648 bytes (max: encoded/raw 1644/1232)',
    });
    expect((await errorOf('getFeeForMessage', [5])).code).toBe(-32602);
  });
});

describe('getMinimumBalanceForRentExemption', () => {
  it('(128 + length) x 3,480 x 2: the simulator writes a zeroed Rent sysvar, which counts as absent', async () => {
    expect(await conn.getMinimumBalanceForRentExemption(165)).toBe((128 + 165) * 3480 * 2);
    expect(await kit.getMinimumBalanceForRentExemption(0n).send()).toBe(BigInt(128 * 3480 * 2));
  });
  it('a length over 10 MiB is -32600, as Agave', async () => {
    expect((await errorOf('getMinimumBalanceForRentExemption', [10 * 1024 * 1024 + 1])).code).toBe(-32600);
    expect((await errorOf('getMinimumBalanceForRentExemption', [-1])).code).toBe(-32602);
  });
});

describe('getInflationReward', () => {
  const reward = (epoch: number, slot: number, r: { lamports: bigint; postBalance: bigint; commission: number }) => ({
    epoch,
    effectiveSlot: slot,
    amount: Number(r.lamports),
    postBalance: Number(r.postBalance),
    commission: r.commission,
  });
  const keys = (...a: string[]) => a.map((k) => new PublicKey(k));
  it('from the first block of the next epoch, voting and staking rewards (web3.js validates)', async () => {
    expect(await conn.getInflationReward(keys(VOTE, STAKE_1, NOBODY), 5, 'finalized')).toEqual([
      reward(5, E, REWARDS.epoch5Vote),
      reward(5, E, REWARDS.epoch5Stake1),
      null,
    ]);
  });
  it('partitioned: voting rewards in the boundary block, staking rewards in the partition blocks (kit)', async () => {
    const r = await kit
      .getInflationReward([address(VOTE), address(STAKE_2), address(STAKE_1)], { epoch: 6n, commitment: 'confirmed' })
      .send();
    const plain = r.map((x) => x && Object.fromEntries(Object.entries(x).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
    expect(plain).toEqual([
      reward(6, E + 32, REWARDS.epoch6Vote),
      reward(6, E + 33, REWARDS.epoch6Stake2),
      reward(6, E + 34, REWARDS.epoch6Stake1),
    ]);
  });
  it('a simulated epoch pays no inflation: nulls', async () => {
    expect(await conn.getInflationReward(keys(VOTE, LEADERS[0]!), 1)).toEqual([null, null]);
  });
  it("Agave's errors: rewards period still active, gap at the boundary, no block yet, processed", async () => {
    // Finalized sees only the first of the two partition blocks: STAKE_1's is not paid yet. The default epoch is
    // the context slot's (epoch 7) minus one.
    const active = await errorOf('getInflationReward', [[STAKE_1]]);
    expect(active).toMatchObject({ code: -32017, message: `Epoch rewards period still active at slot ${FINALIZED}` });
    expect((active.data as any).rewardsCompleteBlockHeight).toBe(sim.blocks.get(Math.max(...sim.blocks.keys()))!.height + 2 + 2 + 1);
    expect(await errorOf('getInflationReward', [[STAKE_1], { commitment: 'confirmed', epoch: 7 }])).toMatchObject({
      code: -32018,
      message: `Rewards cannot be found because slot ${E + 66} is not the epoch boundary. This may be due to gap in the queried node's local ledger or long-term storage`,
      data: { slot: E + 66 },
    });
    expect(await errorOf('getInflationReward', [[VOTE], { epoch: 9 }])).toEqual({
      code: -32004,
      message: `Block not available for slot ${E + 4 * 32}`,
    });
    expect((await errorOf('getInflationReward', [[VOTE], { commitment: 'processed' }])).code).toBe(-32602);
    expect((await errorOf('getInflationReward', [['nope']])).code).toBe(-32602);
  });
});

describe('getGenesisHash, getIdentity', () => {
  it("the simulated chain's slot-0 blockhash (web3.js), the configured identity (kit)", async () => {
    expect(await conn.getGenesisHash()).toBe(sim.blocks.get(0)!.blockhash);
    expect(await kit.getIdentity().send()).toEqual({ identity: IDENTITY });
  });
  it('without a configured identity, -32601 saying so', async () => {
    const r = await callAt(`http://127.0.0.1:${bare.port}/`, 'getIdentity');
    expect(r.error.code).toBe(-32601);
    expect(r.error.message).toMatch(/^Method not found: slotstream does not serve getIdentity: .*rpcIdentity/);
  });
});

describe('getMaxShredInsertSlot, getMaxRetransmitSlot, getHighestSnapshotSlot', () => {
  it("the chain tip the api's Kafka reader saw (kit)", async () => {
    expect(await kit.getMaxShredInsertSlot().send()).toBe(TIP);
    expect(await kit.getMaxRetransmitSlot().send()).toBe(TIP);
  });
  it('no snapshot: -32008, as Agave on a node without snapshot archives', async () => {
    expect(await errorOf('getHighestSnapshotSlot')).toEqual({ code: -32008, message: 'No snapshot' });
    await expect(kit.getHighestSnapshotSlot().send()).rejects.toThrow();
  });
});

describe('getStakeMinimumDelegation', () => {
  it('1 lamport, then 1 SOL once the feature account says the feature is active (web3.js)', async () => {
    expect(before.stakeMinimum).toEqual({ context: { slot: before.finalized, apiVersion: expect.any(String) }, value: 1 });
    expect((await conn.getStakeMinimumDelegation({ commitment: 'finalized' })).value).toBe(1_000_000_000);
    expect(FEATURE_1_SOL).toHaveLength(44);
  });
});

describe('token methods', () => {
  it('getTokenSupply (web3.js) and its errors', async () => {
    const r = await conn.getTokenSupply(new PublicKey(MINT));
    expect(r.value).toEqual({ amount: MINT_SUPPLY.toString(), decimals: 6, uiAmount: 123.456789, uiAmountString: '123.456789' });
    expect(await errorOf('getTokenSupply', [NOBODY])).toEqual({ code: -32602, message: 'Invalid param: could not find account' });
    expect(await errorOf('getTokenSupply', [FEATURE_1_SOL])).toEqual({ code: -32602, message: 'Invalid param: not a Token mint' });
    expect(await errorOf('getTokenSupply', [TOKEN_ACCOUNTS[0]!.pubkey])).toEqual({
      code: -32602,
      message: 'Invalid param: mint could not be unpacked',
    });
  });

  it('getTokenLargestAccounts: amount descending, ties by address descending (web3.js)', async () => {
    const want = [...TOKEN_ACCOUNTS]
      .sort((a, b) => (a.amount === b.amount ? Buffer.compare(bs58.decode(b.pubkey), bs58.decode(a.pubkey)) : a.amount > b.amount ? -1 : 1))
      .map((t) => ({
        address: t.pubkey,
        amount: t.amount.toString(),
        decimals: 6,
        uiAmount: Number(t.amount) / 1e6,
        uiAmountString: String(Number(t.amount) / 1e6),
      }));
    const r = await conn.getTokenLargestAccounts(new PublicKey(MINT));
    expect(r.value.map((x) => ({ ...x, address: x.address.toBase58() }))).toEqual(want);
    expect(await errorOf('getTokenLargestAccounts', [NOBODY])).toEqual({ code: -32602, message: 'Invalid param: could not find mint' });
  });

  it("getTokenLargestAccounts on the simulator's busiest mint: the 20 largest of its token accounts at the head (kit)", async () => {
    // State at the finalized head: each account's newest write (slot, then write version).
    const state = new Map<string, { slot: bigint; wv: bigint; owner: string; lamports: bigint; data: Buffer }>();
    for (const r of records) {
      if (r.event.kind !== 'accounts') continue;
      const a = r.event.event;
      if (Number(a.slot) > FINALIZED) continue;
      const k = bs58.encode(a.pubkey);
      const s = state.get(k);
      if (s === undefined || a.slot > s.slot || (a.slot === s.slot && a.writeVersion > s.wv)) {
        state.set(k, { slot: a.slot, wv: a.writeVersion, owner: bs58.encode(a.owner), lamports: a.lamports, data: Buffer.from(a.data) });
      }
    }
    const byMint = new Map<string, { pubkey: string; amount: bigint }[]>();
    for (const [pubkey, s] of state) {
      if (s.owner !== TOKEN_PROGRAM || s.lamports === 0n || s.data.length !== 165 || s.data[108] === 0) continue;
      const mint = bs58.encode(s.data.subarray(0, 32));
      const list = byMint.get(mint) ?? [];
      list.push({ pubkey, amount: s.data.readBigUInt64LE(64) });
      byMint.set(mint, list);
    }
    const [mint, holders] = [...byMint.entries()].filter(([m]) => state.has(m)).sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(holders.length).toBeGreaterThan(3);
    const decimals = state.get(mint)!.data[44]!;
    const want = holders
      .sort((a, b) => (a.amount === b.amount ? Buffer.compare(bs58.decode(b.pubkey), bs58.decode(a.pubkey)) : a.amount > b.amount ? -1 : 1))
      .slice(0, 20)
      .map((h) => ({ address: h.pubkey, amount: h.amount.toString(), decimals }));
    const r = await kit.getTokenLargestAccounts(address(mint), { commitment: 'finalized' }).send();
    expect(r.value.map((x) => ({ address: x.address, amount: x.amount, decimals: x.decimals }))).toEqual(want);
  });

  it('getTokenAccountsByDelegate: the delegated accounts, by mint or by program, sorted by pubkey (kit)', async () => {
    const want = TOKEN_ACCOUNTS.filter((t) => t.delegate)
      .map((t) => t.pubkey)
      .sort((a, b) => Buffer.compare(bs58.decode(a), bs58.decode(b)));
    const byMint = await kit.getTokenAccountsByDelegate(address(DELEGATE), { mint: address(MINT) }, { encoding: 'base64' }).send();
    expect(byMint.value.map((x) => x.pubkey)).toEqual(want);
    expect(byMint.value[0]!.account.owner).toBe(TOKEN_PROGRAM);
    const byProgram = await kit
      .getTokenAccountsByDelegate(address(DELEGATE), { programId: address(TOKEN_PROGRAM) }, { encoding: 'jsonParsed' })
      .send();
    expect(byProgram.value.map((x) => x.pubkey)).toEqual(want);
    for (const x of byProgram.value) {
      const info = (x.account.data as any).parsed.info;
      expect(info.delegate).toBe(DELEGATE);
      expect(info.mint).toBe(MINT);
    }
    expect((await kit.getTokenAccountsByDelegate(address(NOBODY), { mint: address(MINT) }, { encoding: 'base64' }).send()).value).toEqual(
      [],
    );
  });

  it("getTokenAccountsByDelegate's errors are getTokenAccountsByOwner's", async () => {
    expect(await errorOf('getTokenAccountsByDelegate', [DELEGATE, { mint: NOBODY }])).toEqual({
      code: -32602,
      message: 'Invalid param: could not find mint',
    });
    expect(await errorOf('getTokenAccountsByDelegate', [DELEGATE, { programId: NOBODY }])).toEqual({
      code: -32602,
      message: 'Invalid param: unrecognized Token program id',
    });
    expect((await errorOf('getTokenAccountsByDelegate', [DELEGATE, {}])).code).toBe(-32602);
    expect((await errorOf('getTokenAccountsByDelegate', [DELEGATE])).code).toBe(-32602);
  });
});

describe('Agave read methods slotstream does not serve', () => {
  const LEFT_OUT = ['getVoteAccounts', 'getInflationGovernor', 'getInflationRate', 'getSupply', 'getLargestAccounts', 'getClusterNodes'];
  it.each(LEFT_OUT)('%s: -32601 with the reason', async (method) => {
    const e = await errorOf(method, []);
    expect(e.code).toBe(-32601);
    expect(e.message).toMatch(new RegExp(`^Method not found: slotstream does not serve ${method}: .{30,}`));
  });
  it('the methods Agave 2.0 removed name their replacement', async () => {
    expect((await errorOf('getRecentBlockhash')).message).toBe(
      'Method not found: slotstream does not serve getRecentBlockhash: Agave 2.0 removed it; use getLatestBlockhash',
    );
    await expect(kit.getSupply().send()).rejects.toThrow();
  });
});

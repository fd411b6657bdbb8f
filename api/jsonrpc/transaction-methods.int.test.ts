/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// getTransaction and getBlock on the real stack: the chain of test/support/jsonrpc/tx-chain.ts published to a
// real Kafka broker, the projector filling embedded ClickHouse (transaction_index, transaction_records,
// block_details), JSON-RPC answering the real clients, unmodified: @solana/web3.js 1.x `Connection`
// (getTransaction, getParsedTransaction, getBlock, getParsedBlock: its superstruct schemas validate every
// answer) and @solana/kit's `createSolanaRpc` (values asserted against the events the topics hold). The new
// views must equal the projections of the same events, also after `projector rebuild`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { Connection, VersionedTransaction } from '@solana/web3.js';
import { createSolanaRpc, signature as kitSignature } from '@solana/kit';
import { createClickHouse, type ClickHouseClient } from '../../platform/clickhouse.js';
import { makeConfig, type Config } from '../../cli/config.js';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { applyMigrations } from '../../platform/migrations.js';
import { TOKEN_PROGRAM } from '../../schemas/programs.js';
import { topicNames, type TopicNames } from '../../schemas/topics.js';
import { rebuildViews, startProjector, type Projector } from '../../projector/run.js';
import { publishChain } from '../../test/support/projector/kafka.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { projectInto } from '../../test/support/jsonrpc/chain.js';
import {
  DST_TOKEN,
  FEE,
  MEMO_TEXT,
  MINT,
  NO_PREVIOUS_HASH_SLOT,
  NO_TX_TIME_SLOT,
  ONLY_DEAD,
  OWNER,
  PAYER,
  RELANDED,
  REWARDS_SLOT,
  SRC_TOKEN,
  TRANSFER_LAMPORTS,
  TX_DEAD,
  TX_ERR,
  TX_FIRST,
  TX_HEADS,
  TX_LAST,
  TX_SKIPPED,
  blockTransactions,
  blockhashOf,
  buildTxChain,
  failed,
  servedTransactions,
  txBlockTime,
  txSig,
} from '../../test/support/jsonrpc/tx-chain.js';
import { JsonRpcServer } from './server.js';
import { projectorSection } from '../../cli/config-sections.js';

const DB = 'tx_pipeline';
const EXPECTED_DB = 'tx_pipeline_expected';
let dir: string;
let ch: ClickHouseClient;
let kafka: Kafka;
let topics: TopicNames;
let config: Config;
let projector: Projector | undefined;
let rpc: JsonRpcServer;
let url: string;
let conn: Connection;

const b58 = (b: Uint8Array): string => bs58.encode(b);
const rows = async (sql: string): Promise<string[]> => {
  const rs = await ch.query({ query: sql, format: 'TabSeparated' });
  return (await rs.text())
    .split('\n')
    .filter((l) => l !== '')
    .sort();
};
const newViews = async (db: string) => ({
  index: await rows(`SELECT signature, slot, position FROM ${db}.transaction_index FINAL`),
  bodies: await rows(`SELECT slot, position, signature, hex(record) FROM ${db}.transaction_records FINAL`),
  details: await rows(`SELECT slot, previous_blockhash, rewards, num_partitions FROM ${db}.block_details FINAL`),
});
const headsNow = () =>
  rows(`SELECT commitment, max(slot) FROM ${DB}.heads WHERE commitment IN ('processed', 'confirmed', 'finalized') GROUP BY commitment`);
const WANT_HEADS = [`confirmed\t${TX_HEADS.confirmed}`, `finalized\t${TX_HEADS.finalized}`, `processed\t${TX_HEADS.processed}`];
const call = async (method: string, params: unknown): Promise<any> => {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return r.json();
};
const sigText = (slot: number, i: number): string => b58(txSig(slot, i));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tx-pipeline-int-'));
  ch = await createClickHouse({ dataDir: dir, database: DB });
  for (const db of [DB, EXPECTED_DB]) {
    await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
    await applyMigrations(ch, db);
  }
  await projectInto(ch, EXPECTED_DB, buildTxChain(), TX_HEADS);
  const prefix = uniquePrefix('tx-pipeline');
  topics = topicNames(prefix);
  kafka = createKafka({ brokers: testBrokers(), clientId: 'tx-pipeline-int-test' });
  await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
  await publishChain(kafka, topics, buildTxChain());
  config = makeConfig('projector', {
    kafkaBrokers: testBrokers(),
    topicPrefix: prefix,
    partitions: 3,
    clickhouseDatabase: DB,
    groupId: 'g-tx-pipeline',
    batchRows: 200,
    batchMs: 50,
    logLevel: 'silent',
  });
  projector = await startProjector(projectorSection(config), silentLogger, { ch, kafka, topics });
  await waitFor(async () => JSON.stringify(await headsNow()) === JSON.stringify(WANT_HEADS), {
    what: 'heads of the projected chain',
    timeoutMs: 300_000,
    intervalMs: 200,
  });
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
    stateTtlMs: 0,
  });
  url = `http://127.0.0.1:${rpc.port}/`;
  conn = new Connection(url, { commitment: 'confirmed', disableRetryOnRateLimit: true });
});

afterAll(async () => {
  await rpc?.close();
  await projector?.stop();
  await kafka?.close();
  await ch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Pre minus post lamports summed over the accounts. */
const spent = (pre: readonly (number | bigint)[], post: readonly (number | bigint)[]): bigint =>
  pre.reduce<bigint>((s, v, i) => s + BigInt(v) - BigInt(post[i]!), 0n);

describe('the projector fills the transaction views from Kafka', () => {
  it('transaction_index, transaction_records and block_details equal the projections of the same events', async () => {
    const got = await newViews(DB);
    expect(got).toEqual(await newViews(EXPECTED_DB));
    expect(got.index.length).toBe(2 * (TX_LAST - TX_FIRST) + 1); // 2 per produced block (dead one included) + the re-landed one
    expect(got.details.length).toBe(TX_LAST - TX_FIRST);
  });
});

describe('getTransaction', () => {
  it('web3.js getTransaction: the legacy transfer with its meta as the event holds it; pre minus post = fee', async () => {
    const slot = TX_HEADS.finalized;
    const e = blockTransactions(slot)[0]!;
    const t = await conn.getTransaction(sigText(slot, 0), { commitment: 'finalized', maxSupportedTransactionVersion: 0 });
    expect(t!.slot).toBe(slot);
    expect(t!.blockTime).toBe(txBlockTime(slot));
    expect(t!.version).toBe('legacy');
    expect(t!.meta!.fee).toBe(Number(FEE));
    expect(t!.meta!.err).toBeNull();
    expect(t!.meta!.logMessages).toEqual(e.logMessages);
    expect(t!.meta!.preBalances).toEqual(e.preBalances.map(Number));
    expect(t!.meta!.postBalances).toEqual(e.postBalances.map(Number));
    expect(spent(t!.meta!.preBalances, t!.meta!.postBalances)).toBe(FEE);
    expect(t!.meta!.computeUnitsConsumed).toBe(150);
    const keys = t!.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    expect(keys).toEqual(e.accountKeys.map(b58));
    expect(t!.transaction.signatures).toEqual([sigText(slot, 0)]);
    expect(t!.transaction.message.recentBlockhash).toBe(b58(blockhashOf(slot - 1)));
    // Without maxSupportedTransactionVersion a legacy transaction has no `version` member (Agave).
    const legacy = await conn.getTransaction(sigText(slot, 0), { commitment: 'finalized' } as any);
    expect((legacy as any).version).toBeUndefined();
  });

  it('web3.js getTransaction: the v0 transaction with loaded addresses, token balances, inner instructions, return data', async () => {
    for (const slot of [TX_HEADS.finalized, TX_HEADS.confirmed]) {
      const e = blockTransactions(slot)[1]!;
      const t = await conn.getTransaction(sigText(slot, 1), { maxSupportedTransactionVersion: 0 });
      expect(t!.version).toBe(0);
      expect(t!.meta!.err).toEqual(failed(slot) ? JSON.parse(TX_ERR) : null);
      expect(spent(t!.meta!.preBalances, t!.meta!.postBalances)).toBe(e.fee);
      expect(t!.meta!.loadedAddresses!.writable.map((k) => k.toBase58())).toEqual([b58(DST_TOKEN)]);
      expect(t!.meta!.loadedAddresses!.readonly.map((k) => k.toBase58())).toEqual([b58(MINT)]);
      expect(t!.meta!.preTokenBalances![0]).toEqual({
        accountIndex: 1,
        mint: b58(MINT),
        owner: b58(OWNER),
        programId: TOKEN_PROGRAM,
        uiTokenAmount: { amount: '100000000', decimals: 6, uiAmount: 100, uiAmountString: '100' },
      });
      expect(t!.meta!.postTokenBalances![1]!.uiTokenAmount.amount).toBe(failed(slot) ? '0' : '2500000');
      expect(t!.meta!.innerInstructions).toEqual([
        { index: 0, instructions: [{ programIdIndex: 2, accounts: [0], data: b58(Buffer.from('inner')), stackHeight: 2 }] },
      ]);
      expect(t!.meta!.logMessages).toEqual(e.logMessages);
      expect((t!.meta as any).returnData ?? null).toEqual(failed(slot) ? null : { programId: TOKEN_PROGRAM, data: ['AQID', 'base64'] });
      expect(t!.meta!.computeUnitsConsumed).toBe(6200);
      expect(t!.transaction.message.addressTableLookups).toHaveLength(1);
    }
  });

  it('web3.js getParsedTransaction: parsed accounts and instructions (spl-token transferChecked, memo, system transfer)', async () => {
    const slot = TX_HEADS.finalized;
    const t = await conn.getParsedTransaction(sigText(slot, 1), { commitment: 'finalized', maxSupportedTransactionVersion: 0 });
    const keys = t!.transaction.message.accountKeys;
    expect(keys.map((k) => [k.pubkey.toBase58(), k.signer, k.writable, k.source])).toEqual([
      [b58(PAYER), true, true, 'transaction'],
      [b58(SRC_TOKEN), false, true, 'transaction'],
      ['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', false, false, 'transaction'],
      [TOKEN_PROGRAM, false, false, 'transaction'],
      [b58(DST_TOKEN), false, true, 'lookupTable'],
      [b58(MINT), false, false, 'lookupTable'],
    ]);
    const [transfer, memo] = t!.transaction.message.instructions as any[];
    expect(transfer).toEqual({
      program: 'spl-token',
      programId: expect.anything(),
      stackHeight: null,
      parsed: {
        type: 'transferChecked',
        info: {
          source: b58(SRC_TOKEN),
          mint: b58(MINT),
          destination: b58(DST_TOKEN),
          authority: b58(PAYER),
          tokenAmount: { amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' },
        },
      },
    });
    expect(transfer.programId.toBase58()).toBe(TOKEN_PROGRAM);
    expect(memo.parsed).toBe(MEMO_TEXT);
    expect((t!.meta!.innerInstructions![0]!.instructions[0] as any).parsed).toBe('inner');
    expect((t!.meta as any).loadedAddresses).toBeUndefined(); // jsonParsed lists them in accountKeys instead
    const system = await conn.getParsedTransaction(sigText(slot, 0), { commitment: 'finalized', maxSupportedTransactionVersion: 0 });
    expect((system!.transaction.message.instructions[0] as any).parsed).toEqual({
      type: 'transfer',
      info: { source: b58(PAYER), destination: expect.any(String), lamports: Number(TRANSFER_LAMPORTS) },
    });
  });

  it('kit getTransaction: json, base64 and base58 carry the same transaction; values as the events hold them', async () => {
    const served = servedTransactions();
    const rpc = createSolanaRpc(url);
    for (const [sig, e] of served) {
      if (BigInt(e.slot) > BigInt(TX_HEADS.confirmed)) continue;
      const t: any = await rpc
        .getTransaction(kitSignature(sig), { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'json' })
        .send();
      expect(t.slot).toBe(e.slot);
      expect(t.meta.fee).toBe(e.fee);
      expect(t.meta.preBalances).toEqual(e.preBalances);
      expect(t.meta.postBalances).toEqual(e.postBalances);
      expect(t.meta.logMessages).toEqual(e.logMessages);
      expect(t.transaction.signatures).toEqual([sig]);
      const b64: any = await rpc
        .getTransaction(kitSignature(sig), { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'base64' })
        .send();
      const b58t: any = await rpc
        .getTransaction(kitSignature(sig), { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'base58' })
        .send();
      expect(Buffer.from(bs58.decode(b58t.transaction[0])).toString('base64')).toBe(b64.transaction[0]);
      const wire = VersionedTransaction.deserialize(Buffer.from(b64.transaction[0], 'base64'));
      expect(wire.signatures.map((s) => b58(s))).toEqual([sig]);
      expect(wire.message.staticAccountKeys.map((k) => k.toBase58())).toEqual(e.accountKeys.map(b58));
      expect(wire.message.recentBlockhash).toBe(t.transaction.message.recentBlockhash);
      expect(b64.meta).toEqual(t.meta);
    }
  });

  it('commitment: finalized does not see a confirmed-only transaction, processed is refused; unknown and dead-fork signatures are null', async () => {
    const confirmedOnly = sigText(TX_HEADS.confirmed, 0);
    expect((await call('getTransaction', [confirmedOnly, { commitment: 'finalized' }])).result).toBeNull();
    expect((await call('getTransaction', [confirmedOnly, { commitment: 'confirmed' }])).result.slot).toBe(TX_HEADS.confirmed);
    expect((await call('getTransaction', [sigText(TX_HEADS.processed, 0), { commitment: 'confirmed' }])).result).toBeNull();
    // A transaction event without a block time: the block's.
    expect((await call('getTransaction', [sigText(NO_TX_TIME_SLOT, 0), { commitment: 'confirmed' }])).result.blockTime).toBe(
      txBlockTime(NO_TX_TIME_SLOT),
    );
    expect((await call('getTransaction', [confirmedOnly, { commitment: 'processed' }])).error).toEqual({
      code: -32602,
      message: 'Method does not support commitment below `confirmed`',
    });
    expect((await call('getTransaction', [b58(ONLY_DEAD)])).result).toBeNull();
    const relanded = await conn.getTransaction(b58(RELANDED.sig), { maxSupportedTransactionVersion: 0 });
    expect([relanded!.slot, relanded!.transaction.message.compiledInstructions.length]).toEqual([RELANDED.slot, 1]);
    expect((await call('getTransaction', [b58(Buffer.alloc(64, 7))])).result).toBeNull();
    expect(await conn.getTransaction(b58(Buffer.alloc(64, 7)), { maxSupportedTransactionVersion: 0 })).toBeNull();
  });

  it('maxSupportedTransactionVersion: a v0 transaction without it is -32015, as Agave words it', async () => {
    const answer = await call('getTransaction', [sigText(TX_HEADS.finalized, 1)]);
    expect(answer.error).toEqual({
      code: -32015,
      message:
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    });
    await expect(conn.getTransaction(sigText(TX_HEADS.finalized, 1), {} as any)).rejects.toThrow(/maxSupportedTransactionVersion/);
    expect((await call('getTransaction', [sigText(TX_HEADS.finalized, 1), 'base64'])).error.code).toBe(-32015); // the legacy string config
    expect(
      (await call('getTransaction', [sigText(TX_HEADS.finalized, 1), { encoding: 'base64', maxSupportedTransactionVersion: 0 }])).result
        .version,
    ).toBe(0);
    expect((await call('getTransaction', [sigText(TX_HEADS.finalized, 0), { encoding: 'xml' }])).error.code).toBe(-32602);
    expect((await call('getTransaction', ['not-a-signature'])).error.code).toBe(-32602);
  });
});

describe('getBlock', () => {
  it('web3.js getBlock: header, rewards, every transaction with its meta; pre minus post = fee', async () => {
    const slot = REWARDS_SLOT;
    const b = await conn.getBlock(slot, { maxSupportedTransactionVersion: 0, commitment: 'finalized' });
    expect(b!.blockhash).toBe(b58(blockhashOf(slot)));
    expect(b!.previousBlockhash).toBe(b58(blockhashOf(TX_DEAD - 1))); // the parent is below the dead block
    expect(b!.parentSlot).toBe(TX_DEAD - 1);
    expect(b!.blockTime).toBe(txBlockTime(slot));
    expect((b as any).blockHeight).toBe(1000 + slot);
    expect(b!.rewards!.map((r) => [r.rewardType, r.commission])).toEqual([
      ['Fee', null],
      ['Voting', 10],
    ]);
    const events = blockTransactions(slot);
    expect(b!.transactions.map((t) => t.transaction.signatures[0])).toEqual(events.map((e) => b58(e.signatures[0]!)));
    b!.transactions.forEach((t, i) => {
      expect(spent(t.meta!.preBalances, t.meta!.postBalances)).toBe(events[i]!.fee);
      expect(t.meta!.logMessages).toEqual(events[i]!.logMessages);
    });
  });

  it('web3.js getParsedBlock, and transactionDetails signatures / accounts / none, rewards false', async () => {
    const slot = TX_HEADS.finalized;
    const parsed: any = await conn.getParsedBlock(slot, { maxSupportedTransactionVersion: 0, commitment: 'finalized' });
    expect(parsed.transactions[1]!.transaction.message.instructions[0].parsed.type).toBe('transferChecked');
    // web3.js 1.x asks for transactionDetails "signatures" (rewards false) through getBlockSignatures.
    const sigs: any = await conn.getBlockSignatures(slot, 'finalized');
    expect(sigs!.signatures).toEqual([sigText(slot, 0), sigText(slot, 1)]);
    expect(sigs.rewards).toBeUndefined();
    const accounts: any = await conn.getBlock(slot, {
      transactionDetails: 'accounts',
      maxSupportedTransactionVersion: 0,
      commitment: 'finalized',
    });
    expect(accounts!.transactions[1]!.transaction.accountKeys.map((k: any) => k.pubkey.toBase58())).toEqual([
      b58(PAYER),
      b58(SRC_TOKEN),
      expect.any(String),
      TOKEN_PROGRAM,
      b58(DST_TOKEN),
      b58(MINT),
    ]);
    expect(accounts!.transactions[1]!.meta!.fee).toBe(Number(blockTransactions(slot)[1]!.fee));
    const none = await conn.getBlock(slot, { transactionDetails: 'none', commitment: 'finalized' });
    expect(none).toMatchObject({ blockhash: b58(blockhashOf(slot)), parentSlot: slot - 1 });
    expect((none as any).transactions).toBeUndefined();
    const noRewards = (await call('getBlock', [slot, { maxSupportedTransactionVersion: 0, rewards: false }])).result;
    expect(noRewards.rewards).toBeUndefined();
    expect(noRewards.transactions[0].meta.rewards).toBeNull(); // json: null; jsonParsed would leave it out
  });

  it("kit getBlock: base64 and base58 encodings, exact values; a missing previous blockhash is the parent's", async () => {
    const rpc = createSolanaRpc(url);
    const b: any = await rpc
      .getBlock(BigInt(TX_HEADS.confirmed), { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'base64' })
      .send();
    const events = blockTransactions(TX_HEADS.confirmed);
    expect(b.parentSlot).toBe(BigInt(TX_HEADS.confirmed - 1));
    expect(b.blockHeight).toBe(BigInt(1000 + TX_HEADS.confirmed));
    b.transactions.forEach((t: any, i: number) => {
      const wire = VersionedTransaction.deserialize(Buffer.from(t.transaction[0], 'base64'));
      expect(b58(wire.signatures[0]!)).toBe(b58(events[i]!.signatures[0]!));
      expect(t.meta.fee).toBe(events[i]!.fee);
    });
    const b58b: any = await rpc
      .getBlock(BigInt(TX_HEADS.confirmed), { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'base58' })
      .send();
    expect(b58b.transactions.map((t: any) => Buffer.from(bs58.decode(t.transaction[0])).toString('base64'))).toEqual(
      b.transactions.map((t: any) => t.transaction[0]),
    );
    const older: any = await rpc.getBlock(BigInt(NO_PREVIOUS_HASH_SLOT), { transactionDetails: 'none', rewards: false }).send();
    expect(older.previousBlockhash).toBe(b58(blockhashOf(NO_PREVIOUS_HASH_SLOT - 1)));
  });

  it("Agave's errors: skipped and dead slots -32007, cleaned up -32001, not yet available -32004, processed refused, v0 without a version -32015", async () => {
    expect((await call('getBlock', [TX_SKIPPED])).error).toEqual({
      code: -32007,
      message: `Slot ${TX_SKIPPED} was skipped, or missing due to ledger jump to recent snapshot`,
    });
    expect((await call('getBlock', [TX_DEAD])).error.code).toBe(-32007);
    expect((await call('getBlock', [TX_FIRST - 10])).error).toEqual({
      code: -32001,
      message: `Block ${TX_FIRST - 10} cleaned up, does not exist on node. First available block: ${TX_FIRST}`,
    });
    expect((await call('getBlock', [TX_HEADS.confirmed, { commitment: 'finalized' }])).error).toEqual({
      code: -32004,
      message: `Block not available for slot ${TX_HEADS.confirmed}`,
    });
    expect((await call('getBlock', [TX_HEADS.processed, { commitment: 'confirmed' }])).error.code).toBe(-32004);
    expect((await call('getBlock', [TX_HEADS.confirmed, { commitment: 'processed' }])).error).toEqual({
      code: -32602,
      message: 'Method does not support commitment below `confirmed`',
    });
    expect((await call('getBlock', [TX_HEADS.finalized])).error.code).toBe(-32015);
    expect((await call('getBlock', [TX_HEADS.finalized, { transactionDetails: 'signatures' }])).result.signatures).toHaveLength(2);
    expect((await call('getBlock', [TX_HEADS.finalized, { transactionDetails: 'some' }])).error.code).toBe(-32602);
    await expect(conn.getBlock(TX_SKIPPED, { maxSupportedTransactionVersion: 0 })).rejects.toThrow(/was skipped/);
  });
});

describe('projector rebuild', () => {
  it('rebuilds the transaction views: damaged views come back equal to the projections, and answers return', async () => {
    await projector!.stop();
    projector = undefined;
    for (const t of ['transaction_index', 'transaction_records', 'block_details']) await ch.command({ query: `TRUNCATE TABLE ${DB}.${t}` });
    expect((await call('getTransaction', [sigText(TX_HEADS.finalized, 0)])).result).toBeNull();
    // A block row without its details (as stored before the transaction views existed): not available, not empty.
    expect((await call('getBlock', [TX_HEADS.finalized, { maxSupportedTransactionVersion: 0 }])).error).toEqual({
      code: -32004,
      message: `Block not available for slot ${TX_HEADS.finalized}`,
    });
    await rebuildViews(projectorSection(config), silentLogger, { ch, kafka, topics });
    expect(await newViews(DB)).toEqual(await newViews(EXPECTED_DB));
    const t = (await call('getTransaction', [sigText(TX_HEADS.finalized, 0)])).result;
    expect(t.meta.fee).toBe(Number(FEE));
    expect((await call('getBlock', [TX_HEADS.finalized, { maxSupportedTransactionVersion: 0 }])).result.transactions).toHaveLength(2);
  });
});

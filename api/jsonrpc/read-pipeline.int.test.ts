// The read methods on the real stack: the chain of test/support/jsonrpc/chain.ts published to a real Kafka broker, the
// projector filling embedded ClickHouse (the new lookup views included), JSON-RPC answering real clients
// from what it wrote. The lookup views must equal what the projections give for the same events, also
// after `projector rebuild` replays the history into fresh tables.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, PublicKey } from '@solana/web3.js';
import { address, createSolanaRpc } from '@solana/kit';
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
import { ACC, HEADS, WALLET, buildChain, projectInto } from '../../test/support/jsonrpc/chain.js';
import { JsonRpcServer } from './server.js';
import { projectorSection } from '../../cli/config-sections.js';

const DB = 'read_pipeline';
const EXPECTED_DB = 'read_pipeline_expected';
let dir: string;
let ch: ClickHouseClient;
let kafka: Kafka;
let topics: TopicNames;
let config: Config;
let projector: Projector | undefined;
let rpc: JsonRpcServer;

const rows = async (sql: string): Promise<string[]> => {
  const rs = await ch.query({ query: sql, format: 'TabSeparated' });
  return (await rs.text())
    .split('\n')
    .filter((l) => l !== '')
    .sort();
};
const lookupViews = async (db: string) => ({
  tokens: await rows(`SELECT owner, program, mint, pubkey FROM ${db}.token_accounts_by_owner FINAL`),
  blockhashes: await rows(`SELECT blockhash, slot, block_height FROM ${db}.blockhashes FINAL`),
});
const headsNow = () =>
  rows(`SELECT commitment, max(slot) FROM ${DB}.heads WHERE commitment IN ('processed', 'confirmed', 'finalized') GROUP BY commitment`);
const WANT_HEADS = [`confirmed\t${HEADS.confirmed}`, `finalized\t${HEADS.finalized}`, `processed\t${HEADS.processed}`];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'read-pipeline-int-'));
  ch = await createClickHouse({ dataDir: dir, database: DB });
  for (const db of [DB, EXPECTED_DB]) {
    await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
    await applyMigrations(ch, db);
  }
  await projectInto(ch, EXPECTED_DB, buildChain());
  const prefix = uniquePrefix('read-pipeline');
  topics = topicNames(prefix);
  kafka = createKafka({ brokers: testBrokers(), clientId: 'read-pipeline-int-test' });
  await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
  await publishChain(kafka, topics, buildChain());
  config = makeConfig('projector', {
    kafkaBrokers: testBrokers(),
    topicPrefix: prefix,
    partitions: 3,
    clickhouseDatabase: DB,
    groupId: 'g-read-pipeline',
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
});

afterAll(async () => {
  await rpc?.close();
  await projector?.stop();
  await kafka?.close();
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the projector fills the lookup views from Kafka', () => {
  it('token_accounts_by_owner and blockhashes equal the projections of the same events', async () => {
    const got = await lookupViews(DB);
    expect(got).toEqual(await lookupViews(EXPECTED_DB));
    expect(got.tokens.length).toBeGreaterThan(5);
    expect(got.blockhashes.length).toBeGreaterThan(30);
  });
  it('web3.js and kit answer from them', async () => {
    const url = `http://127.0.0.1:${rpc.port}/`;
    const conn = new Connection(url, { commitment: 'processed', disableRetryOnRateLimit: true });
    const accounts = await conn.getTokenAccountsByOwner(new PublicKey(WALLET), { programId: new PublicKey(TOKEN_PROGRAM) });
    expect(accounts.value.map((a) => a.pubkey.toBase58()).sort()).toEqual([ACC.ta1, ACC.ta4, ACC.ta5, ACC.ta6].sort());
    const { blockhash } = await conn.getLatestBlockhash();
    expect((await conn.isBlockhashValid(blockhash)).value).toBe(true);
    const balance = await createSolanaRpc(url).getBalance(address(WALLET), { commitment: 'finalized' }).send();
    expect(balance.value).toBe(5_000_000_000n);
  });
});

describe('projector rebuild', () => {
  it('rebuilds the lookup views too: a damaged view comes back equal to the projections', async () => {
    await projector!.stop();
    projector = undefined;
    await ch.command({ query: `TRUNCATE TABLE ${DB}.token_accounts_by_owner` });
    await ch.command({ query: `TRUNCATE TABLE ${DB}.blockhashes` });
    await rebuildViews(projectorSection(config), silentLogger, { ch, kafka, topics });
    expect(await lookupViews(DB)).toEqual(await lookupViews(EXPECTED_DB));
  });
});

// The node version JSON-RPC answers (issue 32, item 6), end to end: `--source rpc` asks its node's getVersion (a local
// JSON-RPC test server answering Agave's RpcVersionInfo), the ingest puts it on every slot's end marker in the real
// broker, the api's live tail reads it, and getVersion (through @solana/web3.js and @solana/kit) answers the node's
// `solana-core` and `feature-set` with slotstream's own version under `slotstream`; every context's apiVersion is that
// same solana-core. Before any slot says, the documented default answers (no feature-set).
import { readFileSync } from 'node:fs';
import { Connection, PublicKey } from '@solana/web3.js';
import { createSolanaRpc } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKafka } from '../cli/infrastructure.js';
import { startIngest } from '../ingest/run.js';
import { makeConfig } from '../cli/config.js';
import { ingestSection } from '../cli/config-sections.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import { SlotEvent } from '../schemas/codec.js';
import { topicNames } from '../schemas/topics.js';
import { LiveLayer } from '../api/live/index.js';
import { DEFAULT_SOLANA_CORE } from '../api/jsonrpc/node-version.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { openTestStore, setHeads, type TestStore } from './support/jsonrpc/store.js';
import { serve, type Served } from './support/jsonrpc/world.js';
import { readTopics } from './support/kafka/read-topics.js';
import { startTestRpcServer, type TestRpcServer } from './support/rpc/test-server.js';

const NODE = { 'solana-core': '4.2.3', 'feature-set': 3_294_202_862 };
const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const TO = 20;

describe('getVersion follows the upstream node', () => {
  const prefix = uniquePrefix('upstream-version');
  const topics = topicNames(prefix);
  let kafka: Kafka;
  let node: TestRpcServer;
  let live: LiveLayer;
  let store: TestStore;
  let s: Served;
  let conn: Connection;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'upstream-version-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
    // A node whose slots are all skipped: every slot still gets an end marker (its SKIPPED record).
    node = await startTestRpcServer({
      slots: new Map(),
      slotsPerEpoch: 32,
      identities: [Buffer.alloc(32, 1)],
      tip: { confirmed: TO, finalized: TO },
      version: NODE,
    });
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 10_000, log: silentLogger });
    store = await openTestStore();
    const db = await store.database('upstream_version');
    await setHeads(store.ch, db, { processed: TO, confirmed: TO, finalized: TO });
    s = await serve(store.ch, db, { upstreamVersion: () => live.upstreamVersion() });
    conn = new Connection(s.url, { commitment: 'finalized', disableRetryOnRateLimit: true });
  });

  afterAll(async () => {
    await s?.server.close();
    await store?.close();
    await live?.close();
    await node?.close();
    await kafka?.close();
  });

  it('before any slot names its node: the documented Agave version, no feature-set, slotstream under its own key', async () => {
    expect(await conn.getVersion()).toEqual({ 'solana-core': DEFAULT_SOLANA_CORE, slotstream: PACKAGE_VERSION });
    const balance = (await s.call('getBalance', [new PublicKey(Buffer.alloc(32, 9)).toBase58()])).body.result;
    expect(balance.context.apiVersion).toBe(DEFAULT_SOLANA_CORE);
  });

  it("after the rpc source ingested the node's slots: its solana-core and feature-set, in getVersion and every context", async () => {
    const cfg = makeConfig('ingest', {
      source: 'rpc',
      rpcUrl: node.url,
      fromSlot: 2,
      toSlot: TO,
      rpcTimeoutMs: 1000,
      rpcPollMs: 50,
      kafkaBrokers: testBrokers(),
      topicPrefix: prefix,
      partitions: 3,
      retentionMs: 3_600_000,
    });
    const infra = await connectKafka(cfg, silentLogger);
    try {
      await (
        await startIngest(ingestSection(cfg), silentLogger, infra)
      ).done;
    } finally {
      await infra.kafka.close();
    }
    expect(node.requests.some((r) => r.method === 'getVersion')).toBe(true);
    // Every end marker in the topic carries the node's version.
    const slots = (await readTopics(kafka, [topics.slots])).get(topics.slots)!.flat();
    const markers = slots.map((r) => SlotEvent.decode(r.value)).filter((e) => e.end !== undefined);
    expect(markers.length).toBeGreaterThanOrEqual(TO - 2);
    for (const m of markers)
      expect(m.upstream, `slot ${m.slot}`).toEqual({ solanaCore: NODE['solana-core'], featureSet: NODE['feature-set'] });

    await waitFor(async () => (await conn.getVersion())['solana-core'] === NODE['solana-core'], {
      what: "getVersion naming the node's version",
    });
    expect(await conn.getVersion()).toEqual({ ...NODE, slotstream: PACKAGE_VERSION });
    const kit = await createSolanaRpc(s.url).getVersion().send();
    expect([kit['solana-core'], Number(kit['feature-set'])]).toEqual([NODE['solana-core'], NODE['feature-set']]);
    const balance = (await s.call('getBalance', [new PublicKey(Buffer.alloc(32, 9)).toBase58()])).body.result;
    expect(balance.context.apiVersion).toBe(NODE['solana-core']);
    const withContext = await conn.getBalanceAndContext(new PublicKey(Buffer.alloc(32, 9)));
    expect(withContext.value).toBe(0);
  });
});

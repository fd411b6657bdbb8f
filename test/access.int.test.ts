// API keys (issue 36) on every interface at once, one keys file, the real clients: geyser.Geyser through
// @triton-one/yellowstone-grpc (x-token), stream.Stream through grpc-js (authorization: Bearer), JSON-RPC through
// @solana/web3.js (Authorization header) and @solana/kit (?api-key= in the URL), PubSub through web3.js, kit and a
// bare WebSocket (?api-key=). For each: a missing, a wrong, a forbidden, an over-limit and a revoked key (the file
// rewritten while streams are open: the revoked key's streams end, the others carry on); the outbound bytes limit
// ends a stream on all three streaming interfaces. Then the usage records add up to what the clients received, on
// every interface: updates, and bytes counted by each client (gRPC clients that count every message's bytes,
// test/support/grpc/byte-counting.ts; web3.js with a counting fetch; the WebSocket's frames). The real broker and
// live layer; JSON-RPC on real embedded ClickHouse.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { Connection, PublicKey } from '@solana/web3.js';
import { address, createSolanaRpc, createSolanaRpcSubscriptions } from '@solana/kit';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessControl, KeyLimits, UsageRecord } from '../api/access/index.js';
import { DEFAULT_GEYSER_LIMITS } from '../api/filters/from-geyser.js';
import { DEFAULT_FILTER_LIMITS } from '../api/filters/index.js';
import { geyserService } from '../api/grpc/geyser/service.js';
import { startGrpc, type GrpcServer } from '../api/grpc/server.js';
import { streamService } from '../api/grpc/stream/service.js';
import { JsonRpcServer } from '../api/jsonrpc/server.js';
import { LiveLayer } from '../api/live/index.js';
import { startPubSub, type PubSubServer } from '../api/pubsub/server.js';
import { openAccess } from '../cli/wire-access.js';
import { StopList } from '../cli/stop-list.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import { registry } from '../platform/metrics.js';
import { topicNames } from '../schemas/topics.js';
import { connectGeyser, errorText, geyserRequest, GeyserRecorder, type GeyserClient } from './support/geyser/client.js';
import { byteCountingGeyser, byteCountingStream } from './support/grpc/byte-counting.js';
import { newClient, subscribe, type Msg } from './support/grpc/clients.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { openTestStore, type TestStore } from './support/jsonrpc/store.js';
import { key, PubSubChain, txEvent } from './support/pubsub/chain.js';
import { RawClient } from './support/pubsub/raw-client.js';

type KeySpec = { id: string; key: string; interfaces?: string[]; limits?: KeyLimits };
const KEYS: Record<string, KeySpec> = {
  full: { id: 'full', key: 'key-full-0001', limits: { streams: 1, connections: 1 } },
  rpcOnly: { id: 'rpc-only', key: 'key-rpc-0002', interfaces: ['jsonrpc'] },
  streamsOnly: { id: 'streams-only', key: 'key-streams-0003', interfaces: ['stream', 'geyser', 'pubsub'] },
  narrow: { id: 'narrow', key: 'key-narrow-0004', limits: { filtersPerStream: 2, keysPerStream: 3, replaySlots: 10 } },
  slow: { id: 'slow', key: 'key-slow-0005', interfaces: ['jsonrpc'], limits: { rpcPerSecond: 1, rpcBurst: 2 } },
  doomed: { id: 'doomed', key: 'key-doomed-0006' },
  meter: { id: 'meter', key: 'key-meter-0007' },
  thin: { id: 'thin', key: 'key-thin-0008', limits: { streamBytesPerSecond: 100 } },
  thinGeyser: { id: 'thin-geyser', key: 'key-thin-geyser-0011', limits: { streamBytesPerSecond: 100 } },
  thinWs: { id: 'thin-ws', key: 'key-thin-ws-0012', limits: { streamBytesPerSecond: 100 } },
  narrowWs: { id: 'narrow-ws', key: 'key-narrow-ws-0013', limits: { filtersPerStream: 1 } },
  keeper: { id: 'keeper', key: 'key-keeper-0010' },
};
const sha = (k: string): string => createHash('sha256').update(k).digest('hex');
const keysFile = (specs: KeySpec[]): string =>
  JSON.stringify({
    keys: specs.map((s) => ({
      id: s.id,
      sha256: sha(s.key),
      ...(s.interfaces ? { interfaces: s.interfaces } : {}),
      limits: s.limits ?? {},
    })),
  });

const md = (entries: Record<string, string>): grpc.Metadata => {
  const m = new grpc.Metadata();
  for (const [k, v] of Object.entries(entries)) m.add(k, v);
  return m;
};

/** A refused Yellowstone Subscribe: the refusal may come from subscribe() or as the stream's first event. */
async function geyserRefusal(client: GeyserClient): Promise<string> {
  let r: GeyserRecorder;
  try {
    r = await GeyserRecorder.open(client);
  } catch (err) {
    return errorText(err);
  }
  r.write(geyserRequest({ slots: { s: {} } }));
  await waitFor(() => r.error, { what: 'the stream refused' });
  return errorText(r.error);
}

describe('API keys on every interface', () => {
  const topics = topicNames(uniquePrefix('access'));
  const dir = mkdtempSync(join(tmpdir(), 'slotstream-access-'));
  const keysPath = join(dir, 'keys.json');
  const usagePath = join(dir, 'usage.jsonl');
  const stops = new StopList(silentLogger);
  let kafka: Kafka;
  let live: LiveLayer;
  let chain: PubSubChain;
  let store: TestStore;
  let access: AccessControl;
  let grpcServer: GrpcServer;
  let rpc: JsonRpcServer;
  let pubsub: PubSubServer;
  let rpcUrl: string;
  let wsUrl: string;
  let slot = 5000n;

  beforeAll(async () => {
    writeFileSync(keysPath, keysFile(Object.values(KEYS)));
    kafka = createKafka({ brokers: testBrokers(), clientId: 'access-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    store = await openTestStore();
    const database = await store.database('access');
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 600_000, log: silentLogger });
    // The role wiring's own function: keys file, its watcher and SIGHUP, usage metrics and records.
    access = openAccess({ keysFile: keysPath, usage: { path: usagePath, intervalMs: 200 } }, stops, silentLogger);
    const log = silentLogger;
    grpcServer = await startGrpc({
      services: [
        streamService({ live, limits: DEFAULT_FILTER_LIMITS, queueSize: 10_000, log }),
        geyserService({ live, limits: DEFAULT_GEYSER_LIMITS, queueSize: 10_000, log }),
      ],
      host: '127.0.0.1',
      port: 0,
      access,
      log,
    });
    rpc = await JsonRpcServer.open({
      ch: store.ch,
      database,
      host: '127.0.0.1',
      port: 0,
      access,
      maxBodyBytes: 50_000,
      maxBatch: 100,
      maxSlotLag: 150,
      chainTip: () => live.chainTip(),
      log,
    });
    pubsub = await startPubSub({
      live,
      host: '127.0.0.1',
      port: 0,
      access,
      maxConnections: 100,
      maxSubscriptionsPerConnection: 100,
      maxMessageBytes: 65536,
      maxBufferedBytes: 1 << 24,
      pingIntervalMs: 600_000,
      log,
    });
    rpcUrl = `http://127.0.0.1:${rpc.port}/`;
    wsUrl = `ws://127.0.0.1:${pubsub.port}/`;
    chain = await PubSubChain.start(kafka, topics);
    // A tip for from_slot's reach.
    await chain.slot(++slot);
    await waitFor(() => live.chainTip() === slot, { what: 'the live tail at the first slot' });
  });

  afterAll(async () => {
    await grpcServer?.close();
    await rpc?.close();
    await pubsub?.close();
    await stops.stopAll();
    await live?.close();
    await chain?.stop();
    await kafka?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const geyser = (k?: string): Promise<GeyserClient> => connectGeyser(grpcServer.port, k);

  describe('geyser.Geyser (Yellowstone client, x-token)', () => {
    it('refuses a missing or wrong key with UNAUTHENTICATED, a key without geyser with PERMISSION_DENIED', async () => {
      expect(await (await geyser()).getSlot(0).then(() => 'ok', errorText)).toMatch(
        /authentication credentials.*missing or invalid x-token/,
      );
      expect(await (await geyser('nope')).getSlot(0).then(() => 'ok', errorText)).toMatch(/missing or invalid x-token/);
      expect(await geyserRefusal(await geyser())).toMatch(/missing or invalid x-token/);
      expect(await (await geyser(KEYS.rpcOnly!.key)).getSlot(0).then(() => 'ok', errorText)).toMatch(
        /does not have permission.*API key rpc-only may not use geyser/,
      );
      expect(await (await geyser(KEYS.streamsOnly!.key)).getSlot(0).then(() => 'ok', errorText)).toBe('ok');
    });

    it("refuses a stream over the key's open streams with RESOURCE_EXHAUSTED naming the limit", async () => {
      const client = await geyser(KEYS.full!.key);
      const first = subscribe(newClient(grpcServer.port), md({ 'x-token': KEYS.full!.key }));
      first.send({ transactions: { a: { account_include: [bs58.encode(key())] } } });
      const full = [...access.all()].find((t) => t.id === 'full')!;
      await waitFor(() => full.open.stream === 1, { what: 'the first stream open' });
      expect(await geyserRefusal(client)).toMatch(/exhausted.*API key full: at most 1 gRPC streams open at once \(limit streams\)/);
      // stream.Stream counts against the same limit.
      const r = subscribe(newClient(grpcServer.port), md({ 'x-token': KEYS.full!.key }));
      await waitFor(() => r.error, { what: 'stream.Stream refused' });
      expect([r.error!.code, r.error!.details]).toEqual([
        grpc.status.RESOURCE_EXHAUSTED,
        'API key full: at most 1 gRPC streams open at once (limit streams)',
      ]);
      first.cancel();
      await waitFor(() => full.open.geyser + full.open.stream === 0, { what: 'the stream released' });
      const again = await GeyserRecorder.open(client);
      await again.request(geyserRequest({ slots: { s: {} } }));
      expect(again.error).toBeUndefined();
      again.close();
    });
  });

  it("ends a Yellowstone stream past the key's outbound bytes per second with RESOURCE_EXHAUSTED", async () => {
    const k = key();
    const g = await GeyserRecorder.open(await geyser(KEYS.thinGeyser!.key));
    g.write(geyserRequest({ transactions: { t: { accountInclude: [bs58.encode(k)], accountExclude: [], accountRequired: [] } } }));
    await waitFor(
      async () => {
        await chain.slot(++slot, { txs: [txEvent(slot, [k, key()]), txEvent(slot, [k, key()], { index: 1 })] });
        return g.error;
      },
      { what: 'the thin-geyser key cut off' },
    );
    expect(errorText(g.error)).toMatch(/exhausted.*API key thin-geyser: streams over 100 bytes per second \(limit streamBytesPerSecond\)/);
    g.close();
  });

  describe('stream.Stream (grpc-js, authorization: Bearer)', () => {
    const refusal = async (metadata: grpc.Metadata, req?: object): Promise<[number, string]> => {
      const r = subscribe(newClient(grpcServer.port), metadata);
      if (req) r.send(req);
      await waitFor(() => r.error, { what: 'the stream refused' });
      return [r.error!.code, r.error!.details];
    };

    it("refuses a missing or wrong key, and a request over the key's filters, keys or replay reach, naming the limit", async () => {
      expect(await refusal(md({}))).toEqual([grpc.status.UNAUTHENTICATED, 'missing or invalid x-token']);
      expect(await refusal(md({ authorization: 'Bearer wrong' }))).toEqual([grpc.status.UNAUTHENTICATED, 'missing or invalid x-token']);
      expect(await refusal(md({ authorization: `Bearer ${KEYS.rpcOnly!.key}` }))).toEqual([
        grpc.status.PERMISSION_DENIED,
        'API key rpc-only may not use stream',
      ]);
      const bearer = md({ authorization: `Bearer ${KEYS.narrow!.key}` });
      const tx = (n: number) => ({ account_include: Array.from({ length: n }, () => bs58.encode(key())) });
      expect(await refusal(bearer, { transactions: { a: {}, b: {}, c: {} } })).toEqual([
        grpc.status.RESOURCE_EXHAUSTED,
        'API key narrow: 3 filters in one stream, at most 2 (limit filtersPerStream)',
      ]);
      expect(await refusal(bearer, { transactions: { a: tx(4) } })).toEqual([
        grpc.status.RESOURCE_EXHAUSTED,
        'API key narrow: 4 account keys in one stream, at most 3 (limit keysPerStream)',
      ]);
      const tip = live.chainTip()!;
      expect(await refusal(bearer, { transactions: { a: tx(1) }, from_slot: String(tip - 50n) })).toEqual([
        grpc.status.PERMISSION_DENIED,
        `API key narrow: from_slot ${tip - 50n} is 50 slots behind the newest slot ${tip}; this key may reach back at most 10 (limit replaySlots)`,
      ]);
      // Within its limits the same key streams.
      const k = key();
      const ok = subscribe(newClient(grpcServer.port), bearer);
      ok.send({ transactions: { a: { account_include: [bs58.encode(k)] } } });
      await waitFor(
        async () => {
          await chain.slot(++slot, { txs: [txEvent(slot, [k, key()])] });
          return ok.of('transaction').length > 0;
        },
        { what: 'a transaction on the narrow key' },
      );
      expect(ok.error).toBeUndefined();
      ok.cancel();
    });

    it("ends a stream past the key's outbound bytes per second with RESOURCE_EXHAUSTED", async () => {
      const k = key();
      const r = subscribe(newClient(grpcServer.port), md({ 'x-token': KEYS.thin!.key }));
      r.send({ transactions: { a: { account_include: [bs58.encode(k)] } } });
      await waitFor(
        async () => {
          await chain.slot(++slot, { txs: [txEvent(slot, [k, key()]), txEvent(slot, [k, key()], { index: 1 })] });
          return r.error;
        },
        { what: 'the thin key cut off' },
      );
      expect([r.error!.code, r.error!.details]).toEqual([
        grpc.status.RESOURCE_EXHAUSTED,
        'API key thin: streams over 100 bytes per second (limit streamBytesPerSecond)',
      ]);
    });
  });

  describe('JSON-RPC (@solana/web3.js with a header, @solana/kit with ?api-key=)', () => {
    const web3 = (headers?: Record<string, string>) => new Connection(rpcUrl, { httpHeaders: headers, disableRetryOnRateLimit: true });
    const kit = (k?: string) => createSolanaRpc(k === undefined ? rpcUrl : `${rpcUrl}?api-key=${encodeURIComponent(k)}`);

    it('answers 401 without or with a wrong key, 403 for a key without jsonrpc, and serves keys that may', async () => {
      await expect(web3().getVersion()).rejects.toThrow(/401.*missing API key/);
      await expect(web3({ Authorization: 'Bearer nope' }).getVersion()).rejects.toThrow(/401.*invalid API key/);
      await expect(kit('nope').getVersion().send()).rejects.toThrow(/401/);
      await expect(web3({ Authorization: `Bearer ${KEYS.streamsOnly!.key}` }).getVersion()).rejects.toThrow(
        /403.*API key streams-only may not use jsonrpc/,
      );
      expect((await web3({ Authorization: `Bearer ${KEYS.rpcOnly!.key}` }).getVersion())['solana-core']).toBeTypeOf('string');
      expect((await kit(KEYS.rpcOnly!.key).getVersion().send())['solana-core']).toBeTypeOf('string');
      const raw = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"getVersion"}',
      });
      expect([raw.status, raw.headers.get('www-authenticate'), ((await raw.json()) as { error: { code: number } }).error.code]).toEqual([
        401,
        'Bearer',
        -32401,
      ]);
    });

    it("answers 429 with Retry-After past the key's requests per second", async () => {
      const post = () =>
        fetch(`${rpcUrl}?api-key=${KEYS.slow!.key}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","id":1,"method":"getVersion"}',
        });
      // 5 at once against a bucket of 2 refilled at 1 a second: some must be refused, whatever the machine's pace.
      const answers = await Promise.all([post(), post(), post(), post(), post()]);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await refused[0]!.json()) as { error: unknown }).error).toEqual({
        code: -32429,
        message: 'API key slow: over 1 JSON-RPC requests per second (limit rpcPerSecond)',
      });
      await expect(new Connection(`${rpcUrl}?api-key=${KEYS.slow!.key}`, { disableRetryOnRateLimit: true }).getVersion()).rejects.toThrow(
        /429/,
      );
    });
  });

  describe('PubSub (web3.js and kit with ?api-key=, a bare WebSocket)', () => {
    it('refuses the upgrade with 401, 403 and 429, naming the limit; web3.js and kit subscribe with a key in the URL', async () => {
      await expect(RawClient.connect(wsUrl)).rejects.toThrow('HTTP 401');
      await expect(RawClient.connect(`${wsUrl}?api-key=nope`)).rejects.toThrow('HTTP 401');
      await expect(RawClient.connect(`${wsUrl}?api-key=${KEYS.rpcOnly!.key}`)).rejects.toThrow('HTTP 403');
      const one = await RawClient.connect(`${wsUrl}?api-key=${KEYS.full!.key}`);
      await expect(RawClient.connect(wsUrl, { authorization: `Bearer ${KEYS.full!.key}` })).rejects.toThrow('HTTP 429');
      one.close();

      const k = key();
      const conn = new Connection(`http://127.0.0.1:1/`, { wsEndpoint: `${wsUrl}?api-key=${KEYS.streamsOnly!.key}` });
      const logs: string[] = [];
      const id = conn.onLogs(new PublicKey(k), (l) => logs.push(l.signature), 'processed');
      const abort = new AbortController();
      const kitLogs: string[] = [];
      const subs = createSolanaRpcSubscriptions(`${wsUrl}?api-key=${KEYS.streamsOnly!.key}`);
      const notifications = await subs
        .logsNotifications({ mentions: [address(bs58.encode(k))] }, { commitment: 'processed' })
        .subscribe({ abortSignal: abort.signal });
      void (async () => {
        try {
          for await (const n of notifications) kitLogs.push(n.value.signature);
        } catch {
          // aborted
        }
      })();
      await waitFor(
        async () => {
          await chain.slot(++slot, { txs: [txEvent(slot, [k, key()])] });
          return logs.length > 0 && kitLogs.length > 0;
        },
        { what: 'web3.js and kit notifications' },
      );
      await conn.removeOnLogsListener(id);
      abort.abort();
    });
  });

  it("answers a PubSub subscription past the key's filtersPerStream with -32429 naming the limit; the connection stays", async () => {
    const p = await RawClient.connect(`${wsUrl}?api-key=${KEYS.narrowWs!.key}`);
    p.call(1, 'slotSubscribe', []);
    p.call(2, 'logsSubscribe', [{ mentions: [bs58.encode(key())] }, { commitment: 'processed' }]);
    await waitFor(() => p.answers.get(1) && p.answers.get(2), { what: 'both answers' });
    expect(p.answers.get(1)).toHaveProperty('result');
    expect(p.answers.get(2)).toMatchObject({
      error: { code: -32429, message: 'API key narrow-ws: at most 1 subscriptions on one connection (limit filtersPerStream)' },
    });
    expect(p.closed).toBeUndefined();
    p.close();
  });

  it("closes a PubSub connection past the key's outbound bytes per second with 1008 naming the limit", async () => {
    const k = key();
    const p = await RawClient.connect(`${wsUrl}?api-key=${KEYS.thinWs!.key}`);
    p.call(1, 'logsSubscribe', [{ mentions: [bs58.encode(k)] }, { commitment: 'processed' }]);
    await waitFor(() => p.answers.get(1), { what: 'the logs subscription' });
    await waitFor(
      async () => {
        await chain.slot(++slot, { txs: [txEvent(slot, [k, key()]), txEvent(slot, [k, key()], { index: 1 })] });
        return p.closed;
      },
      { what: 'the thin-ws connection closed' },
    );
    expect(p.notifications.length).toBeGreaterThan(0); // served until over, then closed
    expect(p.closed).toEqual({ code: 1008, reason: 'API key thin-ws: streams over 100 bytes per second (limit streamBytesPerSecond)' });
  });

  it('a revoked key (the file rewritten) ends its streams on every interface and is refused; other streams carry on', async () => {
    const k = key();
    const doomed = KEYS.doomed!.key;
    const g = await GeyserRecorder.open(await geyser(doomed));
    await g.request(geyserRequest({ transactions: { t: { accountInclude: [bs58.encode(k)], accountExclude: [], accountRequired: [] } } }));
    const s = subscribe(newClient(grpcServer.port), md({ authorization: `Bearer ${doomed}` }));
    s.send({ transactions: { t: { account_include: [bs58.encode(k)] } } });
    const p = await RawClient.connect(`${wsUrl}?api-key=${doomed}`);
    p.call(1, 'logsSubscribe', [{ mentions: [bs58.encode(k)] }, { commitment: 'processed' }]);
    // A kept key's streams on the three streaming interfaces, open across the reload (which also changes its limits).
    const kept = await GeyserRecorder.open(await geyser(KEYS.keeper!.key));
    await kept.request(
      geyserRequest({ transactions: { t: { accountInclude: [bs58.encode(k)], accountExclude: [], accountRequired: [] } } }),
    );
    const keptStream = subscribe(newClient(grpcServer.port), md({ authorization: `Bearer ${KEYS.keeper!.key}` }));
    keptStream.send({ transactions: { t: { account_include: [bs58.encode(k)] } } });
    const keptWs = await RawClient.connect(`${wsUrl}?api-key=${KEYS.keeper!.key}`);
    keptWs.call(1, 'logsSubscribe', [{ mentions: [bs58.encode(k)] }, { commitment: 'processed' }]);
    const keptCounts = (): number[] => [kept.of('transaction').length, keptStream.of('transaction').length, keptWs.notifications.length];
    await waitFor(
      async () => {
        await chain.slot(++slot, { txs: [txEvent(slot, [k, key()])] });
        return (
          g.of('transaction').length > 0 && s.of('transaction').length > 0 && p.notifications.length > 0 && keptCounts().every((n) => n > 0)
        );
      },
      { what: 'every stream of the doomed and the kept key serving' },
    );
    const keptBefore = keptCounts();

    const reloaded = Object.values(KEYS)
      .filter((x) => x.id !== 'doomed')
      .map((x) => (x.id === 'keeper' ? { ...x, limits: { streams: 5, connections: 5 } } : x));
    writeFileSync(keysPath, keysFile(reloaded));
    await waitFor(() => g.error && s.error && p.closed, { what: 'the doomed streams ended' });
    expect(errorText(g.error)).toMatch(/authentication credentials.*API key doomed was revoked/);
    expect([s.error!.code, s.error!.details]).toEqual([grpc.status.UNAUTHENTICATED, 'API key doomed was revoked']);
    expect(p.closed).toEqual({ code: 1008, reason: 'API key doomed was revoked' });
    await expect(RawClient.connect(`${wsUrl}?api-key=${doomed}`)).rejects.toThrow('HTTP 401');
    await expect(new Connection(rpcUrl, { httpHeaders: { 'x-token': doomed } }).getVersion()).rejects.toThrow(/401/);
    expect(await (await geyser(doomed)).getSlot(0).then(() => 'ok', errorText)).toMatch(/missing or invalid x-token/);

    await waitFor(() => [...access.all()].find((t) => t.id === 'keeper')?.limits.streams === 5, { what: "the keeper's new limits" });
    await chain.slot(++slot, { txs: [txEvent(slot, [k, key()])] });
    await waitFor(() => keptCounts().every((n, i) => n > keptBefore[i]!), { what: 'the kept streams after the reload' });
    expect([kept.error, keptStream.error, keptWs.closed]).toEqual([undefined, undefined, undefined]);
    kept.close();
    keptStream.cancel();
    keptWs.close();
  });

  it('SIGHUP reads the keys file again (a rewrite the file watcher cannot see: same size and times)', async () => {
    const { statSync, utimesSync } = await import('node:fs');
    const before = statSync(keysPath);
    // Same length: the meter key allowed only JSON-RPC, in place, its times put back.
    const text = readFileSync(keysPath, 'utf8');
    const changed = text.replace(
      `"id":"streams-only","sha256":"${sha(KEYS.streamsOnly!.key)}"`,
      `"id":"streams-only","sha256":"${sha('key-streams-0009')}"`,
    );
    expect(changed.length).toBe(text.length);
    writeFileSync(keysPath, changed);
    utimesSync(keysPath, before.atime, before.mtime);
    expect(access.admit(KEYS.streamsOnly!.key, 'stream').ok).toBe(true);
    process.kill(process.pid, 'SIGHUP');
    await waitFor(() => !access.admit(KEYS.streamsOnly!.key, 'stream').ok, { what: 'the old streams-only key refused after SIGHUP' });
    expect(access.admit('key-streams-0009', 'stream').ok).toBe(true);
  });

  it("the usage records and metrics add up to what the meter key's clients received", async () => {
    const k = key();
    const meter = KEYS.meter!.key;
    // The gRPC streams count the bytes of every message they receive; a ping after the filter is answered once it applies.
    const pong = (r: { updates: Msg[] }): boolean => r.updates.some((u: Msg) => u.pong !== undefined && u.pong !== null);
    const gb = byteCountingGeyser(grpcServer.port, md({ 'x-token': meter }));
    const g = gb.recorder;
    g.send(geyserRequest({ transactions: { t: { accountInclude: [bs58.encode(k)], accountExclude: [], accountRequired: [] } } }));
    g.send(geyserRequest({ ping: { id: 1 } }));
    const sb = byteCountingStream(grpcServer.port, md({ authorization: `Bearer ${meter}` }));
    const s = sb.recorder;
    s.send({ transactions: { t: { account_include: [bs58.encode(k)] } } });
    s.send({ ping: { id: 1 } });
    await waitFor(() => pong(g) && pong(s), { what: 'the pongs of both gRPC streams' });
    const p = await RawClient.connect(`${wsUrl}?api-key=${meter}`);
    let notificationBytes = 0;
    p.ws.on('message', (data: Buffer) => {
      if (data.toString().includes('"method"')) notificationBytes += data.length;
    });
    p.call(1, 'logsSubscribe', [{ mentions: [bs58.encode(k)] }, { commitment: 'processed' }]);
    await waitFor(() => p.answers.get(1), { what: 'the logs subscription' });
    // JSON-RPC: web3.js with a fetch that counts the bytes of each answer's body (kit cannot be given one).
    let answerBytes = 0;
    const countingFetch: typeof fetch = async (input, init) => {
      const r = await fetch(input, init);
      answerBytes += (await r.clone().arrayBuffer()).byteLength;
      return r;
    };
    const web3 = new Connection(rpcUrl, { httpHeaders: { Authorization: `Bearer ${meter}` }, fetch: countingFetch });
    const rpcCalls = 3;
    for (let i = 0; i < rpcCalls; i++) await web3.getVersion();
    for (let i = 0; i < 5; i++) await chain.slot(++slot, { txs: [txEvent(slot, [k, key()]), txEvent(slot, [k, key()], { index: 1 })] });
    // Geyser updates as the package decodes them: the update is the field present.
    const geyserTxs = (): number => g.updates.filter((u: Msg) => u.transaction !== undefined).length;
    await waitFor(() => geyserTxs() === 10 && p.notifications.length === 10 && s.of('transaction').length === 10, {
      what: '10 transactions on each stream',
    });
    p.close();
    s.cancel();
    g.cancel();
    const tenant = [...access.all()].find((t) => t.id === 'meter')!;
    await waitFor(() => tenant.open.pubsub + tenant.open.stream + tenant.open.geyser === 0, { what: 'the meter streams closed' });
    const metrics = await registry.getSingleMetricAsString('slotstream_key_updates_total');
    await stops.stopAll(); // the recorder writes its last interval

    const records = readFileSync(usagePath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as UsageRecord)
      .filter((r) => r.key === 'meter');
    const sum = (iface: 'stream' | 'geyser' | 'pubsub' | 'jsonrpc', f: 'requests' | 'updates' | 'bytes') =>
      records.reduce((n, r) => n + (r.interfaces[iface]?.[f] ?? 0), 0);
    // gRPC: every update each client decoded but the pong of its ping (bytes, not an update; no server ping comes in
    // 10 minutes); and every byte each received.
    const updatesOf = (r: { updates: Msg[] }): number => r.updates.filter((u: Msg) => !u.pong && !u.ping).length;
    expect([updatesOf(g), updatesOf(s)]).toEqual([10, 10]);
    expect(sum('geyser', 'updates')).toBe(updatesOf(g));
    expect(sum('geyser', 'bytes')).toBe(gb.bytes());
    expect(sum('stream', 'updates')).toBe(updatesOf(s));
    expect(sum('stream', 'bytes')).toBe(sb.bytes());
    expect(sum('pubsub', 'updates')).toBe(p.notifications.length);
    expect(sum('pubsub', 'bytes')).toBe(notificationBytes);
    expect(sum('jsonrpc', 'requests')).toBe(rpcCalls);
    expect(sum('jsonrpc', 'bytes')).toBe(answerBytes);
    expect(records.every((r) => r.requests === Object.values(r.interfaces).reduce((n, u) => n + u.requests, 0))).toBe(true);
    expect(metrics).toContain(`slotstream_key_updates_total{key="meter",interface="pubsub"} ${p.notifications.length}`);
  });
});

// TLS on every listener (issue 36): gRPC (stream.Stream and geyser.Geyser), JSON-RPC (https) and PubSub (wss) with
// a certificate made in the test (openssl), the real clients in a process of their own that trusts it the way a
// user trusts a private CA (@triton-one/yellowstone-grpc, @solana/web3.js, @solana/kit), and grpc-js in-process.
// Then the certificate is renewed in place (files replaced by rename): every listener serves the new one to new
// connections without a restart, a client that trusts only the new certificate gets through, and a stream opened
// before the renewal carries on.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_GEYSER_LIMITS } from '../api/filters/from-geyser.js';
import { DEFAULT_FILTER_LIMITS } from '../api/filters/index.js';
import { geyserService } from '../api/grpc/geyser/service.js';
import { startGrpc, type GrpcServer } from '../api/grpc/server.js';
import { streamService } from '../api/grpc/stream/service.js';
import { JsonRpcServer } from '../api/jsonrpc/server.js';
import { LiveLayer } from '../api/live/index.js';
import { startPubSub, type PubSubServer } from '../api/pubsub/server.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { silentLogger } from '../platform/log.js';
import { TlsFiles } from '../platform/tls.js';
import { topicNames } from '../schemas/topics.js';
import { Recorder, streamClientCtor, type Msg } from './support/grpc/clients.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { openTestStore, type TestStore } from './support/jsonrpc/store.js';
import { key, PubSubChain, txEvent } from './support/pubsub/chain.js';
import { install, makeCertificate, type TestCertificate } from './support/tls/certificate.js';

/** The certificate a listener presents to a new connection. */
function servedFingerprint(port: number, ca: Buffer[], alpn: string[] = ['h2', 'http/1.1']): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ host: '127.0.0.1', port, ca, servername: 'localhost', ALPNProtocols: alpn }, () => {
      resolve(s.getPeerCertificate().fingerprint256);
      s.end();
    });
    s.on('error', reject);
  });
}

function grpcClient(port: number, ca: Buffer): grpc.Client & Record<string, Msg> {
  const Ctor = streamClientCtor();
  return new Ctor(`localhost:${port}`, grpc.credentials.createSsl(ca), { 'grpc.use_local_subchannel_pool': 1 });
}

const ping = (c: Msg): Promise<string> =>
  new Promise((resolve) =>
    c.Ping({ count: 3 }, (err: grpc.ServiceError | null, r: Msg) => resolve(err ? `error ${err.message}` : `ok ${r.count}`)),
  );

describe('TLS on gRPC, JSON-RPC and PubSub, renewed without a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slotstream-tls-'));
  const served = { certFile: join(dir, 'served.crt'), keyFile: join(dir, 'served.key') };
  const topics = topicNames(uniquePrefix('tls'));
  let first: TestCertificate;
  let second: TestCertificate;
  let kafka: Kafka;
  let live: LiveLayer;
  let chain: PubSubChain;
  let store: TestStore;
  let tls: TlsFiles;
  let grpcServer: GrpcServer;
  let rpc: JsonRpcServer;
  let pubsub: PubSubServer;
  let slot = 9000n;

  beforeAll(async () => {
    first = makeCertificate(dir, 'first');
    second = makeCertificate(dir, 'second');
    install(first, served);
    tls = new TlsFiles(served, silentLogger);
    kafka = createKafka({ brokers: testBrokers(), clientId: 'tls-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    store = await openTestStore();
    const database = await store.database('tls');
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 600_000, log: silentLogger });
    const log = silentLogger;
    grpcServer = await startGrpc({
      services: [
        streamService({ live, limits: DEFAULT_FILTER_LIMITS, queueSize: 10_000, log }),
        geyserService({ live, limits: DEFAULT_GEYSER_LIMITS, queueSize: 10_000, log }),
      ],
      host: '127.0.0.1',
      port: 0,
      tls,
      log,
    });
    rpc = await JsonRpcServer.open({
      ch: store.ch,
      database,
      host: '127.0.0.1',
      port: 0,
      tls,
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
      tls,
      maxConnections: 100,
      maxSubscriptionsPerConnection: 100,
      maxMessageBytes: 65536,
      maxBufferedBytes: 1 << 24,
      pingIntervalMs: 600_000,
      log,
    });
    chain = await PubSubChain.start(kafka, topics);
  });

  afterAll(async () => {
    await grpcServer?.close();
    await rpc?.close();
    await pubsub?.close();
    tls?.close();
    await live?.close();
    await chain?.stop();
    await kafka?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The real clients in a child trusting `certs`; slots keep coming so the PubSub clients get a notification. */
  async function clientsTrusting(certs: TestCertificate[]): Promise<Record<string, string>> {
    const caFile = join(dir, `ca-${certs.length}-${Date.now()}.pem`);
    writeFileSync(caFile, Buffer.concat(certs.map((c) => c.ca)));
    const child = fork(
      fileURLToPath(new URL('./support/tls/clients-child.ts', import.meta.url)),
      [String(grpcServer.port), String(rpc.port), String(pubsub.port)],
      { execArgv: ['--import', 'tsx'], env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile, SSL_CERT_FILE: caFile }, stdio: 'inherit' },
    );
    let result: Record<string, string> | undefined;
    child.on('message', (m) => (result = m as Record<string, string>));
    try {
      return await waitFor(
        async () => {
          if (result === undefined) await chain.slot(++slot);
          return result;
        },
        { what: 'the clients in the child', intervalMs: 200, timeoutMs: 300_000 },
      );
    } finally {
      child.kill();
    }
  }

  it('serves every interface over TLS to the real clients', async () => {
    const r = await clientsTrusting([first]);
    expect(r['yellowstone']).toBe('ok 7');
    expect(r['web3 https']).toMatch(/^ok "/);
    expect(r['kit https']).toMatch(/^ok "/);
    expect(r['web3 wss']).toMatch(/^ok \d+/);
    expect(r['kit wss']).toMatch(/^ok \d+/);
  });

  it('serves a renewed certificate to new connections without a restart; open streams carry on', async () => {
    const ports = [grpcServer.port, rpc.port, pubsub.port];
    for (const p of ports) expect(await servedFingerprint(p, [first.ca])).toBe(first.fingerprint256);
    // A stream opened before the renewal, on grpc-js.
    const k = key();
    const before = new Recorder(grpcClient(grpcServer.port, first.ca).Subscribe());
    before.send({ transactions: { t: { account_include: [bs58.encode(k)] } } });
    await waitFor(
      async () => {
        await chain.slot(++slot, { txs: [txEvent(slot, [k, key()])] });
        return before.of('transaction').length > 0;
      },
      { what: 'a transaction before the renewal' },
    );
    // A client trusting only the next certificate's CA is refused while the first is served.
    expect(await ping(grpcClient(grpcServer.port, second.ca))).toMatch(/^error/);

    install(second, served);
    for (const p of ports)
      await waitFor(() => servedFingerprint(p, [first.ca, second.ca]).then((f) => f === second.fingerprint256), {
        what: `port ${p} serving the renewed certificate`,
      });
    expect(await ping(grpcClient(grpcServer.port, second.ca))).toBe('ok 3');
    const ws = new WebSocket(`wss://localhost:${pubsub.port}/`, { ca: second.ca });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.close();
    const answer = await fetch(`https://localhost:${rpc.port}/`, { method: 'POST' }).then(
      () => 'ok',
      (e: Error) => `error ${String(e.cause ?? e.message)}`,
    );
    expect(answer).toMatch(/error/); // Node's fetch trusts only the public roots: the certificate is checked at all

    const seen = before.of('transaction').length;
    await waitFor(
      async () => {
        await chain.slot(++slot, { txs: [txEvent(slot, [k, key()])] });
        return before.of('transaction').length > seen;
      },
      { what: 'the open stream after the renewal' },
    );
    expect(before.error).toBeUndefined();
    before.cancel();

    const r = await clientsTrusting([second]);
    expect(r['yellowstone']).toBe('ok 7');
    expect([r['web3 https'], r['kit https'], r['web3 wss'], r['kit wss']].every((v) => v?.startsWith('ok'))).toBe(true);
  });

  it('keeps the certificate in force when a renewal does not load (a key that does not match)', async () => {
    const third = makeCertificate(dir, 'third');
    install({ ...third, keyFile: first.keyFile }, served);
    // The watcher read the bad pair (or will): the served certificate stays the second until a good pair comes.
    tls.reload();
    for (const p of [grpcServer.port, rpc.port, pubsub.port]) expect(await servedFingerprint(p, [second.ca])).toBe(second.fingerprint256);
    install(third, served);
    await waitFor(() => servedFingerprint(rpc.port, [third.ca]).then((f) => f === third.fingerprint256), { what: 'the third certificate' });
  });
});

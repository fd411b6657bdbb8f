// PubSub under abuse, on the real live layer and broker: thousands of malformed frames and JSON-RPC
// messages, subscribe/unsubscribe storms, limits, oversized frames, abrupt disconnects and a client that
// stops reading. The server never crashes, answers every bad message with Agave's error, a watching
// subscriber receives every notification throughout, and nothing is leaked (counts and metrics at zero).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import WebSocket from 'ws';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { topicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { key, PubSubChain, txEvent } from '../../test/support/pubsub/chain.js';
import { RawClient, type Json } from '../../test/support/pubsub/raw-client.js';
import { LiveLayer } from '../live/index.js';
import { openConnections, openSubscriptions, slowClientCloses } from './metrics.js';
import { startPubSub, type PubSubServer } from './server.js';

const TOKEN = 'pubsub-token';
const MAX_SUBS = 20;
const MAX_MESSAGE = 4096;

describe('PubSub robustness', () => {
  const topics = topicNames(uniquePrefix('pubsub-robust'));
  let kafka: Kafka;
  let live: LiveLayer;
  let server: PubSubServer;
  let chain: PubSubChain;
  let url: string;
  let slot = 100n;
  let watcher: RawClient;
  const published: string[] = [];

  const serverOptions = () => ({
    live,
    host: '127.0.0.1',
    port: 0,
    authToken: TOKEN,
    maxConnections: 40,
    maxSubscriptionsPerConnection: MAX_SUBS,
    maxMessageBytes: MAX_MESSAGE,
    maxBufferedBytes: 1024 * 1024,
    pingIntervalMs: 500,
    log: silentLogger,
  });

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'pubsub-robust-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 10_000, log: silentLogger });
    server = await startPubSub(serverOptions());
    url = `ws://127.0.0.1:${server.port}/?token=${TOKEN}`;
    chain = await PubSubChain.start(kafka, topics);
    watcher = await RawClient.connect(url);
    watcher.call(1, 'logsSubscribe', ['allWithVotes', { commitment: 'processed' }]);
    await waitFor(() => watcher.answers.get(1), { what: 'the watcher subscription' });
  });

  afterAll(async () => {
    watcher?.close();
    await server?.close();
    await live?.close();
    await chain?.stop();
    await kafka?.close();
  });

  /** Publishes a slot of transactions while the abuse goes on; the watcher must see each one. */
  async function traffic(n: number, logBytes = 0): Promise<void> {
    const s = ++slot;
    const txs = Array.from({ length: n }, () => txEvent(s, [key(), key()], { logMessages: logBytes > 0 ? ['x'.repeat(logBytes)] : [] }));
    for (const t of txs) published.push(bs58.encode(t.signatures[0]!));
    await chain.slot(s, { txs });
  }

  it('refuses a missing or wrong token, accepts it in the query or a header', async () => {
    await expect(RawClient.connect(`ws://127.0.0.1:${server.port}/`)).rejects.toThrow('HTTP 401');
    await expect(RawClient.connect(`ws://127.0.0.1:${server.port}/?token=wrong`)).rejects.toThrow('HTTP 401');
    const h = await RawClient.connect(`ws://127.0.0.1:${server.port}/`, { authorization: `Bearer ${TOKEN}` });
    const x = await RawClient.connect(`ws://127.0.0.1:${server.port}/`, { 'x-token': TOKEN });
    h.close();
    x.close();
  });

  it('answers thousands of bad messages with the right error, and stays up', async () => {
    const clients = await Promise.all(Array.from({ length: 4 }, () => RawClient.connect(url)));
    const expected = new Map<RawClient, Map<number, number | 'ok'>>();
    const nullIdErrors = new Map<RawClient, number[]>();
    let id = 1;
    const expect_ = (c: RawClient, code: number | 'ok') => {
      const m = expected.get(c) ?? expected.set(c, new Map()).get(c)!;
      m.set(id, code);
      return id++;
    };
    const bad = (c: RawClient, code: number) => (nullIdErrors.get(c) ?? nullIdErrors.set(c, []).get(c)!).push(code);
    const validKey = bs58.encode(key());
    for (let round = 0; round < 250; round++) {
      const c = clients[round % clients.length]!;
      // Not JSON at all (text and binary frames): -32700 with id null.
      c.send('{"jsonrpc":"2.0","id":1,"method":');
      bad(c, -32700);
      c.send(Buffer.from([0xff, 0x00, 0x7b, round & 0xff]));
      bad(c, -32700);
      // Not a request: -32600.
      c.send({ jsonrpc: '1.0', id: expect_(c, -32600), method: 'slotSubscribe' });
      c.send({ jsonrpc: '2.0', id: expect_(c, -32600), method: 7 });
      c.send({ jsonrpc: '2.0', id: expect_(c, -32600), method: 'slotSubscribe', extra: true });
      c.send([]);
      bad(c, -32600);
      // Unknown methods: -32601.
      c.call(expect_(c, -32601), 'getAccountInfo', [validKey]);
      c.call(expect_(c, -32601), 'programNotification', [validKey]);
      c.call(expect_(c, -32601), `nope${round}`);
      // Wrong params: -32602.
      c.call(expect_(c, -32602), 'accountSubscribe', [42]);
      c.call(expect_(c, -32602), 'accountSubscribe', ['notakey']);
      c.call(expect_(c, -32602), 'programSubscribe', [validKey, { filters: [{ dataSize: -1 }] }]);
      c.call(expect_(c, -32602), 'logsSubscribe', [{ mentions: [validKey, validKey] }]);
      c.call(expect_(c, -32602), 'signatureSubscribe', [validKey]);
      c.call(expect_(c, -32602), 'slotSubscribe', [1]);
      c.call(expect_(c, -32602), 'blockSubscribe', ['everything']);
      c.call(expect_(c, -32602), 'transactionSubscribe', [{ accountsInclude: [validKey] }]);
      c.call(expect_(c, -32602), 'accountUnsubscribe', ['x']);
      c.call(expect_(c, -32602), 'logsUnsubscribe', [999_999_999]);
      // A batch: each entry answered in order, in one array.
      const b1 = expect_(c, -32601);
      const b2 = expect_(c, -32602);
      c.send([
        { jsonrpc: '2.0', id: b1, method: 'x' },
        { jsonrpc: '2.0', id: b2, method: 'rootSubscribe', params: [1] },
        { jsonrpc: '2.0', method: 'slotSubscribe' },
      ]);
      if (round % 25 === 0) await traffic(20);
    }
    await waitFor(() => [...expected].every(([c, m]) => [...m.keys()].every((i) => c.answers.has(i))), { what: 'every answer' });
    for (const [c, m] of expected) {
      for (const [i, code] of m) {
        const a = c.answers.get(i);
        if (code === 'ok') expect(typeof a.result).toBe('number');
        else expect(a.error.code, JSON.stringify(a)).toBe(code);
      }
      await waitFor(() => c.unmatched.length === nullIdErrors.get(c)!.length, { what: 'answers with id null' });
      expect(c.unmatched.map((u: Json) => u.error.code)).toEqual(nullIdErrors.get(c));
    }
    const a = clients[0]!.answers.get(1);
    expect(a.error).toMatchObject({ code: -32600, message: 'Invalid request' });
    expect(clients[0]!.unmatched[0]).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    // Subscribe/unsubscribe storm on every client at once: each id comes back, is removed (`true`), and a
    // second removal is Agave's "Invalid subscription id.".
    await Promise.all(
      clients.map(async (c, n) => {
        for (let i = 0; i < 250; i++) {
          const base = 1_000_000 * (n + 1) + i * 3;
          c.call(
            base,
            ['accountSubscribe', 'programSubscribe', 'logsSubscribe'][i % 3]!,
            i % 3 === 2 ? [{ mentions: [bs58.encode(key())] }] : [bs58.encode(key()), { commitment: 'confirmed' }],
          );
          const sid = (await waitFor(() => c.answers.get(base), { what: 'subscribe answer', intervalMs: 2 })).result as number;
          expect(sid).toEqual(expect.any(Number));
          c.call(base + 1, 'accountUnsubscribe', [sid]);
          c.call(base + 2, 'programUnsubscribe', [sid]);
          await waitFor(() => c.answers.has(base + 2), { what: 'unsubscribe answers', intervalMs: 2 });
          expect(c.answers.get(base + 1).result).toBe(true);
          expect(c.answers.get(base + 2).error).toEqual({ code: -32602, message: 'Invalid subscription id.' });
        }
      }),
    );
    expect(server.subscriptions()).toBe(1); // the watcher
    for (const c of clients) c.close();
    await waitFor(() => server.connections() === 1, { what: 'clients gone' });
  });

  it('limits: subscriptions per connection (-32603), message size (1009), connections (503)', async () => {
    const c = await RawClient.connect(url);
    // Distinct subscriptions: identical ones share one id and count once (issue 32), so the limit needs different keys.
    for (let i = 1; i <= MAX_SUBS + 1; i++) c.call(i, 'accountSubscribe', [bs58.encode(key())]);
    await waitFor(() => c.answers.has(MAX_SUBS + 1), { what: 'subscribe answers' });
    expect(c.answers.get(MAX_SUBS).result).toEqual(expect.any(Number));
    expect(c.answers.get(MAX_SUBS + 1).error).toMatchObject({
      code: -32603,
      message: 'Internal Error: Subscription refused. Node subscription limit reached',
    });
    c.send(JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'slotSubscribe', params: ['x'.repeat(MAX_MESSAGE)] }));
    await waitFor(() => c.closed, { what: 'oversized message closes the connection' });
    expect(c.closed!.code).toBe(1009);
    await waitFor(() => server.subscriptions() === 1, { what: 'its subscriptions ended' });
    const many = await Promise.all(Array.from({ length: 39 }, () => RawClient.connect(url))); // + the watcher = 40
    await expect(RawClient.connect(url)).rejects.toThrow('HTTP 503');
    for (const m of many) m.close();
    await waitFor(() => server.connections() === 1, { what: 'connections closed' });
  });

  it('abrupt disconnects with live subscriptions leak nothing', async () => {
    for (let wave = 0; wave < 5; wave++) {
      const cs = await Promise.all(Array.from({ length: 20 }, () => RawClient.connect(url)));
      cs.forEach((c, i) => {
        c.call(1, 'logsSubscribe', ['all', { commitment: 'confirmed' }]);
        c.call(2, 'programSubscribe', [bs58.encode(key()), { commitment: 'processed' }]);
        c.call(3, i % 2 === 0 ? 'rootSubscribe' : 'slotSubscribe');
      });
      await waitFor(() => cs.every((c) => c.answers.size === 3), { what: 'subscriptions made' });
      await traffic(10);
      // Half vanish without a close frame, half mid-message.
      cs.forEach((c, i) => (i % 2 === 0 ? c.cut() : (c.ws as unknown as { _socket: { destroy(): void } })._socket.destroy()));
    }
    await waitFor(() => server.connections() === 1 && server.subscriptions() === 1, { what: 'abandoned connections cleaned up' });
  });

  it('a client that stops reading is closed; the others are not held up', async () => {
    // Its own server on the same live layer, with pings far apart: a client that does not read does not answer
    // pings either, and on a loaded machine the 500 ms ping cut could come before the buffer limit this checks.
    const patient = await startPubSub({ ...serverOptions(), pingIntervalMs: 60_000 });
    try {
      const slow = await RawClient.connect(`ws://127.0.0.1:${patient.port}/?token=${TOKEN}`);
      slow.call(1, 'logsSubscribe', ['allWithVotes', { commitment: 'processed' }]);
      await waitFor(() => slow.answers.has(1), { what: 'slow subscription' });
      const closesBefore = (await slowClientCloses.get()).values[0]?.value ?? 0;
      slow.ws.pause(); // ws stops reading its socket (and does not resume it on its own)
      for (let i = 0; i < 30 && patient.connections() > 0; i++) await traffic(200, 4000);
      await waitFor(async () => ((await slowClientCloses.get()).values[0]?.value ?? 0) > closesBefore, { what: 'the slow client closed' });
      await waitFor(() => patient.connections() === 0, { what: 'the slow client gone' });
      slow.cut();
    } finally {
      await patient.close();
    }
  });

  it('server pings keep an idle client connected and cut one that never answers them', async () => {
    const idle = await RawClient.connect(url);
    const deaf = new WebSocket(url, { autoPong: false });
    await new Promise((resolve) => deaf.once('open', resolve));
    const deafClosed = new Promise<number>((resolve) => deaf.once('close', (code) => resolve(code)));
    let pings = 0;
    idle.ws.on('ping', () => pings++);
    await deafClosed; // cut after its pings went unanswered (500 ms interval)
    expect(pings).toBeGreaterThanOrEqual(2);
    expect(idle.closed).toBeUndefined();
    idle.close();
    await waitFor(() => server.connections() === 1, { what: 'only the watcher left' });
  });

  it('the watcher received every transaction once throughout; metrics return to zero', async () => {
    await traffic(5);
    const seen = () => watcher.notifications.map((n: Json) => n.params.result.value.signature as string);
    await waitFor(() => seen().length >= published.length, { what: 'the watcher to catch up' });
    expect(seen().sort()).toEqual([...published].sort());
    expect(watcher.closed).toBeUndefined();
    watcher.close();
    await waitFor(() => server.connections() === 0, { what: 'no connections' });
    expect(server.subscriptions()).toBe(0);
    expect((await openConnections.get()).values[0]!.value).toBe(0);
    expect((await openSubscriptions.get()).values.every((v) => v.value === 0)).toBe(true);
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- wire messages are checked by value */
// Identical subscriptions on one connection (issue 32, item 2), through the real clients' own sockets: Agave hands an
// identical subscribe (same method, params with defaults applied, commitment) the id it already gave, the second
// adds nothing (one entry per id on the connection), so each notification goes out once, and one unsubscribe ends it.
// @solana/kit is used without its client-side coalescing (its transport built from its own parts, one pooled channel)
// so that both subscribes reach the server, and its channel is tapped to count frames; @solana/web3.js's own
// WebSocket client sends the very request web3.js's onAccountChange sends, beside it, on the same socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { Connection, PublicKey } from '@solana/web3.js';
import {
  address,
  createDefaultSolanaRpcSubscriptionsChannelCreator,
  createRpcSubscriptionsTransportFromChannelCreator,
  createSolanaRpcSubscriptionsFromTransport,
} from '@solana/kit';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import { topicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { key, PubSubChain, write } from '../../test/support/pubsub/chain.js';
import { LiveLayer } from '../live/index.js';
import { startPubSub, type PubSubServer } from './server.js';

const b58 = (b: Uint8Array): string => bs58.encode(b);

describe('identical PubSub subscriptions on one connection', () => {
  const topics = topicNames(uniquePrefix('pubsub-duplicates'));
  let kafka: Kafka;
  let live: LiveLayer;
  let server: PubSubServer;
  let chain: PubSubChain;
  let wsUrl: string;
  let slot = 9000n;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'pubsub-duplicates-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    live = await LiveLayer.start({ kafka, topics, pingIntervalMs: 10_000, log: silentLogger });
    server = await startPubSub({
      live,
      host: '127.0.0.1',
      port: 0,
      maxConnections: 100,
      maxSubscriptionsPerConnection: 100,
      maxMessageBytes: 65536,
      maxBufferedBytes: 1 << 24,
      pingIntervalMs: 10_000,
      log: silentLogger,
    });
    wsUrl = `ws://127.0.0.1:${server.port}/`;
    chain = await PubSubChain.start(kafka, topics);
  });

  afterAll(async () => {
    await server?.close();
    await live?.close();
    await chain?.stop();
    await kafka?.close();
  });

  const subscriptions = (n: number) => waitFor(() => server.subscriptions() === n, { what: `${n} subscriptions on the server` });

  /** A confirmed slot writing `acct` with `lamports`. */
  async function confirmedWrite(acct: Buffer, lamports: bigint): Promise<bigint> {
    const s = ++slot;
    await chain.slot(s, { accounts: [write(s, acct, key(), lamports, Buffer.from('x'), 1n)] });
    await chain.confirm(s);
    return s;
  }

  it('@solana/kit: two identical accountSubscribe get one id, each notification is one frame both iterators read', async () => {
    const frames: any[] = [];
    const tapped = new WeakSet<object>();
    const pooled = createDefaultSolanaRpcSubscriptionsChannelCreator({ url: wsUrl });
    const createChannel: typeof pooled = async (o) => {
      const channel = await pooled(o);
      if (!tapped.has(channel)) {
        tapped.add(channel);
        channel.on('message', (m: unknown) => frames.push(m));
      }
      return channel;
    };
    // kit's parts without getRpcSubscriptionsTransportWithSubscriptionCoalescing: both subscribes go to the server.
    const rpc = createSolanaRpcSubscriptionsFromTransport(createRpcSubscriptionsTransportFromChannelCreator(createChannel));
    const acct = key();
    const [first, second] = [new AbortController(), new AbortController()];
    const subscribe = (ac: AbortController) =>
      rpc.accountNotifications(address(b58(acct)), { commitment: 'confirmed', encoding: 'base64' }).subscribe({ abortSignal: ac.signal });
    const got: bigint[][] = [[], []];
    const iterators = [await subscribe(first), await subscribe(second)];
    iterators.forEach((it, i) => {
      void (async () => {
        try {
          for await (const n of it) got[i]!.push(n.context.slot);
        } catch {
          // aborted
        }
      })();
    });
    const ids = frames.filter((m) => m.result !== undefined && m.method === undefined).map((m) => m.result);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
    await subscriptions(1);

    const s1 = await confirmedWrite(acct, 10n);
    const s2 = await confirmedWrite(acct, 20n);
    await waitFor(() => got.every((g) => g.length === 2), { what: 'both kit iterators read both slots' });
    expect(got).toEqual([
      [s1, s2],
      [s1, s2],
    ]);
    // Frames arrive in order, so any second copy of slot 1's notification would be here by now.
    const notifications = frames.filter((m) => m.method === 'accountNotification');
    expect(notifications.map((m) => m.params.result.context.slot)).toEqual([s1, s2]);
    expect(notifications.every((m) => m.params.subscription === ids[0])).toBe(true);

    // kit counts its subscribers per server id on a channel (it expects Agave's shared ids) and unsubscribes when the
    // last one goes: the first abort sends nothing, the second iterator still reads, the last abort ends it.
    first.abort();
    const s3 = await confirmedWrite(acct, 30n);
    await waitFor(() => got[1]!.length === 3, { what: 'the second kit iterator reads on' });
    expect(got[1]![2]).toBe(s3);
    expect(server.subscriptions()).toBe(1);
    second.abort();
    await subscriptions(0);
  });

  it('@solana/web3.js: its onAccountChange request sent again (and with a commitment alias) gets the same id; one frame a slot', async () => {
    const conn = new Connection(`http://127.0.0.1:${server.port}/`, { wsEndpoint: wsUrl, commitment: 'confirmed' });
    const acct = key();
    const seen: number[] = [];
    const listener = conn.onAccountChange(new PublicKey(acct), (_a, ctx) => seen.push(ctx.slot), 'confirmed');
    await waitFor(() => Object.values((conn as any)._subscriptionsByHash).some((x: any) => x.state === 'subscribed'), {
      what: 'web3.js subscribed',
    });
    await subscriptions(1);
    // web3.js's WebSocket client (rpc-websockets), connected by the listener above.
    const ws = (conn as any)._rpcWebSocket as {
      call(method: string, params: unknown[]): Promise<unknown>;
      on(event: string, f: (n: any) => void): void;
    };
    const frames: any[] = [];
    ws.on('accountNotification', (n) => frames.push(n));
    const web3Id = Object.values((conn as any)._subscriptionsByHash as Record<string, { serverSubscriptionId: number }>)[0]!
      .serverSubscriptionId;
    const again = await ws.call('accountSubscribe', [b58(acct), { encoding: 'base64', commitment: 'confirmed' }]);
    const alias = await ws.call('accountSubscribe', [b58(acct), { commitment: 'singleGossip', encoding: 'base64' }]);
    const processed = await ws.call('accountSubscribe', [b58(acct), { commitment: 'processed', encoding: 'base64' }]);
    expect(again).toBe(web3Id);
    expect(alias).toBe(web3Id);
    expect(processed).not.toBe(web3Id);
    expect(server.subscriptions()).toBe(2);

    const s1 = await confirmedWrite(acct, 10n);
    const s2 = await confirmedWrite(acct, 20n);
    await waitFor(() => seen.length === 2, { what: "web3.js's callback for both slots" });
    expect(seen).toEqual([Number(s1), Number(s2)]);
    const confirmedFrames = frames.filter((n) => n.subscription === web3Id);
    expect(confirmedFrames.map((n) => n.result.context.slot)).toEqual([Number(s1), Number(s2)]);

    // web3.js's unsubscribe ends the shared id; asking again is Agave's "Invalid subscription id.".
    await conn.removeAccountChangeListener(listener);
    await subscriptions(1);
    await expect(ws.call('accountUnsubscribe', [web3Id])).rejects.toMatchObject({ code: -32602, message: 'Invalid subscription id.' });
    expect(await ws.call('accountUnsubscribe', [processed])).toBe(true);
    await subscriptions(0);
  });
});

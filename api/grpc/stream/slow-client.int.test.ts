// A client that stops reading is cut off with RESOURCE_EXHAUSTED naming the last slot it was sent, once
// its bounded queue is full, while a fast client on the same server keeps receiving promptly.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { topicNames } from '../../../schemas/topics.js';
import type { ChainEvent } from '../../../schemas/codec.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import { slowClientCutoffs } from '../metrics.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';
import { b58, key, newClient, subscribe, TestPublisher, txEvent, type Msg, type Recorder } from '../../../test/support/grpc/clients.js';

const cutoffs = async (): Promise<number> => (await slowClientCutoffs.get()).values[0]?.value ?? 0;

describe('gRPC slow client', () => {
  const topics = topicNames(uniquePrefix('grpc-slow'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  const clients: Msg[] = [];
  const open: Recorder[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'grpc-slow-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 1_000,
      log: silentLogger,
    });
  });

  afterAll(async () => {
    for (const r of open) r.cancel();
    for (const c of clients) c.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  it('cuts off a client that stops reading and keeps the fast one on time', async () => {
    const a = key();
    const fastClient = newClient(server.port);
    const slowClient = newClient(server.port);
    clients.push(fastClient, slowClient);
    const fast = subscribe(fastClient);
    const slow = subscribe(slowClient);
    open.push(fast, slow);
    const req = { transactions: { a: { account_include: [await b58(a)] } } };
    for (const [r, id] of [
      [fast, 1],
      [slow, 2],
    ] as const) {
      r.send(req);
      r.send({ ping: { id } });
      await waitFor(() => r.of('pong').length === 1, { what: 'filters applied' });
    }
    slow.call.pause(); // stops reading: HTTP/2 flow control backs up to the server

    const before = await cutoffs();
    // 3,000 updates of ~2 KB each: far beyond the HTTP/2 windows plus a 1,000-update queue.
    const n = 3_000;
    for (let i = 0; i < n; i += 200) {
      const batch: ChainEvent[] = [];
      for (let j = i; j < i + 200; j++) {
        batch.push({
          kind: 'transactions',
          event: txEvent(10_000n + BigInt(j), [a], {
            memos: [],
            instructions: [{ programIdIndex: 0, accounts: Buffer.alloc(0), data: randomBytes(2048) }],
          }),
        });
      }
      await pub.publish(batch);
      // Paced like a chain (~2,000 updates/s), not one burst: the point is a reader that falls behind.
      await new Promise((r) => setTimeout(r, 100));
    }
    await waitFor(() => fast.of('transaction').length === n, { what: 'fast client got everything', timeoutMs: 20_000 }).catch((e) => {
      throw new Error(`${e.message}: fast got ${fast.of('transaction').length}, slow ${slow.updates.length}, err ${fast.error?.message}`);
    });
    await waitFor(async () => (await cutoffs()) > before, { what: 'slow client cut off on the server' });

    // The fast client still gets a new update promptly.
    const probe = txEvent(20_000n, [a]);
    const sent = performance.now();
    await pub.publish([{ kind: 'transactions', event: probe }]);
    await waitFor(() => fast.of('transaction').length === n + 1, { what: 'probe on the fast client', intervalMs: 5 });
    const latency = fast.receivedAt[fast.receivedAt.length - 1]! - sent;
    expect(latency).toBeLessThan(1_000);

    // The slow client, reading again, gets what was already sent, then the status naming its last slot.
    slow.call.resume();
    await waitFor(() => slow.error, { what: 'RESOURCE_EXHAUSTED on the slow client', timeoutMs: 60_000 });
    expect(slow.error!.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    const got = slow.of('transaction');
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(n);
    const last = got[got.length - 1].transaction.slot;
    expect(slow.error!.details).toContain(`last delivered slot ${last}`);
    expect(slow.error!.details).toContain(`resume with from_slot ${BigInt(last) + 1n}`);
  });
});

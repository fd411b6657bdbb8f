// A geyser.Geyser client (the real @triton-one/yellowstone-grpc client) that stops reading is cut off with
// RESOURCE_EXHAUSTED naming the last slot it was sent, once its bounded queue is full; a client that keeps
// reading on the same server gets everything.
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import type { ChainEvent } from '../../../schemas/codec.js';
import { topicNames } from '../../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import { key, TestPublisher, txEvent } from '../../../test/support/grpc/clients.js';
import { connectGeyser, errorText, geyserRequest, GeyserRecorder } from '../../../test/support/geyser/client.js';
import { slowClientCutoffs } from '../metrics.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';

const cutoffs = async (): Promise<number> => (await slowClientCutoffs.get()).values[0]?.value ?? 0;

describe('geyser.Geyser slow client', () => {
  const topics = topicNames(uniquePrefix('geyser-slow'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  const open: GeyserRecorder[] = [];

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'geyser-slow-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 1_500,
      log: silentLogger,
    });
  });

  afterAll(async () => {
    for (const r of open) r.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  it('cuts off a client that stops reading, naming the last slot sent; the reading one gets everything', async () => {
    const a = key();
    const fast = await GeyserRecorder.open(await connectGeyser(server.port));
    const slow = await GeyserRecorder.open(await connectGeyser(server.port));
    open.push(fast, slow);
    const req = geyserRequest({ transactions: { a: { accountInclude: [bs58.encode(a)], accountExclude: [], accountRequired: [] } } });
    await fast.request(req);
    await slow.request(req);
    slow.stream.pause(); // stops reading: the client's buffers, then HTTP/2 flow control, back up to the server

    const before = await cutoffs();
    const n = 4_000;
    for (let i = 0; i < n; i += 200) {
      const batch: ChainEvent[] = [];
      for (let j = i; j < i + 200; j++) {
        batch.push({
          kind: 'transactions',
          event: txEvent(30_000n + BigInt(j), [a], {
            instructions: [{ programIdIndex: 0, accounts: Buffer.alloc(0), data: randomBytes(2048) }],
          }),
        });
      }
      await pub.publish(batch);
      // Paced like a busy chain (~2,000 updates/s): the point is a reader that stops, not one that is merely slower.
      await new Promise((r) => setTimeout(r, 100));
    }
    await waitFor(() => fast.of('transaction').length === n, { what: 'the reading client got everything', timeoutMs: 30_000 }).catch(
      (e: Error) => {
        throw new Error(`${e.message}: fast got ${fast.of('transaction').length} (${errorText(fast.error)}), slow ${slow.updates.length}`);
      },
    );
    await waitFor(async () => (await cutoffs()) > before, { what: 'slow client cut off on the server', timeoutMs: 30_000 });

    slow.stream.resume(); // reads what reached it, then the status
    await waitFor(() => slow.error !== undefined, { what: 'the slow client sees the status', timeoutMs: 30_000 });
    const got = slow.of('transaction');
    const last = got.length > 0 ? got[got.length - 1]!.transaction.slot : 'none';
    expect(got.length).toBeLessThan(n);
    const text = errorText(slow.error);
    expect(text).toMatch(/resource|exhausted/i);
    expect(text).toContain(`last delivered slot ${last}`);
    expect(text).toContain(`resume with from_slot ${BigInt(last) + 1n}`);
  });
});

// A geyser.Geyser client (the real @triton-one/yellowstone-grpc client) that stops reading is cut off with
// RESOURCE_EXHAUSTED naming the last slot it was sent, once its bounded queue is full; a client that keeps
// reading on the same server gets everything. Updates go out in step with the reading client
// (test/support/grpc/slow-client.ts `caughtUp`): on a starved machine a backlog would cut it off too. The reading
// client's latency meanwhile is bench/stream-latency.ts's figure (issue 32): this file asserts behaviour only.
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { topicNames } from '../../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import { key, TestPublisher } from '../../../test/support/grpc/clients.js';
import { bigTransactions, caughtUp, cutoffs, publishPaced } from '../../../test/support/grpc/slow-client.js';
import { connectGeyser, errorText, geyserRequest, GeyserRecorder } from '../../../test/support/geyser/client.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';

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
    await publishPaced(pub, bigTransactions(a, 30_000n, n), { batch: 100, each: caughtUp(() => fast.of('transaction').length) });
    await waitFor(() => fast.of('transaction').length === n, { what: 'the reading client got everything', timeoutMs: 300_000 }).catch(
      (e: Error) => {
        throw new Error(`${e.message}: fast got ${fast.of('transaction').length} (${errorText(fast.error)}), slow ${slow.updates.length}`);
      },
    );
    // Every update once (one slot each), and the stream still open.
    expect(new Set(fast.of('transaction').map((u) => u.transaction.slot)).size).toBe(n);
    expect(fast.error).toBeUndefined();
    await waitFor(async () => (await cutoffs()) > before, { what: 'slow client cut off on the server', timeoutMs: 300_000 });

    slow.stream.resume(); // reads what reached it, then the status
    await waitFor(() => slow.error !== undefined, { what: 'the slow client sees the status', timeoutMs: 300_000 });
    const got = slow.of('transaction');
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(n);
    const last = got[got.length - 1]!.transaction.slot;
    const text = errorText(slow.error);
    expect(text, text).toMatch(/ResourceExhausted|resource has been exhausted|RESOURCE_EXHAUSTED/i);
    expect(text).toContain(`last delivered slot ${last}`);
    expect(text).toContain(`resume with from_slot ${BigInt(last) + 1n}`);
  });
});

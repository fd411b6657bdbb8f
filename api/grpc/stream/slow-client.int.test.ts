// A client that stops reading is cut off with RESOURCE_EXHAUSTED naming the last slot it was sent, once
// its bounded queue is full, while a fast client on the same server gets everything, and still gets a new update
// after the cut-off. How long that update takes is bench/stream-latency.ts's figure, not a bound here (issue 32).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as grpc from '@grpc/grpc-js';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import { topicNames } from '../../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';
import { TestPublisher } from '../../../test/support/grpc/clients.js';
import { streamSlowClient, type StreamSlowRun } from '../../../test/support/grpc/slow-client.js';

describe('gRPC slow client', () => {
  const topics = topicNames(uniquePrefix('grpc-slow'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let run: StreamSlowRun | undefined;

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
    run?.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  it('cuts off a client that stops reading; the fast one gets everything, and a new update after the cut-off', async () => {
    // The run waits until the fast client holds every update, the server counted the cut-off, and the probe arrived.
    run = await streamSlowClient(server.port, pub);
    const { fast, slow, n, probe } = run;
    const got = fast.of('transaction');
    expect(got).toHaveLength(n + 1);
    expect(Buffer.from(got[n].transaction.transaction.signature)).toEqual(probe.signature);
    expect(fast.error).toBeUndefined();

    // The slow client, reading again, gets what was already sent, then the status naming its last slot.
    slow.call.resume();
    await waitFor(() => slow.error, { what: 'RESOURCE_EXHAUSTED on the slow client', timeoutMs: 300_000 });
    expect(slow.error!.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    const sent = slow.of('transaction');
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThan(n);
    const last = sent[sent.length - 1].transaction.slot;
    expect(slow.error!.details).toContain(`last delivered slot ${last}`);
    expect(slow.error!.details).toContain(`resume with from_slot ${BigInt(last) + 1n}`);
  });
});

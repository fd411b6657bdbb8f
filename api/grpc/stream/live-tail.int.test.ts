// The live tail against the real broker: a backlog far larger than one fetch (the tail was paused while it
// was published) reaches a match-all stream exactly once, and the server's chainTip() follows the newest slot.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../../../platform/kafka/index.js';
import { silentLogger } from '../../../platform/log.js';
import type { ChainEvent } from '../../../schemas/codec.js';
import { topicNames } from '../../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../../test/support/harness/kafka.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';
import { key, newClient, subscribe, TestPublisher, txEvent, type Msg } from '../../../test/support/grpc/clients.js';

describe('gRPC live tail', () => {
  const topics = topicNames(uniquePrefix('grpc-tail'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  let client: Msg;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'grpc-tail-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 100_000,
      log: silentLogger,
    });
    client = newClient(server.port);
  });

  afterAll(async () => {
    client?.close();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  it('delivers a backlog much larger than one fetch exactly once, and tracks the chain tip', async () => {
    const r = subscribe(client);
    r.send({ transactions: { all: {} } });
    r.send({ ping: { id: 1 } });
    await waitFor(() => r.of('pong').length === 1, { what: 'filters applied' });
    server.setLivePaused(true);
    // 12,000 transactions of ~2 KB: ~24 MB, several fetches of 4 MB per partition.
    const n = 12_000;
    const sigs = new Set<string>();
    const k = key();
    for (let i = 0; i < n; i += 1_000) {
      const batch: ChainEvent[] = [];
      for (let j = i; j < i + 1_000; j++) {
        const tx = txEvent(100_000n + BigInt(j), [k], {
          instructions: [{ programIdIndex: 0, accounts: Buffer.alloc(0), data: randomBytes(2_000) }],
        });
        sigs.add(tx.signatures[0]!.toString('hex'));
        batch.push({ kind: 'transactions', event: tx });
      }
      await pub.publish(batch);
    }
    server.setLivePaused(false);
    await waitFor(() => r.of('transaction').length >= n, { what: `${n} transactions`, timeoutMs: 300_000 });
    const got = r.of('transaction').map((u) => Buffer.from(u.transaction.transaction.signature).toString('hex'));
    expect(got).toHaveLength(n);
    expect(new Set(got)).toEqual(sigs);
    expect(server.chainTip()).toBe(100_000n + BigInt(n - 1));
    r.cancel();
  });
});

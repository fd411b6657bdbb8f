// While a geyser.Geyser client that stopped reading backs up and is cut off (RESOURCE_EXHAUSTED naming the
// last slot it was sent), a reading client on the same api process keeps its api-internal latency (the
// api reading the record -> the client's receive callback; behaviour.md "Latency, one definition") at a
// p99 of at most 50 ms. Both are the real @triton-one/yellowstone-grpc client; the fast one runs in its own
// process (as clients do), so its receive callbacks do not wait on the api's event loop.
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, type Kafka } from '../../platform/kafka/index.js';
import { silentLogger } from '../../platform/log.js';
import type { ChainEvent } from '../../schemas/codec.js';
import { topicNames } from '../../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../../test/support/harness/kafka.js';
import { key, TestPublisher, txEvent } from '../../test/support/grpc/clients.js';
import { connectGeyser, errorText, geyserRequest, GeyserRecorder } from '../../test/support/geyser/client.js';
import { LatencyClientProcess } from '../../test/support/geyser/latency-process.js';
import { slowClientCutoffs } from '../grpc/metrics.js';
import { startGrpc, type GrpcServer } from '../grpc/server.js';

const cutoffs = async (): Promise<number> => (await slowClientCutoffs.get()).values[0]?.value ?? 0;
const P99_LIMIT_MS = 50;

describe('geyser.Geyser: a slow client is cut off, a fast one keeps its latency', () => {
  const topics = topicNames(uniquePrefix('geyser-slow-p99'));
  let kafka: Kafka;
  let server: GrpcServer;
  let pub: TestPublisher;
  const open: GeyserRecorder[] = [];
  let fast: LatencyClientProcess | undefined;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'geyser-slow-p99-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startGrpc({ kafka, topics, database: 'unused', host: '127.0.0.1', port: 0, pingIntervalMs: 10_000, queueSize: 500, log: silentLogger });
  });

  afterAll(async () => {
    for (const r of open) r.close();
    await fast?.stop();
    await server?.close();
    await pub?.stop();
    await kafka?.close();
  });

  it(`the slow client gets RESOURCE_EXHAUSTED naming its last slot; the fast one's api-internal p99 stays <= ${P99_LIMIT_MS} ms throughout`, async () => {
    const a = key();
    // api-internal latency of each transaction update: the receive callback's wall clock minus created_at,
    // which the api sets to the moment it read the record (api/live/shared-event.ts readAt).
    fast = await LatencyClientProcess.start(server.port, bs58.encode(a));
    const slow = await GeyserRecorder.open(await connectGeyser(server.port));
    open.push(slow);
    await slow.request(geyserRequest({ transactions: { a: { accountInclude: [bs58.encode(a)], accountExclude: [], accountRequired: [] } } }));
    if (!process.env.CONTROL) slow.stream.pause(); // stops reading: the client's buffers, then HTTP/2 flow control, back up to the server

    const before = await cutoffs();
    // ~2,000 updates/s of ~2 KB in small batches every 10 ms, as a chain delivers them (not one burst):
    // far beyond the slow client's windows plus its 500-update queue within a couple of seconds.
    const n = 6_000;
    const batch = 20;
    const t0 = Date.now();
    let cutAt = -1;
    // Built before the clock starts: the publisher shares the api's process and event loop.
    const events: ChainEvent[] = Array.from({ length: n }, (_, j) => ({
      kind: 'transactions',
      event: txEvent(40_000n + BigInt(j), [a], { instructions: [{ programIdIndex: 0, accounts: Buffer.alloc(0), data: randomBytes(2048) }] }),
    }));
    for (let i = 0; i < n; i += batch) {
      await pub.publish(events.slice(i, i + batch));
      if (cutAt < 0 && (await cutoffs()) > before) cutAt = i;
      const due = t0 + ((i + batch) / 2_000) * 1000 - Date.now();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
    }
    await waitFor(async () => (await fast!.count()) >= n, { what: 'the fast client got everything', timeoutMs: 60_000 });
    const latencies = await fast.take();
    await waitFor(async () => (await cutoffs()) > before, { what: 'slow client cut off on the server', timeoutMs: 30_000 });
    // The cut-off happened while the fast client was being measured, not after the run.
    expect(cutAt).toBeGreaterThanOrEqual(0);
    expect(cutAt).toBeLessThan(n - batch);

    expect(latencies).toHaveLength(n);
    const sorted = [...latencies].sort((x, y) => x - y);
    const p50 = sorted[Math.floor(0.5 * n)]!;
    const p99 = sorted[Math.floor(0.99 * n)]!;
    console.log(`[geyser slow client] fast client api-internal latency over ${n} updates: p50 ${p50} ms, p99 ${p99} ms, max ${sorted[n - 1]} ms; slow client cut off after ${cutAt} published`);
    console.log('DEBUG buckets', Array.from({ length: n / 250 }, (_, b) => Math.max(...latencies.slice(b * 250, b * 250 + 250))).join(' '));
    expect(p99).toBeLessThanOrEqual(P99_LIMIT_MS);

    slow.stream.resume(); // reads what reached it, then the status
    await waitFor(() => slow.error !== undefined, { what: 'the slow client sees the status', timeoutMs: 30_000 });
    const got = slow.of('transaction');
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(n);
    const last = got[got.length - 1]!.transaction.slot;
    const text = errorText(slow.error);
    expect(text).toMatch(/resource.?exhausted/i);
    expect(text).toContain(`last delivered slot ${last}`);
    expect(text).toContain(`resume with from_slot ${BigInt(last) + 1n}`);
  });
});

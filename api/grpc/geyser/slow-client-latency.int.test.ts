// While a geyser.Geyser client that stopped reading backs up and is cut off (RESOURCE_EXHAUSTED naming the
// last slot it was sent), a reading client on the same api process keeps its api-internal latency (the
// api reading the record -> the client's receive callback; behaviour.md "Latency, one definition") at a
// p99 of at most 50 ms. Both are the real @triton-one/yellowstone-grpc client; the fast one runs in its own
// process (as clients do), so its receive callbacks do not wait on the api's event loop.
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
import { LatencyClientProcess } from '../../../test/support/geyser/latency-process.js';
import { slowClientCutoffs } from '../metrics.js';
import { startTestGrpc, type TestGrpc } from '../../../test/support/grpc/server.js';

const cutoffs = async (): Promise<number> => (await slowClientCutoffs.get()).values[0]?.value ?? 0;
const P99_LIMIT_MS = 50;

describe('geyser.Geyser: a slow client is cut off, a fast one keeps its latency', () => {
  const topics = topicNames(uniquePrefix('geyser-slow-p99'));
  let kafka: Kafka;
  let server: TestGrpc;
  let pub: TestPublisher;
  const open: GeyserRecorder[] = [];
  let fast: LatencyClientProcess | undefined;

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'geyser-slow-p99-test' });
    await kafka.admin().ensureTopics(topics, { partitions: 2, retentionMs: -1, replicationFactor: 1 });
    pub = await TestPublisher.start(kafka, topics);
    server = await startTestGrpc({
      kafka,
      topics,
      database: 'unused',
      host: '127.0.0.1',
      port: 0,
      pingIntervalMs: 10_000,
      queueSize: 500,
      log: silentLogger,
    });
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
    await slow.request(
      geyserRequest({ transactions: { a: { accountInclude: [bs58.encode(a)], accountExclude: [], accountRequired: [] } } }),
    );

    // Chain-like traffic: ~2,000 updates/s of ~2 KB in small batches every 10 ms (not one burst), built
    // before the clock starts (the publisher shares the api's process and event loop).
    const batch = 20;
    const publishPaced = async (events: ChainEvent[], each?: (published: number) => Promise<void>): Promise<void> => {
      const t0 = Date.now();
      for (let i = 0; i < events.length; i += batch) {
        await pub.publish(events.slice(i, i + batch));
        await each?.(i + batch);
        const due = t0 + ((i + batch) / 2_000) * 1000 - Date.now();
        if (due > 0) await new Promise((r) => setTimeout(r, due));
      }
    };
    let nextSlot = 40_000n;
    const txs = (count: number): ChainEvent[] =>
      Array.from({ length: count }, () => ({
        kind: 'transactions',
        event: txEvent(nextSlot++, [a], { instructions: [{ programIdIndex: 0, accounts: Buffer.alloc(0), data: randomBytes(2048) }] }),
      }));
    const percentiles = (xs: number[]): { p50: number; p99: number; max: number } => {
      const sorted = [...xs].sort((x, y) => x - y);
      return {
        p50: sorted[Math.floor(0.5 * sorted.length)]!,
        p99: sorted[Math.floor(0.99 * sorted.length)]!,
        max: sorted[sorted.length - 1]!,
      };
    };

    // Control: the same traffic while both clients read, so a failure says whether the slow client or the
    // machine is to blame.
    const control = 2_000;
    await publishPaced(txs(control));
    await waitFor(async () => (await fast!.count()) >= control && slow.of('transaction').length >= control, {
      what: 'control traffic on both clients',
      timeoutMs: 60_000,
    });
    const base = percentiles(await fast.take());

    slow.stream.pause(); // stops reading: the client's buffers, then HTTP/2 flow control, back up to the server
    const before = await cutoffs();
    // Far beyond the slow client's windows plus its 500-update queue within a couple of seconds.
    const n = 6_000;
    let cutAt = -1;
    await publishPaced(txs(n), async (published) => {
      if (cutAt < 0 && (await cutoffs()) > before) cutAt = published;
    });
    await waitFor(async () => (await fast!.count()) >= control + n, { what: 'the fast client got everything', timeoutMs: 60_000 });
    const latencies = (await fast.take()).slice(control);
    expect(latencies).toHaveLength(n);
    const { p50, p99, max } = percentiles(latencies);
    const report =
      `fast client api-internal latency over ${n} updates while the slow one backs up: p50 ${p50} ms, p99 ${p99} ms, max ${max} ms ` +
      `(both reading: p50 ${base.p50} ms, p99 ${base.p99} ms, max ${base.max} ms); slow client cut off after ${cutAt} published; ` +
      `max per 500 updates: ${Array.from({ length: n / 500 }, (_, i) => Math.max(...latencies.slice(i * 500, i * 500 + 500))).join(' ')}`;
    console.log(`[geyser slow client] ${report}`);
    await waitFor(async () => (await cutoffs()) > before, { what: 'slow client cut off on the server', timeoutMs: 30_000 });
    // The cut-off happened while the fast client was being measured, not after the run.
    expect(cutAt).toBeGreaterThan(0);
    expect(cutAt).toBeLessThan(n);
    // The slow client must not slow the fast one: p99 within 50 ms, or, on a machine so starved that its own
    // p99 with both clients reading is already beyond that, within half again of that control figure.
    expect(p99, report).toBeLessThanOrEqual(Math.max(P99_LIMIT_MS, base.p99 * 1.5));

    slow.stream.resume(); // reads what reached it, then the status
    await waitFor(() => slow.error !== undefined, { what: 'the slow client sees the status', timeoutMs: 30_000 });
    const got = slow.of('transaction');
    expect(got.length).toBeGreaterThan(control);
    expect(got.length).toBeLessThan(control + n);
    const last = got[got.length - 1]!.transaction.slot;
    const text = errorText(slow.error);
    expect(text, text).toMatch(/ResourceExhausted|resource has been exhausted|RESOURCE_EXHAUSTED/i);
    expect(text).toContain(`last delivered slot ${last}`);
    expect(text).toContain(`resume with from_slot ${BigInt(last) + 1n}`);
  });
});

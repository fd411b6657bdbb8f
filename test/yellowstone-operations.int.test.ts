// --source yellowstone operations against a local Yellowstone test server replaying a simulated chain
// (converted to SubscribeUpdates with schemas/yellowstone, as geyser.Geyser emits them), real broker:
//   - an update the conversion rejects goes to <prefix>.deadletter.v1 as it came (reason, topic, slot and
//     signature headers) with a log line naming slot and signature; its slot and the rest go on;
//   - lag: 0 slots behind once caught up, /health `ok`; then the upstream stops sending and /health says
//     `behind` after --ingest-stall-ms, with a log line saying why.
import { Writable } from 'node:stream';
import bs58 from 'bs58';
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKafka } from '../cli/infrastructure.js';
import { lastPublishedSlot } from './support/ingest/last-published-slot.js';
import { startIngest, type IngestHandle } from '../ingest/run.js';
import { createSimSource, DEFAULT_SIM_OPTIONS } from '../ingest/sources/sim/index.js';
import type { SlotBatch } from '../ingest/source.js';
import { SubscribeUpdateCodec } from '../ingest/sources/yellowstone/geyser-service.js';
import { subscribeUpdatesOf } from './support/yellowstone/updates-of.js';
import { makeConfig } from '../cli/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { registry, startMetricsServer, type MetricsServer } from '../platform/metrics.js';
import { decodeRecord, type TransactionEvent } from '../schemas/codec.js';
import { readU64Key, topicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { readTopics } from './support/kafka/read-topics.js';
import { startReplayServer, type RecordedUpdate, type ReplayServer } from './support/yellowstone/replay-server.js';
import { ingestSection } from '../cli/config-sections.js';

function captureLog(): { log: Logger; entries: Record<string, unknown>[] } {
  const entries: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString().split('\n')) if (line) entries.push(JSON.parse(line) as Record<string, unknown>);
      cb();
    },
  });
  return { log: pino({ level: 'info' }, sink), entries };
}

const gauge = async (name: string): Promise<number> => Number((await registry.getSingleMetric(name)?.get())?.values[0]?.value ?? NaN);

describe('--source yellowstone: dead letters, lag and /health', () => {
  let kafka: Kafka;
  let server: ReplayServer;
  let metrics: MetricsServer;
  let handle: IngestHandle | undefined;
  let batches: SlotBatch[];

  beforeAll(async () => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'yellowstone-operations-test' });
    metrics = await startMetricsServer('127.0.0.1', 0);
    const sim = createSimSource({
      ...DEFAULT_SIM_OPTIONS,
      seed: 5,
      slotMs: 0,
      tps: 60,
      skipRate: 0,
      deadRate: 0,
      slotsPerEpoch: 64,
      validators: 4,
      fast: true,
      maxSlots: 24,
    });
    batches = [];
    for await (const b of sim.batches({})) batches.push(b);
  });

  afterAll(async () => {
    await handle?.stop();
    await server?.close();
    await metrics?.close();
    await kafka?.close();
  });

  it('dead-letters an unconvertible transaction with slot and signature, publishes the rest, then reports the stalled upstream as behind', async () => {
    const recording: RecordedUpdate[] = batches.flatMap((b) => subscribeUpdatesOf(b).map((update) => ({ slot: b.slot, update })));
    // One transaction in the middle of the chain loses its meta: the conversion cannot take it.
    const brokenAt = recording.findIndex((r) => r.update.transaction && r.slot! >= 12n && r.update.transaction.transaction!.index === '1');
    const broken = recording[brokenAt]!;
    const brokenSlot = broken.slot!;
    const brokenSig = bs58.encode(broken.update.transaction!.transaction!.signature);
    broken.update = {
      ...broken.update,
      transaction: { ...broken.update.transaction!, transaction: { ...broken.update.transaction!.transaction!, meta: undefined } },
    };
    server = await startReplayServer({ recording, firstAvailable: batches[0]!.slot });

    const prefix = uniquePrefix('ys-ops');
    const cfg = makeConfig('ingest', {
      source: 'yellowstone',
      yellowstoneUrl: [server.url],
      yellowstoneBackoffMs: 20,
      kafkaBrokers: testBrokers(),
      topicPrefix: prefix,
      partitions: 2,
      retentionMs: 3_600_000,
      ingestStallMs: 3_000,
      ingestMaxLagSlots: 5,
    });
    const { log, entries } = captureLog();
    const infra = await connectKafka(cfg, log);
    try {
      handle = await startIngest(ingestSection(cfg), log, infra);
      const last = batches.at(-1)!.slot;
      await waitFor(async () => (await lastPublishedSlot(kafka, topicNames(prefix))) === last, {
        what: `slot ${last} in Kafka`,
        timeoutMs: 300_000,
        intervalMs: 100,
      });
      // Caught up: /health ok (the stall limit is 3 s; the last update came just now), nothing behind (the
      // health check refreshes the gauges).
      expect(await (await fetch(`http://127.0.0.1:${metrics.port}/health`)).text()).toBe('ok');
      expect(await gauge('slotstream_ingest_lag_slots')).toBe(0);

      const t = topicNames(prefix);
      const c = await readTopics(kafka, [t.deadletter, t.transactions]);
      const dead = c.get(t.deadletter)!.flat();
      expect(dead).toHaveLength(1);
      const d = dead[0]!;
      expect(readU64Key(d.key)).toBe(brokenSlot);
      expect(d.headers).toMatchObject({
        'slotstream-reason': `unconvertible: transaction ${brokenSlot}/1: no meta`,
        'slotstream-topic': t.transactions,
        'slotstream-slot': String(brokenSlot),
        'slotstream-signature': brokenSig,
        'slotstream-format': 'geyser.SubscribeUpdate',
      });
      // The update as it came: Yellowstone's codec reads it back, signature and all.
      const back = SubscribeUpdateCodec.decode(d.value);
      expect(bs58.encode(back.transaction!.transaction!.signature)).toBe(brokenSig);
      expect(back.transaction!.transaction!.meta).toBeUndefined();

      // Every other transaction of the published slots is there; the broken slot was not held back.
      const published = new Set(
        c
          .get(t.transactions)!
          .flat()
          .map((r) => {
            const e = decodeRecord('transactions', r.value);
            if (!e.ok) throw new Error(e.reason);
            const tx = e.value.event as TransactionEvent;
            return `${tx.slot}/${tx.index}`;
          }),
      );
      const slotsIn = new Set([...published].map((k) => k.split('/')[0]));
      const want = batches
        .filter((b) => slotsIn.has(String(b.slot)))
        .flatMap((b) => b.events.flatMap((e) => (e.kind === 'transactions' ? [`${e.event.slot}/${e.event.index}`] : [])));
      expect(slotsIn.has(String(brokenSlot))).toBe(true);
      expect([...published].sort()).toEqual(want.filter((k) => k !== `${brokenSlot}/1`).sort());
      const line = entries.find((e) => e.what === 'transaction' && e.signature === brokenSig);
      expect(line?.msg).toBe(
        `yellowstone source: unconvertible transaction (slot ${brokenSlot}, signature ${brokenSig}) sent to ${t.deadletter}: transaction ${brokenSlot}/1: no meta`,
      );

      // The server has sent everything and stays silent: after 3 s the upstream counts as stalled.
      await waitFor(async () => (await (await fetch(`http://127.0.0.1:${metrics.port}/health`)).text()) === 'behind', {
        what: '/health behind',
        timeoutMs: 300_000,
        intervalMs: 200,
      });
      expect(await gauge('slotstream_ingest_behind')).toBe(1);
      // The line saying why: it names the stalled tip. It need not be the first `behind` line: on a busy
      // machine the ingest may have been behind earlier, rightly (the upstream silent for 3 s after the source
      // subscribed, or the ingest trailing the replayed chain by more than 5 slots), and caught up since.
      const stalled = new RegExp(
        `^yellowstone source: behind: the upstream's tip \\(slot ${last}\\) has not advanced for \\d+ ms \\(limit 3000 ms\\)$`,
      );
      await waitFor(() => entries.some((e) => typeof e.msg === 'string' && stalled.test(e.msg)), {
        what: 'the log line naming the stalled tip',
        timeoutMs: 300_000,
        intervalMs: 100,
      });
    } finally {
      await handle?.stop();
      handle = undefined;
      await infra.kafka.close();
    }
    // Stopped: the check leaves /health with the ingest.
    expect(await (await fetch(`http://127.0.0.1:${metrics.port}/health`)).text()).toBe('ok');
  });
});

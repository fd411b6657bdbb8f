// Ingest while its broker goes away and comes back: publishing retries with backoff, the source
// waits, and once the broker is back every slot is in Kafka exactly once. Uses a broker of its own
// (the shared one of the test run must stay up), restarted on the same data folder and ports.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, expect, it } from 'vitest';
import { startLocalKafka, type LocalKafka } from '../deploy/kafka/launcher.js';
import { startIngest } from '../ingest/run.js';
import { makeConfig } from '../platform/config.js';
import { createKafka } from '../platform/kafka.js';
import { decodeRecord, SlotStatus } from '../schemas/codec.js';
import { topicNames } from '../schemas/topics.js';
import { uniquePrefix, waitFor } from './harness/kafka.js';
import { readTopics } from './harness/read-topics.js';

const started: LocalKafka[] = [];
let dataDir: string | undefined;

afterAll(async () => {
  for (const k of started) await k.stop().catch(() => {});
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('keeps every slot, exactly once, across a broker restart', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'slotstream-kafka-away-'));
  const first = await startLocalKafka({ nodes: 1, dataDir, keepData: true });
  started.push(first);

  const entries: Record<string, unknown>[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const line of chunk.toString().split('\n')) if (line) entries.push(JSON.parse(line) as Record<string, unknown>);
        cb();
      },
    }),
  );
  const prefix = uniquePrefix('ingest-away');
  const maxSlots = 300;
  const config = makeConfig('ingest', {
    kafkaBrokers: first.brokers,
    topicPrefix: prefix,
    partitions: 2,
    seed: 11,
    slotMs: 20,
    tps: 50,
    validators: 4,
    slotsPerEpoch: 64,
    fast: true,
    maxSlots,
  });
  const ingest = await startIngest(config, log);
  const slotsTopic = topicNames(prefix).slots;
  const kafka = createKafka(first.brokers, 'ingest-away-test');
  const admin = kafka.admin();
  await admin.connect();
  await waitFor(async () => (await admin.fetchTopicOffsets(slotsTopic)).reduce((n, p) => n + Number(p.high), 0) >= 60, {
    what: 'ingest to publish some slots',
    timeoutMs: 60_000,
  });
  await admin.disconnect();

  await first.stop();
  await waitFor(() => entries.some((e) => e.msg === 'ingest: Kafka publish failed; retrying'), {
    what: 'ingest to notice the broker is gone and retry',
    timeoutMs: 60_000,
  });
  const second = await startLocalKafka({ nodes: 1, dataDir, keepData: false });
  started.push(second);
  expect(second.brokers).toEqual(first.brokers);

  await ingest.done;
  expect(entries.some((e) => e.msg === 'ingest: Kafka publish recovered')).toBe(true);

  const records = (await readTopics(createKafka(second.brokers, 'ingest-away-read'), [slotsTopic])).get(slotsTopic)!.flat();
  const happened = records
    .map((r) => decodeRecord('slots', r.value))
    .flatMap((d) => (d.ok && d.value.kind === 'slots' ? [d.value.event] : []))
    .filter((s) => s.status === SlotStatus.SLOT_STATUS_PROCESSED || s.status === SlotStatus.SLOT_STATUS_SKIPPED)
    .map((s) => Number(s.slot))
    .sort((a, b) => a - b);
  expect(happened).toEqual(Array.from({ length: maxSlots }, (_, i) => i));
});

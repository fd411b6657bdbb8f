// Two ingests on one topic prefix with one name (a real broker): the second stands by (ingest/publish/name-claim.ts),
// the first keeps publishing (no fencing war); once the first stops cleanly, the standby takes over at once.
// Takeover after a kill, and a fenced zombie: test/ingest-standby.int.test.ts.
import { pino, type Logger } from 'pino';
import { capturedLog, type CapturedLog } from './support/harness/captured-log.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKafka } from '../cli/infrastructure.js';
import { lastPublishedSlot } from './support/ingest/last-published-slot.js';
import { startIngest, type IngestHandle } from '../ingest/run.js';
import { makeConfig, type Config } from '../cli/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { topicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { ingestSection } from '../cli/config-sections.js';

const silent = pino({ level: 'silent' });

describe('ingest name', () => {
  let kafka: Kafka;
  const handles: IngestHandle[] = [];
  const closers: (() => Promise<void>)[] = [];

  beforeAll(() => {
    kafka = createKafka({ brokers: testBrokers(), clientId: 'ingest-name-test' });
  });
  afterAll(async () => {
    for (const h of handles) await h.stop();
    for (const c of closers) await c();
    await kafka?.close();
  });

  const config = (prefix: string, name = 'main'): Config =>
    makeConfig('ingest', {
      kafkaBrokers: testBrokers(),
      topicPrefix: prefix,
      partitions: 2,
      retentionMs: 3_600_000,
      slotMs: 50,
      tps: 20,
      fast: true,
      ingestName: name,
    });

  async function startWith(cfg: Config, log: Logger): Promise<IngestHandle> {
    const infra = await connectKafka(cfg, log);
    closers.push(() => infra.kafka.close());
    const h = await startIngest(ingestSection(cfg), log, infra);
    handles.push(h);
    return h;
  }
  const saw = (c: CapturedLog, text: string): boolean => c.lines.some((l) => String(l.msg).includes(text));
  const start = (cfg: Config): Promise<IngestHandle> => startWith(cfg, silent);

  const last = async (prefix: string) => (await lastPublishedSlot(kafka, topicNames(prefix))) ?? -1n;

  it('a second ingest of the same name on the same prefix stands by, leaves the first publishing and takes over at once after its clean stop', async () => {
    const prefix = uniquePrefix('ingest-name');
    const firstLog = capturedLog();
    const first = await startWith(config(prefix), firstLog.log);
    await waitFor(async () => (await last(prefix)) >= 5n, { what: 'the first ingest publishing', timeoutMs: 300_000 });

    const standby = capturedLog();
    const second = await startWith(config(prefix), standby.log);
    await waitFor(() => saw(standby, 'standing by to take over'), {
      what: 'the second ingest standing by',
      timeoutMs: 300_000,
    });

    // The first is never fenced: it goes on committing, and the standby publishes nothing.
    const at = await last(prefix);
    await waitFor(async () => (await last(prefix)) > at + 5n, { what: 'the first ingest still publishing', timeoutMs: 300_000 });
    let failed: unknown;
    void first.done.catch((e: unknown) => (failed = e));
    void second.done.catch((e: unknown) => (failed = e));
    expect(failed).toBeUndefined();
    expect(saw(standby, 'name main claimed')).toBe(false);

    // Another name on another prefix is no conflict.
    const other = uniquePrefix('ingest-name-other');
    await start(config(other, 'backfill-1'));
    await waitFor(async () => (await last(other)) >= 0n, { what: 'an ingest of another prefix publishing', timeoutMs: 300_000 });

    // A clean stop says the name is free: the standby takes it without waiting for a silent heartbeat, and resumes.
    await first.stop();
    const stoppedAt = await last(prefix);
    await waitFor(() => saw(standby, 'name main claimed'), { what: 'the standby taking over', timeoutMs: 300_000 });
    expect(saw(standby, 'stopped beating'), JSON.stringify(firstLog.lines.slice(-5))).toBe(false);
    await waitFor(async () => (await last(prefix)) > stoppedAt, { what: 'the standby publishing', timeoutMs: 300_000 });
  });
});

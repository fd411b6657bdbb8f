// Two ingests on one topic prefix with one name (a real broker): the second is a configuration error and
// exits with a message naming the name and the prefix, the first keeps publishing (no fencing war); once
// the first stops, the name is free at once. The CLI reports the error as a config error (exit code 2).
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectKafka } from '../cli/infrastructure.js';
import { IngestNameInUseError } from '../ingest/publish/name-claim.js';
import { lastPublishedSlot } from './support/ingest/last-published-slot.js';
import { startIngest, type IngestHandle } from '../ingest/run.js';
import { makeConfig, type Config } from '../platform/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { topicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { ingestSection } from '../platform/config-sections.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
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

  async function start(cfg: Config, log = silent): Promise<IngestHandle> {
    const infra = await connectKafka(cfg, log);
    closers.push(() => infra.kafka.close());
    const h = await startIngest(ingestSection(cfg), log, infra);
    handles.push(h);
    return h;
  }

  const last = async (prefix: string) => (await lastPublishedSlot(kafka, topicNames(prefix))) ?? -1n;

  it('refuses a second ingest of the same name on the same prefix and leaves the first publishing', async () => {
    const prefix = uniquePrefix('ingest-name');
    const first = await start(config(prefix));
    await waitFor(async () => (await last(prefix)) >= 5n, { what: 'the first ingest publishing', timeoutMs: 60_000 });

    const t0 = Date.now();
    const second = start(config(prefix));
    await expect(second).rejects.toBeInstanceOf(IngestNameInUseError);
    await expect(second).rejects.toThrow(`ingest name "main" is in use on topic prefix "${prefix}"`);
    // It waited for a possibly dead holder's session (6 s) before calling the name taken.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(6_000);

    // The first was never fenced: it goes on committing.
    const at = await last(prefix);
    await waitFor(async () => (await last(prefix)) > at + 5n, { what: 'the first ingest still publishing', timeoutMs: 30_000 });
    let failed: unknown;
    void first.done.catch((e: unknown) => (failed = e));
    expect(failed).toBeUndefined();

    // Another name on another prefix is no conflict.
    const other = uniquePrefix('ingest-name-other');
    await start(config(other, 'backfill-1'));
    await waitFor(async () => (await last(other)) >= 0n, { what: 'an ingest of another prefix publishing', timeoutMs: 60_000 });

    // A clean stop leaves the group: the same name starts again without waiting and resumes.
    await first.stop();
    const stoppedAt = await last(prefix);
    // Told by what it logs, not by the clock (a busy machine may take seconds to start an ingest anyway): it never
    // waited for a holder's session.
    const messages: string[] = [];
    const recording = pino({ level: 'info' }, { write: (line: string) => void messages.push(String(JSON.parse(line).msg)) });
    await start(config(prefix), recording);
    expect(messages.filter((m) => m.includes('is held; waiting'))).toEqual([]);
    expect(messages.some((m) => m.startsWith('ingest: name main claimed'))).toBe(true);
    await waitFor(async () => (await last(prefix)) > stoppedAt, { what: 'the restarted ingest publishing', timeoutMs: 60_000 });
  });

  it('the CLI exits with code 2 and the configuration error when the name is taken', async () => {
    const prefix = uniquePrefix('ingest-name-cli');
    await start(config(prefix, 'relay'));
    await waitFor(async () => (await last(prefix)) >= 0n, { what: 'the first ingest publishing', timeoutMs: 60_000 });
    const args = [
      '--import',
      'tsx',
      join(ROOT, 'cli', 'main.ts'),
      'ingest',
      '--kafka-brokers',
      testBrokers().join(','),
      '--topic-prefix',
      prefix,
      '--partitions',
      '2',
      '--ingest-name',
      'relay',
      '--metrics-port',
      '0',
      '--log-format',
      'json',
    ];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    closers.push(async () => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((res) => child.once('exit', (c) => res(c)));
    expect(code, stderr.slice(-2000)).toBe(2);
    expect(stderr).toContain(`slotstream ingest: ingest name \\"relay\\" is in use on topic prefix \\"${prefix}\\"`);
    expect(stderr).toContain('Two ingests on one prefix with one name is a configuration error');
  });
});

// The projector against a real broker and embedded ClickHouse: every view equals an independent
// computation from the same events, poison records are dead-lettered, a rebuild under load and two
// instances sharing the partitions give the same views.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { makeConfig, type Config } from '../cli/config.js';
import { createKafka, OffsetMap, type Kafka } from '../platform/kafka/index.js';
import { applyMigrations } from '../platform/migrations.js';
import { silentLogger } from '../platform/log.js';
import { registry } from '../platform/metrics.js';
import { topicNames, type TopicNames } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from '../test/support/harness/kafka.js';
import { rebuildViews, startProjector } from './run.js';
import { makeChain, PROGRAMS } from '../test/support/projector/chain.js';
import { dumpViews, heads, kafkaLag } from '../test/support/projector/dump.js';
import { b58 } from '../test/support/projector/events.js';
import { expectedViews, type ViewDump } from '../test/support/projector/expected.js';
import { consumeAll, publishChain } from '../test/support/projector/kafka.js';
import { projectorSection } from '../cli/config-sections.js';

const programs = PROGRAMS.map((p) => b58(p));
let dir: string;
let ch: ClickHouseClient;
let kafka: Kafka;
let topics: TopicNames;
let prefix: string;

const configFor = (database: string, groupId: string): Config =>
  makeConfig('projector', {
    kafkaBrokers: testBrokers(),
    topicPrefix: prefix,
    partitions: 3,
    clickhouseDatabase: database,
    groupId,
    batchRows: 400,
    batchMs: 50,
    logLevel: 'silent',
  });

async function expected(): Promise<ViewDump> {
  return expectedViews(await consumeAll(kafka, topics), programs);
}

/** Waits until the views hold everything in Kafka (lag 0, heads at the expected slots), then dumps them. */
async function caughtUpViews(database: string, want: ViewDump): Promise<ViewDump> {
  await waitFor(
    async () => {
      const lag = await kafkaLag(ch, database);
      const got = await heads(ch, database);
      return lag === 0n && JSON.stringify(got) === JSON.stringify(want.heads);
    },
    { what: `views of ${database} caught up`, timeoutMs: 300_000, intervalMs: 200 },
  );
  return dumpViews(ch, database, programs);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'projector-int-'));
  ch = await createClickHouse({ dataDir: dir, database: 'projector_int' });
  prefix = uniquePrefix('projector');
  topics = topicNames(prefix);
  kafka = createKafka({ brokers: testBrokers(), clientId: 'projector-int-test' });
  await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
  for (const db of ['v_one', 'v_two']) {
    await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
    await applyMigrations(ch, db);
  }
});

afterAll(async () => {
  await kafka?.close();
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('projector', () => {
  it('projects a chain exactly, dead-letters a poison record and goes on', async () => {
    await publishChain(kafka, topics, makeChain({ slots: 120, txPerSlot: 12, seed: 7 }));
    const producer = await kafka.producer();
    await producer.send([{ topic: topics.transactions, key: Buffer.alloc(8), value: Buffer.from([0xff, 0xff, 0xff]) }]);
    await producer.close();
    await publishChain(kafka, topics, makeChain({ slots: 80, txPerSlot: 12, seed: 8, firstSlot: 121 }));

    const want = await expected();
    // The chain exercises what the account views must get right.
    expect(want['accounts:processed']).not.toEqual(want['accounts:finalized']);
    expect(want.transactions?.length).toBeGreaterThan(500);

    const projector = await startProjector(projectorSection(configFor('v_one', 'g-one')), silentLogger, { ch, kafka, topics });
    try {
      const got = await caughtUpViews('v_one', want);
      expect(got).toEqual(want);
      // What an operator's Prometheus reads (deploy/prometheus/): the heads and the lag as the heads table has them,
      // the events stored and the one dead letter.
      const metric = async (name: string) =>
        (await registry.getSingleMetric(name)!.get()).values.filter((v) => v.labels.database === 'v_one');
      await waitFor(
        async () => {
          const gauges = (await metric('slotstream_projector_head_slot')).map((v) => `${v.labels.commitment}|${v.value}`).sort();
          const lag = (await metric('slotstream_projector_kafka_lag_records'))[0]?.value;
          return lag === 0 && JSON.stringify(gauges) === JSON.stringify(want.heads);
        },
        { what: 'the projector gauges at the heads, lag 0', timeoutMs: 300_000 },
      );
      expect((await metric('slotstream_projector_dead_letters_total'))[0]?.value).toBe(1);
      expect((await metric('slotstream_projector_events_total'))[0]?.value).toBeGreaterThan(want.transactions!.length);
    } finally {
      await projector.stop();
    }

    const dead = await consumeDeadLetters();
    expect(dead).toEqual([
      { reason: expect.stringMatching(/^undecodable transactions record/), topic: topics.transactions, value: 'ffffff' },
    ]);
  });

  it('rebuilds into fresh tables while the projector runs and new slots arrive, with identical views', async () => {
    const projector = await startProjector(projectorSection(configFor('v_one', 'g-one')), silentLogger, { ch, kafka, topics });
    try {
      const publishing = publishChain(kafka, topics, makeChain({ slots: 60, txPerSlot: 12, seed: 9, firstSlot: 201 }), 2);
      await rebuildViews(projectorSection(configFor('v_one', 'g-one')), silentLogger, { ch, kafka, topics });
      await publishing;
      const want = await expected();
      expect(await caughtUpViews('v_one', want)).toEqual(want);
      const shadow = await ch.query({
        query: `SELECT count() AS n FROM system.databases WHERE name = 'v_one_rebuild'`,
        format: 'JSONEachRow',
      });
      expect(await shadow.json()).toEqual([{ n: '0' }]);
    } finally {
      await projector.stop();
    }
  });

  it('two instances in one process split the partitions and give the same views as one', async () => {
    const a = await startProjector(projectorSection(configFor('v_two', 'g-two')), silentLogger, { ch, kafka, topics });
    const b = await startProjector(projectorSection(configFor('v_two', 'g-two')), silentLogger, { ch, kafka, topics });
    try {
      await waitFor(
        async () => {
          const g = await kafka.admin().describeGroup('g-two');
          return g.state === 'Stable' && g.members === 2;
        },
        { what: 'two members in the group', timeoutMs: 300_000 },
      );
      const want = await expected();
      expect(await caughtUpViews('v_two', want)).toEqual(want);
      expect(await dumpViews(ch, 'v_one', programs)).toEqual(want);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

async function consumeDeadLetters(): Promise<{ reason: string; topic: string; value: string }[]> {
  const out: { reason: string; topic: string; value: string }[] = [];
  const reader = await kafka.partitionReader({
    topics: [topics.deadletter],
    start: OffsetMap.of([[topics.deadletter, 0, 0n]]),
    purpose: 'dlq-test',
    onRecords: (records) => {
      for (const r of records)
        out.push({
          reason: String(r.headers?.['slotstream-reason']),
          topic: String(r.headers?.['slotstream-topic']),
          value: r.value!.toString('hex'),
        });
    },
  });
  await waitFor(() => out.length >= 1, { what: 'the dead letter', timeoutMs: 300_000 });
  await reader.stop();
  return out;
}

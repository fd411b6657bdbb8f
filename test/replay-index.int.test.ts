// The replay index covers every topic the ingest publishes: the real ingest (simulator, pump.fun traffic)
// publishes, the real projector indexes, and a from_slot replay of the entries and parsed topics (what blocks
// and SubscribeParsed replays read) starts at the first record of its slot in each partition instead of
// scanning from the log start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { planReplay } from '../api/live/replay.js';
import { clickHouseViews } from '../api/live/views-clickhouse.js';
import { connectKafka } from '../cli/infrastructure.js';
import { startIngest } from '../ingest/run.js';
import { createClickHouse } from '../platform/clickhouse.js';
import { makeConfig } from '../cli/config.js';
import { ingestSection, projectorSection } from '../cli/config-sections.js';
import { silentLogger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import { startProjector } from '../projector/run.js';
import type { TopicKind } from '../schemas/topics.js';
import { testBrokers, uniquePrefix, waitFor } from './support/harness/kafka.js';
import { kafkaLag } from './support/projector/dump.js';
import { readTopics } from './support/grpc/clients.js';

const dir = mkdtempSync(join(tmpdir(), 'replay-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('entries and parsed records are indexed: a replay starts at its slot in them, scanning nothing', async () => {
  const prefix = uniquePrefix('replay-index');
  const common = { kafkaBrokers: testBrokers(), topicPrefix: prefix, partitions: 3, logLevel: 'silent' } as const;
  const ch = await createClickHouse({ dataDir: join(dir, 'ch'), database: 'idx' });
  await applyMigrations(ch, 'idx');
  const projectorConfig = makeConfig('projector', { ...common, clickhouseDatabase: 'idx', groupId: 'g-idx', batchRows: 2000, batchMs: 50 });
  const { kafka, topics } = await connectKafka(projectorConfig, silentLogger);
  try {
    const projector = await startProjector(projectorSection(projectorConfig), silentLogger, { ch, kafka, topics });
    try {
      const ingest = await startIngest(
        // 40 slots at 100 tx/s: ~1,200 entries and ~120 parsed records on each side of from_slot 20, all three
        // partitions holding both (120 slots at 200 tx/s showed the same offsets for six times the CPU).
        ingestSection(makeConfig('ingest', { ...common, source: 'sim', seed: 5, slotMs: 0, tps: 100, maxSlots: 40, fast: true })),
        silentLogger,
        { kafka, topics },
      );
      await ingest.done;
      await waitFor(async () => (await kafkaLag(ch, 'idx')) === 0n, {
        what: 'the projector to catch up',
        timeoutMs: 300_000,
        intervalMs: 200,
      });
    } finally {
      await projector.stop();
    }
    const records = await readTopics(kafka, topics);
    const fromSlot = 20n;
    for (const kind of ['entries', 'parsed'] as const satisfies readonly TopicKind[]) {
      const topic = topics[kind];
      const held = records.flatMap((r) =>
        r.topic === topic && (r.event.kind === 'entries' || r.event.kind === 'parsed')
          ? [{ partition: r.partition, offset: r.offset, slot: r.event.event.slot }]
          : [],
      );
      // Enough records on each side of from_slot for the start offsets to say something.
      expect(held.filter((r) => r.slot < fromSlot).length, `${kind} records before slot ${fromSlot}`).toBeGreaterThan(30);
      expect(held.filter((r) => r.slot >= fromSlot).length, `${kind} records from slot ${fromSlot}`).toBeGreaterThan(30);
      const plan = await planReplay({ kafka, topics, kinds: [kind], views: clickHouseViews(ch, 'idx'), fromSlot });
      expect(plan.scanned).toEqual([]);
      // Per partition: the first offset holding a slot >= from_slot (slots are published in order, so every
      // record before it belongs to an earlier slot).
      for (const partition of [0, 1, 2]) {
        const mine = held.filter((r) => r.partition === partition).sort((a, b) => (a.offset < b.offset ? -1 : 1));
        const first = mine.find((r) => r.slot >= fromSlot);
        expect(first, `${kind}/${partition} has records from slot ${fromSlot}`).toBeDefined();
        // ... and before it, so the start offset is not simply the log start.
        expect(mine[0]!.slot, `${kind}/${partition} has records before slot ${fromSlot}`).toBeLessThan(fromSlot);
        expect(mine.filter((r) => r.offset > first!.offset).every((r) => r.slot >= fromSlot)).toBe(true);
        expect(plan.start.get(topic, partition), `${kind}/${partition} start offset`).toBe(first!.offset);
      }
    }
  } finally {
    await kafka.close();
    await ch.close();
  }
});

// The projector fed by the real ingest (simulator -> publisher -> Kafka), projecting while the ingest
// publishes: every view equals the independent computation from the records in Kafka.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { afterAll, expect, it } from 'vitest';
import { startIngest } from '../ingest/run.js';
import { createClickHouse } from '../platform/clickhouse.js';
import { makeConfig } from '../cli/config.js';
import { connectKafka } from '../cli/infrastructure.js';
import { applyMigrations } from '../platform/migrations.js';
import { silentLogger } from '../platform/log.js';
import { testBrokers, uniquePrefix, waitFor } from '../test/support/harness/kafka.js';
import { startProjector } from './run.js';
import { dumpViews, heads, kafkaLag } from '../test/support/projector/dump.js';
import { expectedViews } from '../test/support/projector/expected.js';
import { consumeAll } from '../test/support/projector/kafka.js';
import { projectorSection } from '../cli/config-sections.js';
import { ingestSection } from '../cli/config-sections.js';

const dir = mkdtempSync(join(tmpdir(), 'projector-sim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('after the simulator ran, every view equals an independent computation from the same events', async () => {
  const prefix = uniquePrefix('projector-sim');
  const common = { kafkaBrokers: testBrokers(), topicPrefix: prefix, partitions: 3, logLevel: 'silent' } as const;
  const ch = await createClickHouse({ dataDir: join(dir, 'ch'), database: 'sim' });
  await applyMigrations(ch, 'sim');
  const projectorConfig = makeConfig('projector', { ...common, clickhouseDatabase: 'sim', groupId: 'g-sim', batchRows: 2000, batchMs: 50 });
  const { kafka, topics } = await connectKafka(projectorConfig, silentLogger);
  try {
    const projector = await startProjector(projectorSection(projectorConfig), silentLogger, { ch, kafka, topics });
    try {
      const ingest = await startIngest(
        ingestSection(
          makeConfig('ingest', {
            ...common,
            source: 'sim',
            seed: 3,
            slotMs: 0,
            // 140 slots cross two epoch boundaries (epochs of 64: three epochs, the last one part-way); 60 tx/s keeps
            // the ~8,000 transactions (and their writes) quick to project and to recompute independently. (300 slots at
            // 100 tx/s, four boundaries and 30,000 transactions, checked nothing more for twice the CPU:
            // what is compared here is each view against its independent computation, not a size.)
            tps: 60,
            maxSlots: 140,
            fast: true,
            slotsPerEpoch: 64,
            validators: 8,
          }),
        ),
        silentLogger,
        { kafka, topics },
      );
      await ingest.done;
      const records = await consumeAll(kafka, topics);
      const owners = new Map<string, number>();
      for (const r of records) {
        if (r.event.kind === 'accounts') {
          const o = bs58.encode(r.event.event.owner);
          owners.set(o, (owners.get(o) ?? 0) + 1);
        }
      }
      const programs = [...owners.keys()].sort();
      const want = expectedViews(records, programs);
      expect(want.transactions?.length).toBeGreaterThan(1000);
      expect(programs.length).toBeGreaterThan(1);
      // The run crossed epoch boundaries: the epochs view has more than one epoch to get right.
      expect(want.epochs?.length).toBeGreaterThanOrEqual(3);
      await waitFor(
        async () => (await kafkaLag(ch, 'sim')) === 0n && JSON.stringify(await heads(ch, 'sim')) === JSON.stringify(want.heads),
        {
          what: 'the views to catch up with the simulator',
          timeoutMs: 300_000,
          intervalMs: 200,
        },
      );
      const got = await dumpViews(ch, 'sim', programs);
      for (const key of Object.keys(want)) expect(got[key], key).toEqual(want[key]);
    } finally {
      await projector.stop();
    }
  } finally {
    await kafka.close();
    await ch.close();
  }
});

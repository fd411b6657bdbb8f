// npx tsx bench/projector-idle.ts: the CPU of an idle projector. A short chain is published and projected, then
// nothing more arrives; the process's CPU over the next BENCH_IDLE_SECONDS (default 20) is what the projector costs
// while it waits (its consumer's polling and the heads tracker's steps; heads.ts HeadsQuiet skips the views then).
// Uses KAFKA_BROKERS when set, otherwise starts a local broker. Last line: projector_idle_cpu_ms_per_s=<n>.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClickHouse } from '../platform/clickhouse.js';
import { createKafka } from '../platform/kafka/index.js';
import { startLocalKafka, type LocalKafka } from '../platform/local-kafka/launcher.js';
import { createLogger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import { startViewWriter } from '../projector/writer.js';
import { topicNames } from '../schemas/topics.js';
import { makeChain } from '../test/support/projector/chain.js';
import { publishChain } from '../test/support/projector/kafka.js';

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 20);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  let local: LocalKafka | undefined;
  const brokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean) ?? [];
  if (brokers.length === 0) {
    local = await startLocalKafka({ nodes: 1 });
    brokers.push(...local.brokers);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-projector-idle-'));
  const log = createLogger('warn', 'bench-projector-idle');
  const prefix = `bench.idle.${Date.now().toString(36)}`;
  const topics = topicNames(prefix);
  const kafka = createKafka({ brokers, clientId: 'bench-projector-idle', log });
  const ch = await createClickHouse({ dataDir: dir, database: 'idle' });
  try {
    await kafka.admin().ensureTopics(topics, { partitions: 3, retentionMs: -1, replicationFactor: 1 });
    await publishChain(kafka, topics, makeChain({ slots: 20, txPerSlot: 5, seed: 1 }));
    await applyMigrations(ch, 'idle');
    const writer = await startViewWriter({ kafka, ch, topics, database: 'idle', groupId: `g.${prefix}`, log, batchRows: 300, batchMs: 50 });
    await sleep(10_000); // the chain projected and its heads published
    const c0 = process.cpuUsage();
    await sleep(IDLE_SECONDS * 1000);
    const c = process.cpuUsage(c0);
    await writer.stop();
    const perSecond = (c.user + c.system) / 1000 / IDLE_SECONDS;
    console.log(`projector_idle_cpu_ms_per_s=${perSecond.toFixed(1)}`);
  } finally {
    await kafka.close();
    await ch.close();
    await local?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

// Projector benchmark: events/s from Kafka into embedded ClickHouse, and the time to rebuild the views
// from a history of BENCH_TXS transactions (default 1,000,000) with their account writes.
// Uses KAFKA_BROKERS when set, otherwise starts a local broker. BENCH_INSERT_FORMAT (RowBinary, the default, or
// TabSeparated) picks the measured writer's insert format (the rebuild uses the default). Last line:
//   projector events_per_s=<N> rebuild_1m_s=<S>
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { startLocalKafka, type LocalKafka } from '../platform/local-kafka/launcher.js';
import { createClickHouse } from '../platform/clickhouse.js';
import { makeConfig } from '../cli/config.js';
import { createKafka, type Kafka } from '../platform/kafka/index.js';
import { createLogger, silentLogger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import { RECORD_KINDS, topicNames } from '../schemas/topics.js';
import { endOffsets } from '../projector/offsets.js';
import { catchUp } from '../projector/rebuild.js';
import { rebuildViews } from '../projector/run.js';
import { makeChain, type SlotBatch } from '../test/support/projector/chain.js';
import { publishChain } from '../test/support/projector/kafka.js';
import { startViewWriter } from '../projector/writer.js';
import { INSERT_FORMAT, type InsertFormat } from '../projector/runner.js';
import { projectorSection } from '../cli/config-sections.js';

const TXS = Number(process.env.BENCH_TXS ?? 1_000_000);
const TX_PER_SLOT = 400; // 200 on average
const WRITES_PER_TX = 2;
const PARTITIONS = Number(process.env.BENCH_PARTITIONS ?? 4);
/** The inserts' format for the measured writer (A/B: BENCH_INSERT_FORMAT=TabSeparated | RowBinary). */
const FORMAT = (process.env.BENCH_INSERT_FORMAT ?? INSERT_FORMAT) as InsertFormat;
if (FORMAT !== 'RowBinary' && FORMAT !== 'TabSeparated')
  throw new Error(`BENCH_INSERT_FORMAT: RowBinary or TabSeparated, not ${String(FORMAT)}`);

const say = (msg: string) => process.stderr.write(`[bench:projector] ${msg}\n`);

function* chainOf(txs: number): Generator<SlotBatch> {
  let made = 0;
  for (const b of makeChain({
    slots: Number.MAX_SAFE_INTEGER,
    txPerSlot: TX_PER_SLOT,
    writesPerSlot: (TX_PER_SLOT / 2) * WRITES_PER_TX,
    accounts: 50_000,
    seed: 5,
  })) {
    if (made >= txs) return;
    made += b.events.filter((e) => e.kind === 'transactions').length;
    yield b;
  }
}

async function main(): Promise<void> {
  let local: LocalKafka | undefined;
  const brokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean) ?? [];
  if (brokers.length === 0) {
    say('starting a local Kafka broker');
    local = await startLocalKafka({ nodes: 1 });
    brokers.push(...local.brokers);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-projector-'));
  let kafka: Kafka | undefined;
  try {
    const prefix = `bench.projector.${Date.now().toString(36)}`;
    const topics = topicNames(prefix);
    kafka = createKafka({ brokers, clientId: 'bench-projector' });
    await kafka.admin().ensureTopics(topics, { partitions: PARTITIONS, retentionMs: -1, replicationFactor: 1 });

    let started = Date.now();
    const events = await publishChain(kafka, topics, chainOf(TXS), 5);
    say(`published ${events} events (${TXS} transactions) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const database = 'bench';
    const ch = await createClickHouse({ dataDir: join(dir, 'ch'), database });
    await applyMigrations(ch, database);
    const config = makeConfig('projector', {
      kafkaBrokers: brokers,
      topicPrefix: prefix,
      partitions: PARTITIONS,
      clickhouseDatabase: database,
      groupId: 'bench-projector',
      logLevel: 'silent',
    });

    // Throughput: the projector from an empty group to the end of the log.
    const admin = kafka.admin();
    const names = RECORD_KINDS.map((k) => topics[k]);
    const ends = await endOffsets(admin, names);
    // The clock starts when the first batch is stored (group join and engine warm-up excluded).
    let first: { at: number; events: number } | undefined;
    let flushMs = 0;
    let batches = 0;
    const writer = await startViewWriter({
      kafka,
      ch,
      topics,
      database,
      groupId: config.groupId,
      batchRows: config.batchRows,
      batchMs: config.batchMs,
      log: silentLogger,
      insertFormat: FORMAT,
      onBatch: (plan, ms) => {
        first ??= { at: Date.now(), events: plan.events };
        flushMs += ms;
        batches++;
      },
    });
    const cpuBefore = process.cpuUsage();
    await catchUp(admin, config.groupId, names, ends);
    const cpu = process.cpuUsage(cpuBefore);
    if (!first) throw new Error('no batch was stored');
    const projectSeconds = (Date.now() - first.at) / 1000;
    const consumed = writer.stats().events - first.events;
    const totalEvents = writer.stats().events;
    await writer.stop();
    const eventsPerS = Math.round(consumed / projectSeconds);
    say(
      `projected ${consumed} events in ${projectSeconds.toFixed(1)} s: ${eventsPerS} events/s ` +
        `(${FORMAT}, ${batches} batches, ${(flushMs / 1000).toFixed(1)} s inside ClickHouse inserts and commits; ` +
        `${Math.round(totalEvents / ((cpu.user + cpu.system) / 1e6))} events per CPU second of the process, embedded ClickHouse included)`,
    );

    // Rebuild: the whole history into fresh tables, swapped in.
    started = Date.now();
    await rebuildViews(projectorSection(config), process.env.BENCH_LOG ? createLogger('info', 'bench') : silentLogger, {
      ch,
      kafka,
      topics,
    });
    const rebuildSeconds = (Date.now() - started) / 1000;
    say(`rebuilt ${TXS} transactions with their account writes in ${rebuildSeconds.toFixed(1)} s`);

    const rs = await ch.query({ query: `SELECT count() AS n FROM ${database}.transactions FINAL`, format: 'JSONEachRow' });
    const n = (await rs.json<{ n: string }>())[0]?.n ?? '0';
    if (Number(n) !== TXS && Number(n) < TXS)
      throw new Error(`after the rebuild the views hold ${n} transactions, expected at least ${TXS}`);
    await ch.close();
    say(
      `machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const scaled = (rebuildSeconds * 1_000_000) / TXS;
    process.stdout.write(`projector events_per_s=${eventsPerS} rebuild_1m_s=${scaled.toFixed(1)}\n`);
  } finally {
    await kafka?.close();
    await local?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:projector failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});

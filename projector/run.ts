// The projector role: wires Kafka, ClickHouse, the runner, the heads tracker and the dead-letter
// sink. `rebuildViews` replays the whole history into fresh tables (see rebuild.ts).
import { join } from 'node:path';
import type { Config } from '../platform/config.js';
import { createClickHouse, type ClickHouseClient } from '../platform/clickhouse.js';
import { createKafka, ensureTopics } from '../platform/kafka.js';
import type { Logger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import { topicNames } from '../schemas/topics.js';
import { startViewWriter } from './writer.js';
import { rebuild } from './rebuild.js';

export interface ProjectorOptions {
  /** A client to share (the `all` role shares one embedded engine); otherwise one is created. */
  ch?: ClickHouseClient;
}

export interface Projector {
  stop(): Promise<void>;
}

async function connect(config: Config, log: Logger, opts: ProjectorOptions) {
  if (config.kafkaBrokers.length === 0) {
    throw new Error('projector: no Kafka brokers configured (--kafka-brokers / KAFKA_BROKERS)');
  }
  const owned = opts.ch === undefined;
  const ch =
    opts.ch ??
    (await createClickHouse({ url: config.clickhouseUrl, dataDir: join(config.dataDir, 'clickhouse'), database: config.clickhouseDatabase }));
  // An injected client may have been made for another database of the same engine.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(config.clickhouseDatabase)) {
    throw new Error(`projector: invalid ClickHouse database name ${JSON.stringify(config.clickhouseDatabase)}`);
  }
  await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${config.clickhouseDatabase}` });
  await applyMigrations(ch, config.clickhouseDatabase);
  const kafka = createKafka([...config.kafkaBrokers], 'slotstream-projector', { logger: log });
  const topics = topicNames(config.topicPrefix);
  await ensureTopics(kafka, topics, {
    partitions: config.partitions,
    retentionMs: config.retentionMs,
    replicationFactor: config.replicationFactor,
  });
  return { ch, owned, kafka, topics };
}

export async function startProjector(config: Config, log: Logger, opts: ProjectorOptions = {}): Promise<Projector> {
  const { ch, owned, kafka, topics } = await connect(config, log, opts);
  try {
    const writer = await startViewWriter({
      kafka, ch, topics, log,
      database: config.clickhouseDatabase,
      groupId: config.groupId,
      batchRows: config.batchRows,
      batchMs: config.batchMs,
    });
    log.info({ group: config.groupId, database: config.clickhouseDatabase }, 'projector is running');
    return {
      async stop() {
        await writer.stop();
        if (owned) await ch.close();
      },
    };
  } catch (err) {
    if (owned) await ch.close();
    throw err;
  }
}

/** `slotstream projector rebuild`: replays the history into fresh tables, then swaps them in. */
export async function rebuildViews(config: Config, log: Logger, opts: ProjectorOptions = {}): Promise<void> {
  const { ch, owned, kafka, topics } = await connect(config, log, opts);
  try {
    await rebuild({
      kafka, ch, topics, log,
      database: config.clickhouseDatabase,
      groupId: config.groupId,
      batchRows: config.batchRows,
      batchMs: config.batchMs,
    });
  } finally {
    if (owned) await ch.close();
  }
}

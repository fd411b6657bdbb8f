// The projector role: wires the runner, the heads tracker and the dead-letter sink onto the Kafka
// clients and ClickHouse client the role wiring built. `rebuildViews` replays the whole history into
// fresh tables (see rebuild.ts).
import type { ClickHouseClient } from '@clickhouse/client';
import type { Kafka } from '../platform/kafka/index.js';
import type { Logger } from '../platform/log.js';
import type { TopicNames } from '../schemas/topics.js';
import { startViewWriter } from './writer.js';
import { rebuild } from './rebuild.js';
import { applyRetention, type RetentionWindows } from './retention.js';

/** The projector's config section (projector/options.ts `PROJECTOR_SECTION`). */
export interface ProjectorOptions {
  /** The views' database (the migrations applied to it). */
  database: string;
  /** The Kafka consumer group that commits the views' offsets with them. */
  groupId: string;
  batchRows: number;
  batchMs: number;
  /** The views' windows (migration 010); undefined leaves the tables' TTLs as they are (tests). */
  retention?: RetentionWindows;
}

/** What the projector needs, built once by the role wiring (cli/roles.ts): ClickHouse with the
 * migrations applied to `options.database`, and Kafka with the topics created. */
export interface ProjectorDeps {
  ch: ClickHouseClient;
  kafka: Kafka;
  topics: TopicNames;
}

export interface Projector {
  stop(): Promise<void>;
}

export async function startProjector(options: ProjectorOptions, log: Logger, { ch, kafka, topics }: ProjectorDeps): Promise<Projector> {
  if (options.retention) await applyRetention(ch, options.database, options.retention, log);
  const writer = await startViewWriter({ kafka, ch, topics, log, ...options });
  log.info({ group: options.groupId, database: options.database }, 'projector is running');
  return { stop: () => writer.stop() };
}

/** `slotstream projector rebuild`: replays the history into fresh tables, then swaps them in. */
export async function rebuildViews(options: ProjectorOptions, log: Logger, { ch, kafka, topics }: ProjectorDeps): Promise<void> {
  await rebuild({ kafka, ch, topics, log, ...options });
}

// Rebuild: replay the whole Kafka history into fresh tables while the current ones keep serving,
// then swap them in. Steps:
//  1. a shadow database `<db>_rebuild` with the same migrations, filled by a writer of a fresh group
//     reading from the beginning, until it reached the end offsets taken when it started;
//  2. EXCHANGE every view table with its shadow (atomic per table); views (performance_samples)
//     name the live tables, so they follow;
//  3. the same group, now writing into the live names, catches up to the end offsets taken after
//     the swap: whatever the running projector had put only into the old tables lies below them.
//     Writing a record twice is harmless (tokens and table keys), missing one is not.
import type { KafkaAdmin } from '../platform/kafka/index.js';
import { applyMigrations } from '../platform/migrations.js';
import { applyRetention, type RetentionWindows } from './retention.js';
import { RECORD_KINDS } from '../schemas/topics.js';
import type { OffsetMap } from '../platform/kafka/index.js';
import { caughtUp } from './heads.js';
import { committedOffsets, endOffsets } from './offsets.js';
import { VIEW_TABLES } from './projections/rows.js';
import { startViewWriter, type ViewWriterOptions } from './writer.js';

/** The view writer's own settings (the rebuild runs view writers of its own group), plus a deadline. */
export type RebuildOptions = Pick<ViewWriterOptions, 'kafka' | 'ch' | 'topics' | 'database' | 'batchRows' | 'batchMs' | 'log'> & {
  /** The projector group; the rebuild uses its own group named after it. */
  groupId: string;
  /** Longest wait for each catch-up (default: none). */
  timeoutMs?: number;
  /** The views' windows, set on the fresh tables before they fill (projector/retention.ts). */
  retention?: RetentionWindows;
};

export interface RebuildResult {
  events: number;
  seconds: number;
}

/** Every table the projector writes, heads included (schema_migrations stays). */
export const SWAPPED_TABLES: readonly string[] = [...VIEW_TABLES, 'heads'];

export async function rebuild(o: RebuildOptions): Promise<RebuildResult> {
  const started = Date.now();
  const shadow = `${o.database}_rebuild`;
  const group = `${o.groupId}-rebuild-${Date.now().toString(36)}`;
  const topics = RECORD_KINDS.map((k) => o.topics[k]);
  const admin = o.kafka.admin();
  let events = 0;
  try {
    await o.ch.command({ query: `DROP DATABASE IF EXISTS ${shadow} SYNC` });
    await o.ch.command({ query: `CREATE DATABASE ${shadow}` });
    await applyMigrations(o.ch, shadow);
    // The fresh tables keep the same windows once swapped in (a rebuilt row's window starts when it is stored).
    if (o.retention) await applyRetention(o.ch, shadow, o.retention, o.log);
    o.log.info({ shadow, group }, 'rebuild: replaying history into fresh tables');

    const writerOf = (database: string) =>
      startViewWriter({
        kafka: o.kafka,
        ch: o.ch,
        topics: o.topics,
        database,
        groupId: group,
        batchRows: o.batchRows,
        batchMs: o.batchMs,
        log: o.log,
      });

    const first = await writerOf(shadow);
    try {
      await catchUp(admin, group, topics, await endOffsets(admin, topics), o.timeoutMs);
      o.log.info({ events: first.stats().events, seconds: (Date.now() - started) / 1000 }, 'rebuild: history replayed');
      // Two heads steps: publish the barrier now reached, then the one taken at the end.
      await first.updateHeads();
      await first.updateHeads();
      events += first.stats().events;
    } finally {
      await first.stop();
    }

    for (const t of SWAPPED_TABLES) {
      await o.ch.command({ query: `EXCHANGE TABLES ${o.database}.${t} AND ${shadow}.${t}` });
    }
    o.log.info({ database: o.database }, 'rebuild: fresh tables swapped in; catching up');

    const second = await writerOf(o.database);
    try {
      await catchUp(admin, group, topics, await endOffsets(admin, topics), o.timeoutMs);
      events += second.stats().events;
    } finally {
      await second.stop();
    }
    await o.ch.command({ query: `DROP DATABASE IF EXISTS ${shadow} SYNC` });
    await admin.deleteGroup(group).catch((err: unknown) => o.log.warn({ err, group }, 'rebuild: could not delete its group'));
  } finally {
    // the admin is the process's shared one
  }
  const seconds = (Date.now() - started) / 1000;
  o.log.info({ events, seconds }, 'rebuild: done');
  return { events, seconds };
}

/** Waits until the group committed at least `ends` on every partition. */
export async function catchUp(
  admin: KafkaAdmin,
  groupId: string,
  topics: readonly string[],
  ends: OffsetMap,
  timeoutMs?: number,
): Promise<void> {
  const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  for (;;) {
    if (caughtUp(ends, await committedOffsets(admin, groupId, topics))) return;
    if (Date.now() > deadline) throw new Error(`rebuild: group ${groupId} did not reach the end offsets within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

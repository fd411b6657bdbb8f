// The views and the topics they were built from must stay a pair. The views (ClickHouse) can outlive the
// topics: `npm start`'s local broker keeps its data only with --keep-kafka-data, so a second run meets
// the previous run's views and a new, empty broker, and its simulator starts again from genesis. Served as
// they were, the views kept the old heads (getSlot stood still until the new chain passed them) and the
// projector's insert tokens (topic/partition/offset ranges, starting again at 0) made ClickHouse drop the
// new chain's first batches as repeats: a frozen chain, then a mix (issue 18, item 7). So a projector
// checks the pair when it starts, before anything reads or writes the views, and starts the views afresh
// when the topics are not the ones they were built from.
import type { ClickHouseClient } from '@clickhouse/client';
import { OffsetMap, type KafkaAdmin } from '../platform/kafka/index.js';
import type { Logger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import { RECORD_KINDS, type TopicNames } from '../schemas/topics.js';

export type ViewsVerdict =
  | { action: 'keep' }
  /** The views hold nothing the topics lack; remember these topics' ids from now on. */
  | { action: 'record' }
  | { action: 'reset'; reason: string };

export interface ViewsAndTopics {
  /** topic -> id recorded beside the views (empty: none recorded yet, e.g. views from before the record). */
  recorded: ReadonlyMap<string, string>;
  /** topic -> id of the topics now. */
  current: ReadonlyMap<string, string>;
  /** The offset after the last record the views hold of each partition. */
  viewEnds: OffsetMap;
  /** Each partition's end offset now. */
  topicEnds: OffsetMap;
}

/** Pure: whether the views can be served with these topics. */
export function judgeViews(v: ViewsAndTopics): ViewsVerdict {
  if (v.recorded.size > 0) {
    for (const [topic, id] of v.current) {
      const was = v.recorded.get(topic);
      if (was !== undefined && was !== id) {
        return {
          action: 'reset',
          reason: `topic ${topic} is not the one the views were built from (topic id ${was}, now ${id}): a new broker or a recreated topic`,
        };
      }
    }
    return [...v.current.keys()].every((t) => v.recorded.has(t)) ? { action: 'keep' } : { action: 'record' };
  }
  // No ids recorded: the views are new, or older than the record. Their positions tell.
  for (const [topic, partition, end] of v.viewEnds) {
    const has = v.topicEnds.get(topic, partition) ?? 0n;
    if (end > has)
      return { action: 'reset', reason: `the views hold ${topic}/${partition} up to offset ${end}, the topic only up to ${has}` };
  }
  return { action: 'record' };
}

export interface ReconcileOptions {
  ch: ClickHouseClient;
  /** The views' database, migrations applied. */
  database: string;
  admin: KafkaAdmin;
  topics: TopicNames;
  log: Logger;
}

/** Checks the pair and, when the topics are not the views', drops the views and creates them anew. */
export async function reconcileViews(o: ReconcileOptions): Promise<ViewsVerdict> {
  const names = RECORD_KINDS.map((k) => o.topics[k]);
  const [recorded, current, viewEnds, topicEnds] = await Promise.all([
    recordedIds(o.ch, o.database),
    o.admin.topicIds(names),
    viewPositions(o.ch, o.database),
    o.admin.endOffsets(names),
  ]);
  const verdict = judgeViews({ recorded, current, viewEnds, topicEnds });
  if (verdict.action === 'reset') {
    o.log.warn({ database: o.database, reason: verdict.reason }, 'the views were built from other Kafka topics: starting them afresh');
    // Dropping (not truncating) also forgets the tables' insert tokens, which the new topics' offsets would repeat.
    await o.ch.command({ query: `DROP DATABASE IF EXISTS ${o.database} SYNC` });
    await o.ch.command({ query: `CREATE DATABASE ${o.database}` });
    await applyMigrations(o.ch, o.database);
  }
  if (verdict.action !== 'keep') {
    await o.ch.insert({
      table: `${o.database}.topic_identity`,
      values: [...current].map(([topic, topic_id]) => ({ topic, topic_id })),
      columns: ['topic', 'topic_id'],
      format: 'JSONEachRow',
    });
  }
  return verdict;
}

async function recordedIds(ch: ClickHouseClient, database: string): Promise<Map<string, string>> {
  const rs = await ch.query({
    query: 'SELECT topic, topic_id FROM {db:Identifier}.topic_identity FINAL',
    query_params: { db: database },
    format: 'JSONEachRow',
  });
  return new Map((await rs.json<{ topic: string; topic_id: string }>()).map((r) => [r.topic, r.topic_id]));
}

async function viewPositions(ch: ClickHouseClient, database: string): Promise<OffsetMap> {
  const rs = await ch.query({
    query: 'SELECT topic, partition, toString(max(last_offset) + 1) AS end FROM {db:Identifier}.slot_offsets GROUP BY topic, partition',
    query_params: { db: database },
    format: 'JSONEachRow',
  });
  return OffsetMap.of(
    (await rs.json<{ topic: string; partition: number; end: string }>()).map((r) => [r.topic, Number(r.partition), BigInt(r.end)] as const),
  );
}

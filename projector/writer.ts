// A view writer: the runner plus its dead-letter sink and heads tracker, writing into one database
// for one consumer group. The projector runs one; a rebuild runs one into its fresh tables.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Kafka } from '../platform/kafka/index.js';
import type { Logger } from '../platform/log.js';
import { RECORD_KINDS, type TopicNames } from '../schemas/topics.js';
import { createDeadLetterSink } from './deadletter.js';
import { HeadsTracker } from './heads-tracker.js';
import type { BatchPlan } from './plan.js';
import { Runner, type InsertFormat, type RunnerStats } from './runner.js';

export interface ViewWriterOptions {
  kafka: Kafka;
  ch: ClickHouseClient;
  topics: TopicNames;
  database: string;
  groupId: string;
  batchRows: number;
  batchMs: number;
  log: Logger;
  onBatch?: (plan: BatchPlan, ms: number) => void;
  afterInsert?: (table: string) => void;
  sessionTimeoutMs?: number;
  insertFormat?: InsertFormat;
}

export interface ViewWriter {
  stats(): RunnerStats;
  /** Runs one heads step now (the rebuild uses it to finish with exact heads). */
  updateHeads(): Promise<void>;
  stop(): Promise<void>;
}

export async function startViewWriter(o: ViewWriterOptions): Promise<ViewWriter> {
  const deadLetters = await createDeadLetterSink(o.kafka, o.topics.deadletter);
  const admin = o.kafka.admin();
  const heads = new HeadsTracker({
    ch: o.ch,
    database: o.database,
    admin,
    groupId: o.groupId,
    topics: RECORD_KINDS.map((k) => o.topics[k]),
    intervalMs: Math.max(100, o.batchMs),
    log: o.log,
  });
  let runner;
  try {
    runner = await Runner.open({ ...o, deadLetters });
  } catch (err) {
    await deadLetters.close();
    throw err;
  }
  heads.start();
  return {
    stats: () => runner.stats(),
    updateHeads: () => heads.tick(),
    async stop() {
      await runner.stop();
      await heads.stop();
      await deadLetters.close();
    },
  };
}

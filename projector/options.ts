// The projector's section of the config: its batches, its consumer group and the views' retention windows; the
// typed value is projector/run.ts's ProjectorOptions.
import { defineSection, opt, type Role, type ValuesOf } from '../platform/options.js';
import type { ProjectorOptions } from './run.js';

const PROJECTOR: readonly Role[] = ['projector', 'all'];

export const PROJECTOR_OPTIONS = {
  batchRows: opt({
    kind: 'int',
    env: 'PROJECTOR_BATCH_ROWS',
    default: 20000,
    min: 1,
    roles: PROJECTOR,
    help: 'Projector: flush a batch at this many events.',
  }),
  // One insert a table a second, as ClickHouse asks of MergeTree tables: every flush is one insert into each of
  // ~18 tables whatever its size, so the flush rate, not the traffic, set the engine's cost at a quiet chain's pace
  // (inserts, their parts, the merges behind them). 200 ms cost the engine 0.68-0.71 cores at 10 slots a second,
  // 1000 ms 0.46-0.58 (bench/README.md "The projector's flush rate"). Recent reads come from the head cache, so the
  // views trailing by up to another second costs JSON-RPC's freshest answers nothing.
  batchMs: opt({
    kind: 'int',
    env: 'PROJECTOR_BATCH_MS',
    default: 1000,
    min: 1,
    roles: PROJECTOR,
    help: 'Projector: flush a batch at least this often.',
  }),
  groupId: opt({
    kind: 'string',
    env: 'PROJECTOR_GROUP',
    default: 'slotstream-projector',
    roles: PROJECTOR,
    help: 'Projector: Kafka consumer group shared by all copies.',
  }),
  retentionAccountHistoryS: opt({
    kind: 'int',
    env: 'RETENTION_ACCOUNT_HISTORY_S',
    default: 0,
    min: 0,
    roles: PROJECTOR,
    help: "Projector: seconds of account write history ClickHouse keeps (older writes roll up into each account's newest; 0: forever).",
  }),
  retentionTransactionsS: opt({
    kind: 'int',
    env: 'RETENTION_TRANSACTIONS_S',
    default: 0,
    min: 0,
    roles: PROJECTOR,
    help: 'Projector: seconds of blocks and transactions ClickHouse keeps (getFirstAvailableBlock moves with it; 0: forever).',
  }),
};

export type ProjectorSection = ProjectorOptions;

/** Besides its own: the views' database (platform/clickhouse-options.ts). */
export const PROJECTOR_SECTION = defineSection(
  PROJECTOR_OPTIONS,
  (c: ValuesOf<typeof PROJECTOR_OPTIONS> & { clickhouseDatabase: string }): ProjectorSection => ({
    database: c.clickhouseDatabase,
    groupId: c.groupId,
    batchRows: c.batchRows,
    batchMs: c.batchMs,
    retention: { accountHistoryS: c.retentionAccountHistoryS, transactionsS: c.retentionTransactionsS },
  }),
);

// The ClickHouse section (a server, or embedded chdb in the data folder) and the process's data folder.
import { join } from 'node:path';
import type { ClickHouseOptions } from './clickhouse.js';
import { defineSection, opt, ROLES, SERVICE_ROLES, type ValuesOf } from './options.js';

export const CLICKHOUSE_OPTIONS = {
  clickhouseUrl: opt({
    kind: 'string',
    env: 'CLICKHOUSE_URL',
    default: '',
    roles: SERVICE_ROLES,
    help: 'ClickHouse server URL (http://user:pass@host:8123). Empty: embedded chdb in --data-dir (all role only).',
  }),
  clickhouseDatabase: opt({
    kind: 'string',
    env: 'CLICKHOUSE_DATABASE',
    default: 'slotstream',
    roles: SERVICE_ROLES,
    help: 'Database that holds the views.',
  }),
  clickhouseSessions: opt({
    kind: 'int',
    env: 'CLICKHOUSE_SESSIONS',
    default: 1,
    min: 1,
    max: 64,
    roles: SERVICE_ROLES,
    help: 'Embedded ClickHouse: engine sessions used at once (chdb runs one query at a time per session; a call goes to the least busy). More let inserts and reads run in parallel (raise --rpc-max-running-queries with it) at the cost of CPU the streams share. Ignored with CLICKHOUSE_URL.',
  }),
  dataDir: opt({
    kind: 'string',
    env: 'SLOTSTREAM_DATA_DIR',
    default: '.data',
    roles: ROLES,
    help: 'Folder for embedded ClickHouse data and a kept local broker.',
  }),
};

export const CLICKHOUSE_SECTION = defineSection(CLICKHOUSE_OPTIONS, (c: ValuesOf<typeof CLICKHOUSE_OPTIONS>): ClickHouseOptions => ({
  url: c.clickhouseUrl,
  dataDir: join(c.dataDir, 'clickhouse'),
  database: c.clickhouseDatabase,
  sessions: c.clickhouseSessions,
}));

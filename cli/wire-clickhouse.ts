// ClickHouse for a role that reads or writes the views: the client, then the migrations.
import type { ClickHouseClient, ClickHouseOptions } from '../platform/clickhouse.js';
import { createClickHouse, isEmbedded } from '../platform/clickhouse.js';
import type { Role } from './config.js';
import type { Logger } from '../platform/log.js';
import { applyMigrations } from '../platform/migrations.js';
import type { StopList } from './stop-list.js';

export async function wireClickHouse(section: ClickHouseOptions, role: Role, stops: StopList, log: Logger): Promise<ClickHouseClient> {
  if (isEmbedded(section) && role !== 'all') {
    log.warn('CLICKHOUSE_URL is unset: embedded ClickHouse in this process; no other process can share its folder');
  }
  const ch = await createClickHouse(section);
  stops.add('clickhouse', () => ch.close());
  const applied = await applyMigrations(ch, section.database);
  if (applied.length > 0) log.info({ applied }, 'applied ClickHouse migrations');
  return ch;
}

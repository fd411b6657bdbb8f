// ClickHouse for a role that reads or writes the views: the client, then the migrations.
import type { ClickHouseClient, ClickHouseOptions } from '../platform/clickhouse.js';
import { createClickHouse, isEmbedded } from '../platform/clickhouse.js';
import type { Role } from '../platform/config.js';
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

/**
 * The projector's own client when it shares the embedded engine with the api (`all`): chdb runs one query at a time
 * per session (platform/chdb-sessions.ts), so on the api's session its inserts would queue behind JSON-RPC reads,
 * which take longer as the views grow, and the views would trail further. Elsewhere: the role's one client.
 */
export async function projectorClickHouse(
  section: ClickHouseOptions,
  role: Role,
  ch: ClickHouseClient,
  stops: StopList,
): Promise<ClickHouseClient> {
  if (!isEmbedded(section) || role !== 'all') return ch;
  const own = await createClickHouse({ ...section, sessions: 1 });
  stops.add('clickhouse (projector)', () => own.close());
  return own;
}

// The one way to reach ClickHouse: a server when a URL is configured, otherwise the embedded
// engine (chdb) in a data folder. Both speak through @clickhouse/client, so SQL is the same.
import { mkdirSync } from 'node:fs';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';

export type { ClickHouseClient };

export interface ClickHouseOptions {
  /** Server URL; empty or undefined means embedded. */
  url?: string;
  /** Embedded data folder (one per process: chdb binds a single folder per process). */
  dataDir: string;
  database: string;
}

/** Whether this process talks to the embedded engine. */
export const isEmbedded = (o: ClickHouseOptions): boolean => !o.url;

export async function createClickHouse(o: ClickHouseOptions): Promise<ClickHouseClient> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(o.database)) {
    throw new Error(`invalid ClickHouse database name ${JSON.stringify(o.database)}: letters, digits and _ only`);
  }
  const settings = {
    // Inserts are synchronous so "acknowledged" means "stored": the projector commits offsets after it.
    async_insert: 0,
    // u64 values stay exact on the way out (JSON numbers would round past 2^53).
    output_format_json_quote_64bit_integers: 1,
  } as const;
  const client = o.url
    ? createClient({ url: o.url, clickhouse_settings: settings, request_timeout: 120_000 })
    : createClient({
        connection: createChdbConnection({ path: (mkdirSync(o.dataDir, { recursive: true }), o.dataDir) }),
        clickhouse_settings: settings,
      } as Parameters<typeof createClient>[0]);
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${o.database}` });
  return client;
}

// The one way methods read ClickHouse: SQL text with `{name:Type}` placeholders and a params object.
// The database is a placeholder too (`{db:Identifier}`), so no SQL is ever built from request values.
import type { ClickHouseClient } from '@clickhouse/client';

export type QueryParams = Record<string, unknown>;

export async function queryRows<T>(ch: ClickHouseClient, query: string, params: QueryParams): Promise<T[]> {
  const rs = await ch.query({ query, query_params: params, format: 'JSONEachRow' });
  return rs.json<T>();
}

/** A UInt64/Int64 cell: the client quotes 64-bit integers (platform/clickhouse.ts), so it is exact text. */
export const u64 = (v: unknown): bigint => BigInt(String(v));

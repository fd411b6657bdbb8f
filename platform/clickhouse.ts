// The one way to reach ClickHouse: a server when a URL is configured, otherwise the embedded
// engine (chdb) in a data folder. Both speak through @clickhouse/client, so SQL is the same.
import { mkdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import { Session } from 'chdb';
import { ChdbSessions } from './chdb-sessions.js';

export type { ClickHouseClient };

export interface ClickHouseOptions {
  /** Server URL; empty or undefined means embedded. */
  url?: string;
  /** Embedded data folder (one per process: chdb binds a single folder per process). */
  dataDir: string;
  database: string;
  /** Embedded: engine sessions on the folder, used together (platform/chdb-sessions.ts); default 1. */
  sessions?: number;
}

/** Whether a client was made by createClickHouse for the embedded engine. */
export const isEmbeddedClient = (ch: ClickHouseClient): boolean => embedded.has(ch);

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
  let client: ClickHouseClient;
  if (o.url) {
    client = createClient({ url: o.url, clickhouse_settings: settings, request_timeout: 120_000 });
  } else {
    const connection = new ChdbSessions((mkdirSync(o.dataDir, { recursive: true }), o.dataDir), o.sessions ?? DEFAULT_SESSIONS);
    client = createClient({ connection, clickhouse_settings: settings } as Parameters<typeof createClient>[0]);
    embedded.set(client, connection);
    embeddedDirs.set(client, o.dataDir);
  }
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${o.database}` });
  return client;
}

/** One, what the soaks measured best on 2 cores (bench/README.md "Soak"): with more, an insert runs beside a read,
 * but the engine's extra parallel CPU is taken from the streams' main thread on a small machine. */
export const DEFAULT_SESSIONS = 1;

// The embedded engine behind a client, for the insert path @clickhouse/client does not offer.
const embedded = new WeakMap<ClickHouseClient, ChdbSessions>();
// Its data folder, for the streamed reads (queryStream below).
const embeddedDirs = new WeakMap<ClickHouseClient, string>();

/** A query's rows in chunks as the engine produces them (JSONEachRow, u64s quoted), never the whole result at once. */
export type RowChunks<T> = AsyncIterable<T[]>;

/**
 * Streams a SELECT: the caller holds one chunk at a time, so memory stays bounded whatever the result's size, and
 * the first rows arrive before the engine read the last. Embedded: chdb's own streaming cursor, on a session of
 * its own (the client's connection materializes every result, and chdb allows one open cursor per session; a
 * session on the same folder shares the engine). Server: the HTTP response, parsed as it arrives.
 * Stopping the iteration early (break, throw) cancels the query.
 */
export async function* queryStream<T>(ch: ClickHouseClient, query: string, params: Record<string, unknown>): RowChunks<T> {
  const dir = embeddedDirs.get(ch);
  if (dir === undefined) {
    const rs = await ch.query({ query, query_params: params, format: 'JSONEachRow' });
    for await (const rows of rs.stream<T>()) yield rows.map((r) => r.json<T>());
    return;
  }
  const session = new Session(dir);
  try {
    // The client's settings are not on this session: u64s stay exact as on every other read.
    await session.queryAsync('SET output_format_json_quote_64bit_integers = 1');
    const cursor = session.queryStreamBind(query, params);
    for await (const chunk of cursor) yield chunk.rows() as T[];
  } finally {
    session.close();
  }
}

/**
 * Streams a SELECT's result as raw bytes in `format` (a binary one: RowBinary), for readers that decode rows
 * themselves instead of taking a JSON object per row. Chunks are the engine's blocks (embedded) or the HTTP
 * body's pieces (server): a row may span two chunks. Stopping the iteration early cancels the query.
 */
export async function* queryStreamBytes(
  ch: ClickHouseClient,
  query: string,
  params: Record<string, unknown>,
  format: string,
): AsyncIterable<Buffer> {
  const dir = embeddedDirs.get(ch);
  if (dir === undefined) {
    const rs = await ch.exec({ query: `${query}\nFORMAT ${format}`, query_params: params });
    for await (const piece of rs.stream as AsyncIterable<Buffer>) yield piece;
    return;
  }
  const session = new Session(dir);
  try {
    for await (const chunk of session.queryStreamBind(query, params, { format })) {
      const u = chunk.raw();
      yield Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength);
    }
  } finally {
    session.close();
  }
}

export interface TabSeparatedInsert {
  table: string;
  columns: readonly string[];
  /** TabSeparated bytes, one line per row (platform/tab-separated.ts). */
  body: Buffer;
  settings?: ClickHouseSettings;
}

/**
 * Inserts TabSeparated rows synchronously. Embedded: chdb's raw insert hands the bytes to the engine
 * without the copy into an SQL string that the client's insert makes; server: a normal HTTP insert.
 */
export async function insertTabSeparated(ch: ClickHouseClient, i: TabSeparatedInsert): Promise<void> {
  if (i.body.length === 0) return;
  const chdb = embedded.get(ch);
  if (chdb) {
    await chdb.rawInsert({
      table: i.table,
      columns: i.columns,
      values: i.body,
      format: 'TabSeparated',
      settings: i.settings as Record<string, string | number | boolean> | undefined,
    });
    return;
  }
  await ch.insert({
    table: i.table,
    columns: i.columns as [string, ...string[]],
    values: Readable.from([i.body]),
    format: 'TabSeparated',
    clickhouse_settings: i.settings,
  });
}

// The one way methods read ClickHouse: SQL text with `{name:Type}` placeholders and a params object.
// The database is a placeholder too (`{db:Identifier}`), so no SQL is ever built from request values.
// A request's queries pass admission control (admission.ts) through AdmittedQueries; the views state reads
// the client directly (its own lane: cheap methods never queue behind a client's expensive queries).
import type { ClickHouseClient } from '@clickhouse/client';
import { queryStream, queryStreamBytes, type RowChunks } from '../../platform/clickhouse.js';
import type { QueryAdmission } from './admission.js';

export type QueryParams = Record<string, unknown>;

/**
 * The queries of one request (or one PubSub look-up): each admitted for `client`, all cancelled by `signal`.
 * `admission` undefined: the caller already holds an admitted place for all of them (a PubSub look-up).
 */
export class AdmittedQueries {
  constructor(
    readonly ch: ClickHouseClient,
    readonly admission: QueryAdmission | undefined,
    readonly client: string,
    readonly signal?: AbortSignal,
  ) {}
}

/** What methods read through: the ClickHouse client itself, or a request's admitted queries. */
export type QueryClient = ClickHouseClient | AdmittedQueries;

export async function queryRows<T>(q: QueryClient, query: string, params: QueryParams): Promise<T[]> {
  if (!(q instanceof AdmittedQueries)) return read<T>(q, query, params);
  // Cancelled while waiting for admission: never sent. Once running, the query finishes and its place is held
  // until it has: chdb cannot interrupt a query (abort_signal only settles the promise early while the engine
  // goes on), so releasing the place on abort would let the engine's own queue grow past the bound.
  q.signal?.throwIfAborted();
  const release = await q.admission?.slot(q.client, q.signal);
  try {
    return await read<T>(q.ch, query, params);
  } finally {
    release?.();
  }
}

/**
 * A streamed read (platform/clickhouse.ts queryStream): its admitted place is held until the last chunk was taken
 * or the iteration stopped. `queries` is what the reads made while streaming go through: they run inside this
 * place (no second admission, which could wait for the stream itself and never come).
 */
export async function* streamRows<T>(q: QueryClient, query: string, params: QueryParams): RowChunks<T> {
  if (!(q instanceof AdmittedQueries)) {
    yield* queryStream<T>(q, query, params);
    return;
  }
  q.signal?.throwIfAborted();
  const release = await q.admission?.slot(q.client, q.signal);
  try {
    yield* queryStream<T>(q.ch, query, params);
  } finally {
    release?.();
  }
}

/** A streamed read as raw bytes in `format` (platform/clickhouse.ts queryStreamBytes), admitted like streamRows. */
export async function* streamBytes(q: QueryClient, query: string, params: QueryParams, format: string): AsyncIterable<Buffer> {
  if (!(q instanceof AdmittedQueries)) {
    yield* queryStreamBytes(q, query, params, format);
    return;
  }
  q.signal?.throwIfAborted();
  const release = await q.admission?.slot(q.client, q.signal);
  try {
    yield* queryStreamBytes(q.ch, query, params, format);
  } finally {
    release?.();
  }
}

/** The queries a streamed read makes meanwhile: inside the place the stream holds. */
export const insideAdmitted = (q: QueryClient): QueryClient =>
  q instanceof AdmittedQueries ? new AdmittedQueries(q.ch, undefined, q.client, q.signal) : q;

async function read<T>(ch: ClickHouseClient, query: string, params: QueryParams): Promise<T[]> {
  const rs = await ch.query({ query, query_params: params, format: 'JSONEachRow' });
  return rs.json<T>();
}

/** A UInt64/Int64 cell: the client quotes 64-bit integers (platform/clickhouse.ts), so it is exact text. */
export const u64 = (v: unknown): bigint => BigInt(String(v));

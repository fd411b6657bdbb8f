// The engine process's internal views endpoint (issue 33, item 1): a StreamViews (views-clickhouse.ts) served over
// HTTP/1.1 + JSON to stream processes that do not open ClickHouse (views-remote.ts is the client). One POST per
// StreamViews call, path = method name; u64s as decimal text; a snapshot's rows stream out as the engine reads them
// (application/octet-stream, the same RowBinary bytes), with the engine's back-pressure, and a client that goes
// away cancels the read. Internal: bind it to loopback or a private network (it has no authentication of its own
// beyond an optional bearer token).
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { HttpListener } from '../../platform/http-listen.js';
import type { Logger } from 'pino';
import type { LogStart, SnapshotCandidates, StreamViews, ViewsCommitment } from './stream-views.js';

/** Requests larger than this are refused (the largest is a snapshot's pubkey list). */
export const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

export interface ViewsEndpoint {
  port: number;
  url: string;
  close(): Promise<void>;
}

class BadRequest extends Error {}

const COMMITMENTS: readonly ViewsCommitment[] = ['processed', 'confirmed', 'finalized'];

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const parts: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) throw new BadRequest(`request larger than ${MAX_REQUEST_BYTES} bytes`);
    parts.push(chunk);
  }
  let v: unknown;
  try {
    v = JSON.parse(Buffer.concat(parts).toString('utf8'));
  } catch (err) {
    throw new BadRequest(`malformed JSON: ${(err as Error).message}`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new BadRequest('the request must be a JSON object');
  return v as Record<string, unknown>;
}

const u64 = (v: unknown, what: string): bigint => {
  if (typeof v !== 'string' || !/^\d{1,20}$/.test(v)) throw new BadRequest(`${what} must be a u64 as decimal text`);
  return BigInt(v);
};
const strings = (v: unknown, what: string): string[] => {
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new BadRequest(`${what} must be an array of strings`);
  return v as string[];
};

function candidatesOf(v: unknown): SnapshotCandidates {
  const c = v as { kind?: unknown; pubkeys?: unknown; owners?: unknown } | null;
  if (c?.kind === 'all') return { kind: 'all' };
  if (c?.kind === 'pubkeys') return { kind: 'pubkeys', pubkeys: strings(c.pubkeys, 'candidates.pubkeys') };
  if (c?.kind === 'owners')
    return { kind: 'owners', owners: strings(c.owners, 'candidates.owners'), pubkeys: strings(c.pubkeys, 'candidates.pubkeys') };
  throw new BadRequest('candidates.kind must be all, pubkeys or owners');
}

const json = (res: ServerResponse, status: number, v: unknown): void => {
  const text = JSON.stringify(v);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/** One call: the request's JSON object in, the answer written to `res`; `signal` aborts when the client goes away. */
type Call = (views: StreamViews, b: Record<string, unknown>, res: ServerResponse, signal: AbortSignal) => Promise<void>;

function startsOf(v: unknown): LogStart[] {
  if (!Array.isArray(v)) throw new BadRequest('starts must be an array');
  return (v as Record<string, unknown>[]).map((s, i) => {
    if (typeof s?.topic !== 'string' || !Number.isInteger(s.partition)) throw new BadRequest(`starts[${i}] needs topic and partition`);
    return { topic: s.topic, partition: s.partition as number, low: u64(s.low, `starts[${i}].low`) };
  });
}

/** A snapshot's rows as the engine reads them, with the client's back-pressure; a client gone cancels the read. */
async function streamSnapshot(chunks: AsyncIterator<Uint8Array>, res: ServerResponse, signal: AbortSignal): Promise<void> {
  try {
    let next = await chunks.next();
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    while (!next.done && !signal.aborted) {
      if (!res.write(next.value)) await new Promise<void>((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
      next = await chunks.next();
    }
    res.end();
  } finally {
    await chunks.return?.(undefined).catch(() => undefined);
  }
}

/** The endpoint's route table: path = StreamViews method. */
export const VIEWS_CALLS: Readonly<Record<string, Call>> = {
  '/replayOffsets': async (views, b, res) =>
    json(res, 200, { rows: await views.replayOffsets(strings(b.topics, 'topics'), u64(b.fromSlot, 'fromSlot')) }),
  '/firstAvailable': async (views, b, res) => {
    const slot = await views.firstAvailable(startsOf(b.starts));
    json(res, 200, { slot: slot?.toString() ?? null });
  },
  '/head': async (views, b, res) => {
    const c = b.commitment as ViewsCommitment;
    if (!COMMITMENTS.includes(c)) throw new BadRequest('commitment must be processed, confirmed or finalized');
    const slot = await views.head(c);
    json(res, 200, { slot: slot?.toString() ?? null });
  },
  '/signatureStatus': async (views, b, res, signal) => {
    if (typeof b.signature !== 'string' || typeof b.client !== 'string') throw new BadRequest('signature and client must be strings');
    const s = await views.signatureStatus(b.signature, b.client, signal);
    json(res, 200, { status: s === undefined ? null : { slot: s.slot.toString(), err: s.err, level: s.level } });
  },
  '/accountSnapshot': (views, b, res, signal) =>
    streamSnapshot(views.accountSnapshot(candidatesOf(b.candidates), u64(b.slot, 'slot'))[Symbol.asyncIterator](), res, signal),
};

export interface ViewsEndpointOptions {
  views: StreamViews;
  host: string;
  port: number;
  /** When set, every request must carry `authorization: Bearer <token>`. */
  token?: string;
  log: Logger;
}

/** The endpoint's request handler (no socket: `startViewsEndpoint` listens with it). */
export function viewsHandler(o: ViewsEndpointOptions): RequestListener {
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (o.token !== undefined && req.headers.authorization !== `Bearer ${o.token}`) return json(res, 401, { error: 'unauthorized' });
    if (req.method !== 'POST') return json(res, 405, { error: 'POST only' });
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    const b = await body(req);
    const call = Object.hasOwn(VIEWS_CALLS, req.url ?? '') ? VIEWS_CALLS[req.url!] : undefined;
    if (call === undefined) return json(res, 404, { error: `no such call ${req.url ?? ''}` });
    return call(o.views, b, res, abort.signal);
  }
  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      const bad = err instanceof BadRequest;
      if (!bad) o.log.warn({ err, call: req.url }, 'views endpoint: call failed');
      if (res.headersSent) res.destroy(err as Error);
      else json(res, bad ? 400 : 500, { error: (err as Error).message, code: (err as { code?: unknown }).code });
    });
  };
}

export async function startViewsEndpoint(o: ViewsEndpointOptions): Promise<ViewsEndpoint> {
  const listener = await HttpListener.open(viewsHandler(o), { host: o.host, port: o.port });
  return { port: listener.port, url: listener.url, close: () => listener.close() };
}

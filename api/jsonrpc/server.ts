// The JSON-RPC HTTP server (koa + @koa/router). Transport rules of behaviour.md: POST / with
// application/json; every JSON-RPC answer is HTTP 200 application/json; other content type 415, other
// method 405 (OPTIONS 200 with CORS), body over maxBodyBytes 413; the key (header or ?api-key=) through the one
// access check (api/access/): 401/403/429 with a JSON-RPC error naming the limit (api/solana-json/access-denial.ts);
// GET /health answers ok, behind or unknown (always open).
import type { UpstreamVersion } from '../../schemas/codec.js';
import { Readable } from 'node:stream';
import { decodeBase58Exact } from '../../schemas/decode-input.js';
import type { IncomingMessage, Server } from 'node:http';
import { httpOrHttpsServer, type TlsSource } from '../../platform/tls.js';
import type { AddressInfo } from 'node:net';
import type { ClickHouseClient } from '@clickhouse/client';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { HealthState } from '../../platform/metrics.js';
import { AccessControl, requestKey, type Tenant } from '../access/index.js';
import { httpDenial } from '../solana-json/access-denial.js';
import { DEFAULT_ADMISSION, QueryAdmission } from '../views/admission.js';
import { createDispatch } from './dispatch.js';
import type { HeadCache } from '../head/head-cache.js';
import { errorResponse } from '../solana-json/envelope.js';
import { internalError } from '../solana-json/errors.js';
import { toJson } from '../solana-json/json.js';
import { freshness, ViewsStateCache } from '../views/state.js';

export interface JsonRpcOptions {
  ch: ClickHouseClient;
  database: string;
  host: string;
  port: number;
  /** The process's access check (keys, limits, usage), shared with gRPC and PubSub; absent: one with `authToken`. */
  access?: AccessControl;
  /** Without `access`: the shared token every request must present. */
  authToken?: string;
  /** HTTPS with this certificate and key (renewed in place); absent: HTTP. */
  tls?: TlsSource;
  maxBodyBytes: number;
  maxBatch: number;
  maxSlotLag: number;
  chainTip: () => bigint | undefined;
  /** The upstream node's version as the api's live Kafka reader last read it (getVersion, contexts' apiVersion);
   * absent or undefined: DEFAULT_SOLANA_CORE (node-version.ts). */
  upstreamVersion?: () => UpstreamVersion | undefined;
  log: Logger;
  /** How long the views state (heads, block heights) is cached; default 200 ms. For 5 times as long again, the
   * last state answers at once while a refresh runs (`ViewsStateCache`). */
  stateTtlMs?: number;
  /** Admission control of the methods' ClickHouse queries, shared with PubSub's look-ups (default: its own,
   * with DEFAULT_ADMISSION). Each HTTP client (remote address) has its own share. */
  admission?: QueryAdmission;
  /** Most accounts one getProgramAccounts answer may hold (config rpcMaxProgramAccounts; default 1,000,000). */
  maxProgramAccounts?: number;
  /** getIdentity's answer (a base-58 pubkey); absent: getIdentity answers -32601 saying so. */
  identity?: string;
  /** getGenesisHash's answer (base-58); absent: the blockhash of slot 0 when the views hold it. */
  genesisHash?: string;
  /** The live status page (api/status/, built by the wiring): GET /status serves `page`, GET /status.json the
   * snapshot (behind the same key check as POST /, which a browser passes in the URL). */
  status?: { page: string; snapshot: () => Promise<unknown> };
  /** The head cache the process's live read fills (api/head/; cli/wire-api.ts): recent reads answer from it. */
  head?: HeadCache;
}

export const DEFAULT_MAX_PROGRAM_ACCOUNTS = 1_000_000;

export interface JsonRpcServer {
  port: number;
  /** What GET /health answers. */
  health(): Promise<HealthState>;
  close(): Promise<void>;
}

const CORS_PREFLIGHT = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization, x-token, solana-client',
  'access-control-max-age': '86400',
};

const isJson = (contentType: string | undefined): boolean =>
  contentType !== undefined && /^application\/json\s*(;.*)?$/i.test(contentType.trim());

type BodyResult = { ok: true; text: string } | { ok: false };

/** Reads the body up to `limit` bytes; beyond, stops reading and reports it (413). */
function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.pause();
        resolve({ ok: false });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    });
    req.on('error', (err) => {
      if (!done) reject(err);
    });
  });
}

/** Requests in a body, for the key's rate: a batch counts each (an unparsable one counts one; dispatch answers it). */
function requestCount(text: string): number {
  if (!/^\s*\[/.test(text)) return 1;
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? Math.max(1, v.length) : 1;
  } catch {
    return 1;
  }
}

/** A streamed answer's chunks, counted as the key's bytes as they go. */
async function* counted(chunks: AsyncIterable<string | Uint8Array>, tenant: Tenant): AsyncIterable<string | Uint8Array> {
  for await (const c of chunks) {
    tenant.answered('jsonrpc', typeof c === 'string' ? Buffer.byteLength(c) : c.length);
    yield c;
  }
}

function deny(ctx: Koa.Context, d: Parameters<typeof httpDenial>[0]): void {
  const r = httpDenial(d);
  ctx.status = r.status;
  ctx.set(r.headers);
  ctx.body = r.body;
}

/** A configured node fact must be a 32-byte base-58 value: a wrong one fails at start, not per call. */
function checkNodeFact(value: string | undefined, option: string): void {
  if (value === undefined) return;
  const d = decodeBase58Exact(value, 32);
  if (!d.ok) throw new Error(`${option}: ${JSON.stringify(value)} is not a base-58 32-byte value: ${d.reason}`);
}

export async function startJsonRpc(opts: JsonRpcOptions): Promise<JsonRpcServer> {
  checkNodeFact(opts.identity, 'rpcIdentity (RPC_IDENTITY)');
  checkNodeFact(opts.genesisHash, 'rpcGenesisHash (RPC_GENESIS_HASH)');
  const state = new ViewsStateCache(opts.ch, opts.database, opts.stateTtlMs ?? 200);
  const dispatch = createDispatch({
    ch: opts.ch,
    database: opts.database,
    admission: opts.admission ?? new QueryAdmission(DEFAULT_ADMISSION),
    state,
    chainTip: opts.chainTip,
    maxSlotLag: opts.maxSlotLag,
    maxBatch: opts.maxBatch,
    upstreamVersion: opts.upstreamVersion ?? (() => undefined),
    limits: { maxProgramAccounts: opts.maxProgramAccounts ?? DEFAULT_MAX_PROGRAM_ACCOUNTS },
    log: opts.log,
    node: { identity: opts.identity, genesisHash: opts.genesisHash },
    ...(opts.head === undefined ? {} : { head: opts.head }),
  });
  const access = opts.access ?? new AccessControl({ sharedToken: opts.authToken });

  const health = async (): Promise<HealthState> => {
    try {
      return freshness(await state.get(), opts.chainTip(), opts.maxSlotLag);
    } catch (err) {
      opts.log.warn({ err }, 'JSON-RPC health: views state unreadable');
      return 'unknown';
    }
  };

  const app = new Koa();
  app.silent = true;
  const router = new Router();

  // Outermost: CORS on every answer (the full set on preflights), and no exception ever becomes a 5xx.
  app.use(async (ctx, next) => {
    ctx.set('access-control-allow-origin', '*');
    try {
      await next();
    } catch (err) {
      opts.log.error({ err }, 'JSON-RPC HTTP handler failed');
      ctx.status = 200;
      ctx.type = 'application/json';
      ctx.body = toJson(errorResponse(null, internalError()));
    }
  });

  router.get('/health', async (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = await health();
  });
  const status = opts.status;
  if (status !== undefined) {
    router.get('/status', (ctx) => {
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('cache-control', 'no-store');
      ctx.body = status.page;
    });
    router.get('/status.json', async (ctx) => {
      // The status page reads through the same key check as JSON-RPC (a key, or the shared token, in the header or URL).
      const admission = access.admit(requestKey(ctx.req.headers, ctx.req.url), 'jsonrpc');
      if (!admission.ok) {
        deny(ctx, admission.denial);
        return;
      }
      ctx.type = 'application/json';
      ctx.set('cache-control', 'no-store');
      ctx.body = JSON.stringify(await status.snapshot());
    });
  }
  router.options('/', (ctx) => {
    ctx.set(CORS_PREFLIGHT);
    ctx.status = 200;
    ctx.body = '';
  });

  router.post('/', async (ctx) => {
    const admission = access.admit(requestKey(ctx.req.headers, ctx.req.url), 'jsonrpc');
    if (!admission.ok) {
      deny(ctx, admission.denial);
      return;
    }
    const tenant = admission.tenant;
    if (!isJson(ctx.get('content-type') || undefined)) {
      ctx.status = 415;
      ctx.type = 'text/plain';
      ctx.body = 'Content-Type must be application/json';
      return;
    }
    const body = await readBody(ctx.req, opts.maxBodyBytes);
    if (!body.ok) {
      ctx.status = 413;
      ctx.set('connection', 'close');
      ctx.type = 'text/plain';
      ctx.body = `request body over ${opts.maxBodyBytes} bytes`;
      return;
    }
    const over = tenant.request('jsonrpc', requestCount(body.text));
    if (over !== undefined) {
      deny(ctx, over);
      return;
    }
    // One share per remote address: a client opening more connections gets no more of the views.
    const answer = await dispatch(body.text, `http:${ctx.req.socket.remoteAddress ?? ''}`);
    if (answer === undefined) {
      ctx.status = 204; // notifications only: no answer
      return;
    }
    ctx.status = 200;
    ctx.type = 'application/json';
    if (typeof answer === 'string') {
      tenant.answered('jsonrpc', Buffer.byteLength(answer));
      ctx.body = answer;
      return;
    }
    // A streamed answer: written as it is read, with backpressure. A failure after the first byte can no longer
    // become an error response: the connection is cut (the client sees a truncated answer, never a wrong one).
    const stream = Readable.from(counted(answer, tenant), { objectMode: false });
    stream.on('error', (err) => opts.log.error({ err }, 'JSON-RPC streamed answer failed; connection cut'));
    ctx.body = stream;
  });

  router.all('/', (ctx) => {
    ctx.status = 405;
    ctx.set('allow', 'POST, OPTIONS');
    ctx.type = 'text/plain';
    ctx.body = `method ${ctx.method} not allowed; use POST`;
  });

  app.use(router.routes());

  const server: Server = httpOrHttpsServer(app.callback(), opts.tls);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  const port = (server.address() as AddressInfo).port;
  opts.log.info({ host: opts.host, port, tls: opts.tls !== undefined }, 'JSON-RPC listening');
  return {
    port,
    health,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

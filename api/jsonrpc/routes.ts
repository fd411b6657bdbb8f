// The JSON-RPC HTTP routes (koa + @koa/router), built from their parts and opening nothing: the server (server.ts)
// listens with them. Transport rules of behaviour.md: POST / with application/json; every JSON-RPC answer is HTTP 200
// application/json; other content type 415, other method 405 (OPTIONS 200 with CORS), body over maxBodyBytes 413; the
// key (header or ?api-key=) through the one access check (api/access/): 401/403/429 with a JSON-RPC error naming the
// limit (api/solana-json/access-denial.ts); GET /health answers ok, behind or unknown (always open); GET /status and
// /status.json the live status page when the wiring gives one.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { HealthState } from '../../platform/metrics.js';
import { requestKey, type AccessControl, type Tenant } from '../access/index.js';
import { httpDenial } from '../solana-json/access-denial.js';
import { errorResponse } from '../solana-json/envelope.js';
import { internalError } from '../solana-json/errors.js';
import { toJson } from '../solana-json/json.js';
import type { Dispatch } from './dispatch.js';

export interface JsonRpcRouteDeps {
  dispatch: Dispatch;
  access: AccessControl;
  health: () => Promise<HealthState>;
  maxBodyBytes: number;
  /** The live status page: GET /status serves `page`, GET /status.json the snapshot (behind the key check). */
  status?: { page: string; snapshot: () => Promise<unknown> } | undefined;
  log: Logger;
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

/** The JSON-RPC app: the outermost guard, then the route table. */
export function jsonRpcApp(d: JsonRpcRouteDeps): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(guard(d.log));
  const router = new Router();
  router.get('/health', async (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = await d.health();
  });
  if (d.status !== undefined) statusRoutes(router, d.status, d.access);
  router.options('/', (ctx) => {
    ctx.set(CORS_PREFLIGHT);
    ctx.status = 200;
    ctx.body = '';
  });
  router.post('/', (ctx) => post(ctx, d));
  router.all('/', (ctx) => {
    ctx.status = 405;
    ctx.set('allow', 'POST, OPTIONS');
    ctx.type = 'text/plain';
    ctx.body = `method ${ctx.method} not allowed; use POST`;
  });
  app.use(router.routes());
  return app;
}

/** Outermost: CORS on every answer (the full set on preflights), and no exception ever becomes a 5xx. */
function guard(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    ctx.set('access-control-allow-origin', '*');
    try {
      await next();
    } catch (err) {
      log.error({ err }, 'JSON-RPC HTTP handler failed');
      ctx.status = 200;
      ctx.type = 'application/json';
      ctx.body = toJson(errorResponse(null, internalError()));
    }
  };
}

function statusRoutes(router: Router, status: NonNullable<JsonRpcRouteDeps['status']>, access: AccessControl): void {
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

/** POST /: the key, the content type, the body's size, the key's rate, then the dispatch's answer. */
async function post(ctx: Koa.Context, d: JsonRpcRouteDeps): Promise<void> {
  const admission = d.access.admit(requestKey(ctx.req.headers, ctx.req.url), 'jsonrpc');
  if (!admission.ok) return deny(ctx, admission.denial);
  const tenant = admission.tenant;
  if (!isJson(ctx.get('content-type') || undefined)) return plain(ctx, 415, 'Content-Type must be application/json');
  const body = await readBody(ctx.req, d.maxBodyBytes);
  if (!body.ok) {
    ctx.set('connection', 'close');
    return plain(ctx, 413, `request body over ${d.maxBodyBytes} bytes`);
  }
  const over = tenant.request('jsonrpc', requestCount(body.text));
  if (over !== undefined) return deny(ctx, over);
  // One share per remote address: a client opening more connections gets no more of the views.
  const answer = await d.dispatch(body.text, `http:${ctx.req.socket.remoteAddress ?? ''}`);
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
  stream.on('error', (err) => d.log.error({ err }, 'JSON-RPC streamed answer failed; connection cut'));
  ctx.body = stream;
}

function plain(ctx: Koa.Context, status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'text/plain';
  ctx.body = text;
}

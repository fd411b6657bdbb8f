// The JSON-RPC HTTP server (koa + @koa/router). Transport rules of behaviour.md: POST / with
// application/json; every JSON-RPC answer is HTTP 200 application/json; other content type 415, other
// method 405 (OPTIONS 200 with CORS), body over maxBodyBytes 413, wrong or missing token 401 when one is
// configured; GET /health answers ok, behind or unknown (always open).
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { decodeBase58Exact } from '../../schemas/decode-input.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClickHouseClient } from '@clickhouse/client';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { HealthState } from '../../platform/metrics.js';
import { presentedToken, tokenCheck } from '../solana-json/auth.js';
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
  authToken?: string;
  maxBodyBytes: number;
  maxBatch: number;
  maxSlotLag: number;
  chainTip: () => bigint | undefined;
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

/** `apiVersion` of withContext answers: this package's version. */
export const API_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

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
    apiVersion: API_VERSION,
    limits: { maxProgramAccounts: opts.maxProgramAccounts ?? DEFAULT_MAX_PROGRAM_ACCOUNTS },
    log: opts.log,
    node: { identity: opts.identity, genesisHash: opts.genesisHash },
    ...(opts.head === undefined ? {} : { head: opts.head }),
  });
  const authorized = tokenCheck(opts.authToken);

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
  router.options('/', (ctx) => {
    ctx.set(CORS_PREFLIGHT);
    ctx.status = 200;
    ctx.body = '';
  });

  router.post('/', async (ctx) => {
    if (!authorized(presentedToken(ctx.req.headers))) {
      ctx.status = 401;
      ctx.set('www-authenticate', 'Bearer');
      ctx.type = 'text/plain';
      ctx.body = 'missing or wrong token (Authorization: Bearer <token> or x-token)';
      return;
    }
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
    // One share per remote address: a client opening more connections gets no more of the views.
    const answer = await dispatch(body.text, `http:${ctx.req.socket.remoteAddress ?? ''}`);
    if (answer === undefined) {
      ctx.status = 204; // notifications only: no answer
      return;
    }
    ctx.status = 200;
    ctx.type = 'application/json';
    if (typeof answer === 'string') {
      ctx.body = answer;
      return;
    }
    // A streamed answer: written as it is read, with backpressure. A failure after the first byte can no longer
    // become an error response: the connection is cut (the client sees a truncated answer, never a wrong one).
    const stream = Readable.from(answer, { objectMode: false });
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

  const server: Server = createServer(app.callback());
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
  opts.log.info({ host: opts.host, port }, 'JSON-RPC listening');
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

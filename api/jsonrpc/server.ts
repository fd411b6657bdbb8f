// The JSON-RPC server: the views' state cache, the dispatch and the access check behind the route table
// (routes.ts), on the shared HTTP listener (platform/http-listen.ts). Open with `JsonRpcServer.open`; `close` is
// idempotent.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Logger } from 'pino';
import { HttpListener } from '../../platform/http-listen.js';
import type { HealthState } from '../../platform/metrics.js';
import type { TlsSource } from '../../platform/tls.js';
import type { UpstreamVersion } from '../../schemas/codec.js';
import { decodeBase58Exact } from '../../schemas/decode-input.js';
import { AccessControl } from '../access/index.js';
import type { HeadCache } from '../head/head-cache.js';
import { DEFAULT_ADMISSION, QueryAdmission } from '../views/admission.js';
import { freshness, ViewsStateCache } from '../views/state.js';
import { createDispatch, type Dispatch } from './dispatch.js';
import { jsonRpcApp } from './routes.js';

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

/** Keep-alive above the usual 60 s of load balancers' idle timeouts, so they close first; headers just after. */
const TIMEOUTS = { keepAliveMs: 65_000, headersMs: 66_000, requestMs: 60_000 };

/** A configured node fact must be a 32-byte base-58 value: a wrong one fails at start, not per call. */
function checkNodeFact(value: string | undefined, option: string): void {
  if (value === undefined) return;
  const d = decodeBase58Exact(value, 32);
  if (!d.ok) throw new Error(`${option}: ${JSON.stringify(value)} is not a base-58 32-byte value: ${d.reason}`);
}

export class JsonRpcServer {
  // Invariants: `listener` serves the route table from `open` until `close`; `state` is the one views-state cache
  // of both the dispatch and `health`.
  private constructor(
    private readonly opts: JsonRpcOptions,
    private readonly state: ViewsStateCache,
    private readonly listener: HttpListener,
  ) {}

  /** Checks the node facts, builds the dispatch and listens; rejects when the port cannot be bound. */
  static async open(opts: JsonRpcOptions): Promise<JsonRpcServer> {
    checkNodeFact(opts.identity, 'rpcIdentity (RPC_IDENTITY)');
    checkNodeFact(opts.genesisHash, 'rpcGenesisHash (RPC_GENESIS_HASH)');
    const state = new ViewsStateCache(opts.ch, opts.database, opts.stateTtlMs ?? 200);
    const app = jsonRpcApp({
      dispatch: JsonRpcServer.dispatchOf(opts, state),
      access: opts.access ?? new AccessControl({ sharedToken: opts.authToken }),
      health: () => JsonRpcServer.healthOf(opts, state),
      maxBodyBytes: opts.maxBodyBytes,
      status: opts.status,
      log: opts.log,
    });
    const listener = await HttpListener.open(app.callback(), {
      host: opts.host,
      port: opts.port,
      tls: opts.tls,
      timeouts: TIMEOUTS,
      answerBadRequests: true,
    });
    opts.log.info({ host: opts.host, port: listener.port, tls: opts.tls !== undefined }, 'JSON-RPC listening');
    return new JsonRpcServer(opts, state, listener);
  }

  private static dispatchOf(opts: JsonRpcOptions, state: ViewsStateCache): Dispatch {
    return createDispatch({
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
  }

  /** What GET /health answers: the views' freshness against the chain tip, `unknown` when they cannot be read. */
  private static async healthOf(opts: JsonRpcOptions, state: ViewsStateCache): Promise<HealthState> {
    try {
      return freshness(await state.get(), opts.chainTip(), opts.maxSlotLag);
    } catch (err) {
      opts.log.warn({ err }, 'JSON-RPC health: views state unreadable');
      return 'unknown';
    }
  }

  /** The port bound (the one asked for, or the one the system chose for 0). */
  get port(): number {
    return this.listener.port;
  }

  /** What GET /health answers. */
  health(): Promise<HealthState> {
    return JsonRpcServer.healthOf(this.opts, this.state);
  }

  /** Stops listening and ends open connections; idempotent. */
  close(): Promise<void> {
    return this.listener.close();
  }
}

// The PubSub endpoint of the api role: Solana's JSON-RPC 2.0 subscriptions over WebSocket (`ws`), served
// from the process's live layer (one Kafka read for every subscriber; see api/live/README.md). Upgrade
// requests are checked here (the key through the one access check of api/access/, its connection limit, the
// process's connection limit) before a WebSocket exists; each connection is a
// PubSubConnection. One timer pings every connection and cuts those that did not answer the last ping.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpListener } from '../../platform/http-listen.js';
import type { TlsSource } from '../../platform/tls.js';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { AccessControl, requestKey } from '../access/index.js';
import { httpDenial } from '../solana-json/access-denial.js';
import { zstdReady } from '../solana-json/zstd.js';
import type { LiveLayer } from '../live/index.js';
import { CLOSE_GOING_AWAY, CLOSE_POLICY, PubSubConnection, type PubSubLimits } from './connection.js';
import { openConnections } from './metrics.js';
import type { SignatureLookup } from './subscription.js';

type ConnectionDeps = ConstructorParameters<typeof PubSubConnection>[1];

export interface PubSubOptions {
  live: LiveLayer;
  host: string;
  /** 0 = any free port. */
  port: number;
  /** The process's access check (keys, limits, usage), shared with gRPC and JSON-RPC; absent: one with `authToken`. */
  access?: AccessControl;
  /** Without `access`: the shared token every connection must present. */
  authToken?: string;
  /** WSS with this certificate and key (renewed in place); absent: plain WebSocket. */
  tls?: TlsSource;
  maxConnections: number;
  maxSubscriptionsPerConnection: number;
  /** Largest message a client may send; beyond, `ws` closes the connection with 1009. */
  maxMessageBytes: number;
  maxBufferedBytes: number;
  pingIntervalMs: number;
  /** Requests in one batch (default 100, as the JSON-RPC endpoint). */
  maxBatch?: number;
  /** signatureSubscribe's "already reached": where the views place a transaction. */
  lookupSignature?: SignatureLookup;
  /** Benchmarks only: notifications carry `readAt` (when the api read the record) after `subscription`. */
  readAtDebug?: boolean;
  log: Logger;
}

export interface PubSubServer {
  port: number;
  connections(): number;
  subscriptions(): number;
  close(): Promise<void>;
}

function refuse(socket: Duplex, status: number, text: string, extra = ''): void {
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\n${extra}\r\n${text}`,
  );
}

function refuseDenial(socket: Duplex, d: ReturnType<typeof httpDenial>): void {
  const text = { 401: 'Unauthorized', 403: 'Forbidden', 429: 'Too Many Requests' }[d.status] ?? 'Refused';
  const head = Object.entries(d.headers)
    .filter(([k]) => k !== 'content-type')
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${d.status} ${text}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(d.body)}\r\n${head}\r\n${d.body}`,
  );
}

/** Answers a plain HTTP request on the PubSub port: this port only takes WebSocket upgrades. */
function upgradeRequired(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' });
  res.end('Solana PubSub: connect with a WebSocket client');
}

export async function startPubSub(o: PubSubOptions): Promise<PubSubServer> {
  // base64+zstd encodes synchronously in notifications: the codec is loaded before the first client.
  await zstdReady();
  const endpoint = new PubSubEndpoint(o);
  try {
    endpoint.listener = await HttpListener.open(upgradeRequired, {
      host: o.host,
      port: o.port,
      tls: o.tls,
      onUpgrade: (req, socket, head) => endpoint.upgrade(req, socket, head),
    });
  } catch (err) {
    await endpoint.close();
    throw err;
  }
  o.log.debug({ port: endpoint.port }, 'pubsub listening');
  return endpoint;
}

/** The endpoint's connections: upgrades admitted (`upgrade`), pinged, and closed with the listener (idempotent). */
class PubSubEndpoint implements PubSubServer {
  // Invariants: every PubSubConnection in `live` holds a lease of its key's stream limit, released when it goes;
  // `listener` is set by startPubSub before any upgrade can arrive; `closing` is set by the first `close`.
  private readonly live = new Set<PubSubConnection>();
  private readonly access: AccessControl;
  private readonly deps: Omit<ConnectionDeps, 'tenant'>;
  private readonly wss: WebSocketServer;
  private readonly timer: NodeJS.Timeout;
  private nextId = 1;
  listener: HttpListener | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly o: PubSubOptions) {
    this.access = o.access ?? new AccessControl({ sharedToken: o.authToken });
    const limits: PubSubLimits = {
      maxSubscriptions: o.maxSubscriptionsPerConnection,
      maxBufferedBytes: o.maxBufferedBytes,
      maxBatch: o.maxBatch ?? 100,
    };
    this.deps = {
      live: o.live,
      lookupSignature: o.lookupSignature,
      limits,
      nextId: () => this.nextId++,
      readAtDebug: o.readAtDebug ?? false,
      log: o.log,
    };
    this.wss = new WebSocketServer({ noServer: true, maxPayload: o.maxMessageBytes, perMessageDeflate: false, clientTracking: false });
    this.timer = setInterval(() => {
      for (const c of this.live) c.ping();
    }, o.pingIntervalMs);
    this.timer.unref();
  }

  get port(): number {
    return this.listener?.port ?? this.o.port;
  }

  connections(): number {
    return this.live.size;
  }

  subscriptions(): number {
    return [...this.live].reduce((n, c) => n + c.subscriptionCount, 0);
  }

  /** An upgrade request: the key's admission, the process's connection limit, the key's stream lease, then the
   * WebSocket. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const admission = this.access.admit(requestKey(req.headers, req.url), 'pubsub');
    if (!admission.ok) return refuseDenial(socket, httpDenial(admission.denial));
    const max = this.o.maxConnections;
    if (this.live.size >= max) return refuse(socket, 503, `Service Unavailable: at most ${max} connections`);
    const tenant = admission.tenant;
    let connection: PubSubConnection | undefined;
    let revokedEarly: string | undefined;
    const lease = tenant.openStream('pubsub', (message) => {
      if (connection) connection.close(CLOSE_POLICY, message);
      else revokedEarly = message;
    });
    if (!('release' in lease)) return refuseDenial(socket, httpDenial(lease));
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      connection = this.connect(ws, tenant, () => lease.release());
      if (revokedEarly !== undefined) connection.close(CLOSE_POLICY, revokedEarly);
    });
    // An upgrade ws refuses (a bad handshake) never calls back: its lease ends with the socket.
    socket.once('close', () => {
      if (connection === undefined) lease.release();
    });
  }

  private connect(ws: WebSocket, tenant: ConnectionDeps['tenant'], release: () => void): PubSubConnection {
    const c = new PubSubConnection(ws, { ...this.deps, tenant }, (gone) => {
      release();
      if (this.live.delete(gone)) openConnections.dec();
    });
    this.live.add(c);
    openConnections.inc();
    return c;
  }

  /** Closes every connection (going away) and the listener; idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.timer);
    for (const c of [...this.live]) c.close(CLOSE_GOING_AWAY, 'server shutting down');
    this.wss.close();
    await this.listener?.close();
  }
}

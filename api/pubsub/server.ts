// The PubSub endpoint of the api role: Solana's JSON-RPC 2.0 subscriptions over WebSocket (`ws`), served
// from the process's live layer (one Kafka read for every subscriber; see api/live/README.md). Upgrade
// requests are checked here (the key through the one access check of api/access/, its connection limit, the
// process's connection limit) before a WebSocket exists; each connection is a
// PubSubConnection. One timer pings every connection and cuts those that did not answer the last ping.
import type { IncomingMessage, Server } from 'node:http';
import { httpOrHttpsServer, type TlsSource } from '../../platform/tls.js';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { AccessControl, requestKey } from '../access/index.js';
import { httpDenial } from '../solana-json/access-denial.js';
import { zstdReady } from '../solana-json/zstd.js';
import type { LiveLayer } from '../live/index.js';
import { CLOSE_GOING_AWAY, CLOSE_POLICY, PubSubConnection, type PubSubLimits } from './connection.js';
import { openConnections } from './metrics.js';
import type { SignatureLookup } from './subscription.js';

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

export async function startPubSub(o: PubSubOptions): Promise<PubSubServer> {
  // base64+zstd encodes synchronously in notifications: the codec is loaded before the first client.
  await zstdReady();
  const access = o.access ?? new AccessControl({ sharedToken: o.authToken });
  const limits: PubSubLimits = {
    maxSubscriptions: o.maxSubscriptionsPerConnection,
    maxBufferedBytes: o.maxBufferedBytes,
    maxBatch: o.maxBatch ?? 100,
  };
  const connections = new Set<PubSubConnection>();
  let nextId = 1;
  const deps = {
    live: o.live,
    lookupSignature: o.lookupSignature,
    limits,
    nextId: () => nextId++,
    readAtDebug: o.readAtDebug ?? false,
    log: o.log,
  };
  const wss = new WebSocketServer({ noServer: true, maxPayload: o.maxMessageBytes, perMessageDeflate: false, clientTracking: false });

  const http: Server = httpOrHttpsServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' });
    res.end('Solana PubSub: connect with a WebSocket client');
  }, o.tls);
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const admission = access.admit(requestKey(req.headers, req.url), 'pubsub');
    if (!admission.ok) return refuseDenial(socket, httpDenial(admission.denial));
    if (connections.size >= o.maxConnections) return refuse(socket, 503, `Service Unavailable: at most ${o.maxConnections} connections`);
    const tenant = admission.tenant;
    let connection: PubSubConnection | undefined;
    let revokedEarly: string | undefined;
    const lease = tenant.openStream('pubsub', (message) => {
      if (connection) connection.close(CLOSE_POLICY, message);
      else revokedEarly = message;
    });
    if (!('release' in lease)) return refuseDenial(socket, httpDenial(lease));
    wss.handleUpgrade(req, socket, head, (ws) => {
      const c = new PubSubConnection(ws, { ...deps, tenant }, (gone) => {
        lease.release();
        if (connections.delete(gone)) openConnections.dec();
      });
      connections.add(c);
      openConnections.inc();
      connection = c;
      if (revokedEarly !== undefined) c.close(CLOSE_POLICY, revokedEarly);
    });
    // An upgrade ws refuses (a bad handshake) never calls back: its lease ends with the socket.
    socket.once('close', () => {
      if (connection === undefined) lease.release();
    });
  });

  const timer = setInterval(() => {
    for (const c of connections) c.ping();
  }, o.pingIntervalMs);
  timer.unref();

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(o.port, o.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : o.port;
  o.log.debug({ port }, 'pubsub listening');

  return {
    port,
    connections: () => connections.size,
    subscriptions: () => [...connections].reduce((n, c) => n + c.subscriptionCount, 0),
    async close() {
      clearInterval(timer);
      for (const c of [...connections]) c.close(CLOSE_GOING_AWAY, 'server shutting down');
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

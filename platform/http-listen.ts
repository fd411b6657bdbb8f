// The one HTTP listener: every HTTP server of the api and the roles (JSON-RPC with the status page, PubSub's
// upgrade port, the metrics port, the engine's views endpoint) is a request handler built from a pure route table
// (no socket, testable without one) handed to `HttpListener.open`, which owns the socket's lifetime: TLS (renewed
// in place, tls.ts), timeouts, malformed requests, the listen itself, and a close that ends open connections.
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { httpOrHttpsServer, type TlsSource } from './tls.js';

export interface ListenOptions {
  host: string;
  /** 0: any free port (`port` says which). */
  port: number;
  /** HTTPS with this certificate and key (renewed in place); absent: HTTP. */
  tls?: TlsSource | undefined;
  /** A cluster worker binds a port of its own rather than sharing the primary's (cli/stream-workers.ts). */
  exclusive?: boolean;
  /** Keep-alive, header and request timeouts, ms (default: Node's). */
  timeouts?: { keepAliveMs: number; headersMs: number; requestMs: number };
  /** Answer a request that does not parse with a bare 400 and close the connection (default: Node's answer). */
  answerBadRequests?: boolean;
  /** WebSocket upgrades (PubSub); absent: Node refuses them. */
  onUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

export class HttpListener {
  // Invariants: `server` listens from `open` until `close`; `closing` is set by the first `close` and returned by
  // every later one (a second server.close would fail with ERR_SERVER_NOT_RUNNING).
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly server: Server,
    /** The port bound (the one asked for, or the one the system chose for 0). */
    readonly port: number,
    private readonly host: string,
    readonly tls: boolean,
  ) {}

  /** Listens with `handler` on host:port; rejects when the port cannot be bound (in use, no such address). */
  static async open(handler: RequestListener, o: ListenOptions): Promise<HttpListener> {
    const server = httpOrHttpsServer(handler, o.tls);
    HttpListener.configure(server, o);
    await HttpListener.bind(server, o);
    return new HttpListener(server, (server.address() as AddressInfo).port, o.host, o.tls !== undefined);
  }

  private static configure(server: Server, o: ListenOptions): void {
    if (o.timeouts !== undefined) {
      server.keepAliveTimeout = o.timeouts.keepAliveMs;
      server.headersTimeout = o.timeouts.headersMs;
      server.requestTimeout = o.timeouts.requestMs;
    }
    if (o.answerBadRequests) {
      server.on('clientError', (_err, socket: Duplex) => {
        if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
        else socket.destroy();
      });
    }
    if (o.onUpgrade !== undefined) server.on('upgrade', o.onUpgrade);
  }

  private static bind(server: Server, o: ListenOptions): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: o.port, host: o.host, exclusive: o.exclusive ?? false }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  /** The base URL clients reach the listener at (an IPv6 host in brackets). */
  get url(): string {
    const host = this.host.includes(':') ? `[${this.host}]` : this.host;
    return `${this.tls ? 'https' : 'http'}://${host}:${this.port}`;
  }

  /** Stops listening and ends every open connection (a request in flight is cut); resolves once the socket is
   * closed. Idempotent: later calls return the first one's promise. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    return this.closing;
  }
}

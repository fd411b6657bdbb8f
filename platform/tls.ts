// The api's certificate and key (issue 36, TLS on every listener): read from their files at start (a missing or
// mismatched pair stops the start, naming the files), then read again whenever either file changes, and handed to
// every listener that subscribed (the gRPC host's certificate provider, the HTTPS servers' setSecureContext).
// A renewed pair that does not load (half-written, key and certificate not matching) is logged and the pair in
// force stays: a renewal never takes a listener down.
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { watchFiles } from './watch-files.js';

export interface TlsPair {
  cert: Buffer;
  key: Buffer;
}

/** What a listener needs: the pair in force, and word of the next one. */
export interface TlsSource {
  current(): TlsPair;
  /** Calls `listener` with each new pair; returns the function that stops it. */
  onChange(listener: (pair: TlsPair) => void): () => void;
}

export interface TlsFilesOptions {
  certFile: string;
  keyFile: string;
}

function load(o: TlsFilesOptions): TlsPair {
  const pair = { cert: readFileSync(o.certFile), key: readFileSync(o.keyFile) };
  // Throws when the key does not match the certificate or either does not parse.
  createSecureContext(pair);
  return pair;
}

export class TlsFiles implements TlsSource {
  private pair: TlsPair;
  private readonly listeners = new Set<(pair: TlsPair) => void>();
  private readonly unwatch: () => void;

  constructor(
    private readonly o: TlsFilesOptions,
    private readonly log: Logger,
  ) {
    try {
      this.pair = load(o);
    } catch (err) {
      throw new Error(`TLS certificate ${o.certFile} and key ${o.keyFile}: ${(err as Error).message}`, { cause: err });
    }
    this.unwatch = watchFiles([o.certFile, o.keyFile], () => this.reload());
  }

  current(): TlsPair {
    return this.pair;
  }

  onChange(listener: (pair: TlsPair) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the files again; a pair that loads replaces the one in force everywhere. */
  reload(): void {
    let pair: TlsPair;
    try {
      pair = load(this.o);
    } catch (err) {
      this.log.error(
        { certFile: this.o.certFile, keyFile: this.o.keyFile, err: (err as Error).message },
        'TLS certificate not reloaded: the one in force stays',
      );
      return;
    }
    if (pair.cert.equals(this.pair.cert) && pair.key.equals(this.pair.key)) return;
    this.pair = pair;
    this.log.info({ certFile: this.o.certFile }, 'TLS certificate reloaded');
    for (const l of this.listeners) l(pair);
  }

  close(): void {
    this.unwatch();
    this.listeners.clear();
  }
}

/**
 * An HTTP server, or an HTTPS one serving `tls`'s pair and each renewal of it (Node's setSecureContext: new
 * connections get the new certificate, open ones keep theirs). The JSON-RPC and PubSub listeners are built on it.
 */
export function httpOrHttpsServer(handler: RequestListener, tls: TlsSource | undefined): HttpServer {
  if (tls === undefined) return createHttpServer(handler);
  const server = createHttpsServer({ ...tls.current() }, handler);
  const stop = tls.onChange((pair) => server.setSecureContext({ ...pair }));
  server.on('close', stop);
  return server;
}

// A bare WebSocket client (the `ws` package) for the PubSub robustness tests and the benchmark: sends any
// text or bytes, records answers by id, notifications, and how the connection closed.
import WebSocket from 'ws';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON-RPC messages are checked by value */
export type Json = any;

export class RawClient {
  readonly answers = new Map<unknown, Json>();
  readonly unmatched: Json[] = [];
  readonly notifications: Json[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8'));
      for (const one of Array.isArray(m) ? m : [m]) {
        if (one.method !== undefined) this.notifications.push(one);
        else if (one.id !== null && one.id !== undefined) this.answers.set(one.id, one);
        else this.unmatched.push(one);
      }
    });
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
    ws.on('error', () => undefined);
  }

  static connect(url: string, headers?: Record<string, string>): Promise<RawClient> {
    const ws = new WebSocket(url, { headers, maxPayload: 1 << 30 });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RawClient(ws)));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
  }

  send(m: Json): void {
    this.ws.send(typeof m === 'string' || Buffer.isBuffer(m) ? m : JSON.stringify(m));
  }

  call(id: number, method: string, params?: unknown): void {
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
  }

  close(): void {
    this.ws.close();
  }

  /** Drops the TCP connection without a close frame. */
  cut(): void {
    this.ws.terminate();
  }
}

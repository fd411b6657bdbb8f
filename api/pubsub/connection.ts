// One PubSub WebSocket connection: JSON-RPC 2.0 requests in (single or batch, Agave's envelope rules from
// api/jsonrpc/envelope.ts), answers and notifications out, its subscriptions, and its limits:
// - subscriptions per connection: one more is refused with Agave's -32603 "subscription limit reached";
// - a client that does not read: once the socket owes it more than `maxBufferedBytes`, the connection is
//   closed (1008) and its subscriptions end at once. Nothing waits for a socket, so a slow client costs
//   the others nothing;
// - a request without `id` (a JSON-RPC notification) is not answered and not run: a subscription whose id
//   the client never learns could never be removed;
// - a subscribe identical to one the connection holds (subscription-key.ts: method, params, commitment) gets that
//   subscription's id and adds nothing, so each notification goes out once; one unsubscribe ends it (Agave's rule).
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { RawData, WebSocket } from 'ws';
import { errorResponse, parseBody, resultResponse, type Entry, type Response } from '../solana-json/envelope.js';
import { RpcError, INTERNAL_ERROR, internalError, invalidParam, methodNotFound } from '../solana-json/errors.js';
import { toJson } from '../solana-json/json.js';
import type { LiveFailure } from '../live/index.js';
import type { Denial, Tenant } from '../access/index.js';
import { openSubscriptions, requestErrors, slowClientCloses } from './metrics.js';
import { parseSubscribe, parseUnsubscribe, SUBSCRIBE_METHODS, UNSUBSCRIBE_METHODS } from './params.js';
import { PubSubSubscription, type SubscriptionDeps, type SubscriptionOwner } from './subscription.js';
import { subscriptionKey } from './subscription-key.js';

export interface PubSubLimits {
  /** Subscriptions one connection may hold. */
  readonly maxSubscriptions: number;
  /** Bytes a connection may owe its client before it is closed as too slow. */
  readonly maxBufferedBytes: number;
  /** Requests in one batch. */
  readonly maxBatch: number;
}

export interface ConnectionDeps extends SubscriptionDeps {
  limits: PubSubLimits;
  /** The key the connection was admitted with: its requests and notifications are counted on it, and its limits
   * (subscriptions per connection, stream bytes per second) apply. */
  tenant: Tenant;
  /** Subscription ids are unique in the server (as Agave's), not per connection. */
  nextId(): number;
  readAtDebug: boolean;
  log: Logger;
}

/** How often a waiting snapshot looks at the socket's buffer again (ws has no event for it). */
const DRAIN_POLL_MS = 2;

/** Pings left unanswered before a connection is cut: one late pong (a busy client) is no reason. */
const MISSED_PINGS = 2;

/** WebSocket close codes (RFC 6455). */
export const CLOSE_POLICY = 1008;
export const CLOSE_GOING_AWAY = 1001;

/** Numbers the connections of the process: each has its own share of the ClickHouse queries. */
let connectionCount = 0;

export class PubSubConnection implements SubscriptionOwner {
  readonly client = `ws:${++connectionCount}`;
  private readonly subs = new Map<number, PubSubSubscription>();
  /** The subscriptions of `subs` by subscription key, and each one's key (both hold exactly the entries of `subs`). */
  private readonly byKey = new Map<string, PubSubSubscription>();
  private readonly keys = new Map<number, string>();
  private closed = false;
  private corked = false;
  /** Server pings sent since the client last answered one (or sent anything). */
  private unanswered = 0;

  constructor(
    private readonly ws: WebSocket,
    private readonly d: ConnectionDeps,
    private readonly onClosed: (c: PubSubConnection) => void,
  ) {
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('pong', () => (this.unanswered = 0));
    // ws reports protocol errors (oversized or malformed frames) here and then closes; 'close' cleans up.
    ws.on('error', (err) => d.log.debug({ err }, 'pubsub: connection error'));
    ws.on('close', () => this.dispose());
  }

  get readAtDebug(): boolean {
    return this.d.readAtDebug;
  }

  get subscriptionCount(): number {
    return this.subs.size;
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    this.unanswered = 0;
    const text = (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)).toString('utf8');
    void isBinary; // jsonrpc over WebSocket: binary frames carry the same UTF-8 JSON
    const body = parseBody(text, this.d.limits.maxBatch);
    switch (body.kind) {
      case 'fail':
        this.count(body.response);
        this.write(toJson(body.response));
        return;
      case 'single': {
        this.d.tenant.request('pubsub');
        const r = this.answer(body.entry);
        if (r) this.write(toJson(r));
        return;
      }
      case 'batch': {
        this.d.tenant.request('pubsub', body.entries.length);
        const rs = body.entries.map((e) => this.answer(e)).filter((r): r is Response => r !== undefined);
        if (rs.length > 0) this.write(toJson(rs));
        return;
      }
    }
  }

  private count(r: Response): void {
    if ('error' in r) requestErrors.inc({ code: String(r.error.code) });
  }

  private answer(e: Entry): Response | undefined {
    if (e.kind === 'notification') return undefined;
    let r: Response;
    if (e.kind === 'invalid') r = errorResponse(e.id, e.error);
    else {
      try {
        r = resultResponse(e.id, this.call(e.method, e.params));
      } catch (err) {
        if (!(err instanceof RpcError)) this.d.log.error({ err, method: e.method }, 'pubsub: request failed');
        r = errorResponse(e.id, err instanceof RpcError ? err : internalError());
      }
    }
    this.count(r);
    return r;
  }

  private call(method: string, params: unknown): unknown {
    const kind = SUBSCRIBE_METHODS.get(method);
    if (kind !== undefined) {
      const parsed = parseSubscribe(kind, params);
      const key = subscriptionKey(kind, parsed);
      const same = this.byKey.get(key);
      if (same !== undefined) return same.id;
      const over = this.d.tenant.checkSubscriptionCount(this.subs.size);
      if (over !== undefined) throw new RpcError(-32429, over.message);
      if (this.subs.size >= this.d.limits.maxSubscriptions) {
        throw new RpcError(
          INTERNAL_ERROR,
          'Internal Error: Subscription refused. Node subscription limit reached',
          `at most ${this.d.limits.maxSubscriptions} subscriptions per connection; unsubscribe first or open another connection`,
        );
      }
      const id = this.d.nextId();
      // Registered in the live layer before the answer goes out; notifications come in later steps.
      const sub = new PubSubSubscription(id, kind, parsed.request, parsed.view, parsed.options, this, this.d, parsed.snapshot === true);
      this.subs.set(id, sub);
      this.byKey.set(key, sub);
      this.keys.set(id, key);
      openSubscriptions.inc({ kind });
      return id;
    }
    if (UNSUBSCRIBE_METHODS.has(method)) {
      const sub = this.subs.get(parseUnsubscribe(params));
      if (sub === undefined) throw invalidParam('Invalid subscription id.');
      this.remove(sub);
      return true;
    }
    throw methodNotFound();
  }

  private remove(sub: PubSubSubscription): void {
    if (!this.subs.delete(sub.id)) return;
    const key = this.keys.get(sub.id);
    this.keys.delete(sub.id);
    if (key !== undefined) this.byKey.delete(key);
    sub.close();
    openSubscriptions.dec({ kind: sub.kind });
  }

  ended(sub: PubSubSubscription, failure?: { reason: LiveFailure; message: string }): void {
    if (failure) this.d.log.warn({ subscription: sub.id, ...failure }, 'pubsub: subscription failed');
    this.remove(sub);
  }

  /**
   * Back-pressure for a snapshot: undefined while the socket owes its client less than a quarter of
   * `maxBufferedBytes`, else a promise settled once it owes less (or the connection closed). A snapshot that waits on
   * it never reaches the slow-client bound.
   */
  ready(): Promise<void> | undefined {
    const low = this.d.limits.maxBufferedBytes / 4;
    if (this.closed || this.ws.bufferedAmount < low) return undefined;
    return new Promise<void>((res) => {
      const check = (): void => {
        if (this.closed || this.ws.readyState !== this.ws.OPEN || this.ws.bufferedAmount < low) res();
        else setTimeout(check, DRAIN_POLL_MS);
      };
      setTimeout(check, DRAIN_POLL_MS);
    });
  }

  /** A notification: counted on the key, which may be over its byte rate (the connection then closes). */
  send(text: string): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    this.write(text);
    const over = this.d.tenant.sent('pubsub', 1, Buffer.byteLength(text));
    if (over !== undefined) this.deny(over);
  }

  private deny(d: Denial): void {
    // A close reason holds at most 123 bytes.
    this.close(CLOSE_POLICY, Buffer.from(d.message).subarray(0, 123).toString());
  }

  private write(text: string): void {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    const corked = this.cork();
    this.ws.send(text);
    // While corked, this step's frames are all still buffered: the check waits for the uncork.
    if (!corked) this.checkSlow();
  }

  private checkSlow(): void {
    if (this.closed || this.ws.bufferedAmount <= this.d.limits.maxBufferedBytes) return;
    slowClientCloses.inc();
    this.d.log.warn({ buffered: this.ws.bufferedAmount }, 'pubsub: slow client closed');
    this.close(CLOSE_POLICY, `client too slow: more than ${this.d.limits.maxBufferedBytes} bytes unread`);
  }

  /**
   * Returns whether the socket is corked. The notifications of one synchronous step (a chunk of Kafka records) leave in one socket write: `ws`
   * writes every frame separately, one syscall each, which caps a process well below 100,000 messages a
   * second. Uses the socket under `ws` (`_socket`); without it, frames go out one by one.
   */
  private cork(): boolean {
    if (this.corked) return true;
    const socket = (this.ws as unknown as { _socket?: Partial<Socket> })._socket;
    if (typeof socket?.cork !== 'function' || typeof socket.uncork !== 'function') return false;
    this.corked = true;
    socket.cork();
    process.nextTick(() => {
      this.corked = false;
      socket.uncork!(); // hands the frames to the kernel; what it cannot take yet stays buffered
      this.checkSlow();
    });
    return true;
  }

  ping(): void {
    if (this.closed) return;
    if (this.unanswered >= MISSED_PINGS) {
      // No pong to the last pings: the peer is gone without a close (or cannot keep up even with pings).
      this.ws.terminate();
      this.dispose();
      return;
    }
    this.unanswered++;
    this.ws.ping();
  }

  /** Closes with a code; the socket is cut if the close handshake does not finish soon (a stuck reader). */
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.dispose();
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), 1000).unref();
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const sub of [...this.subs.values()]) this.remove(sub);
    this.onClosed(this);
  }
}

// What every gRPC Subscribe stream on the live layer shares, whatever its wire format (stream.Stream's
// Subscribe in ./stream/subscribe.ts, geyser.Geyser's in ./geyser/subscribe.ts): the bounded Outbound queue,
// a LiveSession, the open-streams metric, the call's lifecycle events, and Yellowstone's request rules:
// an invalid request ends the stream with INVALID_ARGUMENT "failed to create filter: <reason>", a ping is
// answered with a pong and changes nothing, any other request replaces the whole registration.
// Issue 23: a request may name a durable cursor (resumed from its stored position, advanced as slots are fully
// written to HTTP/2), an end slot (the stream then ends with OK) and a replay pace (`startStream`).
import { status, type ServerDuplexStream } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { CompiledSubscription } from '../filters/index.js';
import {
  cursorStart,
  type LiveFailure,
  type LiveLayer,
  type LiveSession,
  type SessionSink,
  type SharedEvent,
  type StreamBounds,
} from '../live/index.js';
import { subscriptionShape, type AccessControl, type AccessInterface, type Denial, type Lease, type Tenant } from '../access/index.js';
import { admitCall, DENIAL_STATUS } from './auth.js';
import { openStreams, slowClientCutoffs } from './metrics.js';
import { PrefixCache } from './filters-prefix.js';
import { Outbound, outgoing } from './outbound.js';

/** How the live layer's failures (catalogue codes) read on gRPC: the edge's one mapping table. */
export const FAILURE_STATUS: Record<LiveFailure, status> = {
  SLOTSTREAM_REPLAY_OUT_OF_RANGE: status.OUT_OF_RANGE,
  SLOTSTREAM_CLIENT_TOO_SLOW: status.RESOURCE_EXHAUSTED,
  SLOTSTREAM_LIVE_UNAVAILABLE: status.UNAVAILABLE,
  SLOTSTREAM_TOO_MANY_REPLAYS: status.RESOURCE_EXHAUSTED,
};

export interface SessionStreamDeps {
  live: LiveLayer;
  queueSize: number;
  log: Logger;
}

/** What a stream is admitted with: the host's access check and its service's interface. */
export interface StreamAccess {
  access: AccessControl;
  iface: AccessInterface;
}

/** What a request asks for: an error, a pong to send, a subscription to apply (with its bounds, and a snapshot
 * first: issue 23), or nothing (SubscribeParsed's ping: its response type has no pong). A snapshot never comes with
 * a cursor (the adapters refuse the pair). */
export type Accepted =
  { error: string } | { pong: Buffer } | { subscription: CompiledSubscription; bounds?: StreamBounds; snapshot?: boolean } | { none: true };

export abstract class SessionStream<Req> implements SessionSink {
  protected readonly out: Outbound;
  protected readonly session: LiveSession;
  private readonly prefixes = new PrefixCache();
  private closed = false;
  /** The durable cursor of the current registration, if it names one. */
  private cursor: string | undefined;
  /** Bumped by every registration: a cursor look-up answered after a newer request is dropped. */
  private starts = 0;
  /** The key the stream is served under (undefined: refused at open), and its open-stream lease. */
  private readonly tenant: Tenant | undefined;
  private readonly lease: Lease | undefined;

  constructor(
    call: ServerDuplexStream<Req, Buffer>,
    protected readonly d: SessionStreamDeps,
    /** The open-streams metric's label. */
    private readonly method: string,
    private readonly a: StreamAccess,
  ) {
    this.out = new Outbound(call, d.queueSize, (details) => {
      slowClientCutoffs.inc();
      d.log.warn({ method, stream: this.session.id, details }, 'slow client cut off');
      this.close();
    });
    this.session = d.live.openSession(this, { bufferLimit: d.queueSize });
    openStreams.inc({ method });
    call.on('data', (req: Req) => this.onRequest(req));
    // A client that ends its sending side keeps receiving until it cancels: nothing to do on 'end'.
    call.on('end', () => undefined);
    call.on('cancelled', () => this.close(true));
    call.on('close', () => this.close(true));
    call.on('error', () => this.close(true));
    // The host's interceptor admitted the call; a key revoked since reads as unknown here.
    const admission = admitCall(a.access, call.metadata, a.iface);
    if (!admission.ok) {
      this.deny(admission.denial);
      return;
    }
    const lease = admission.tenant.openStream(a.iface, (message) => this.deny({ kind: 'unauthenticated', reason: 'revoked', message }));
    if (!('release' in lease)) {
      this.deny(lease);
      return;
    }
    this.tenant = admission.tenant;
    this.lease = lease;
  }

  /** False once the stream ended (or was refused at open). */
  protected get active(): boolean {
    return !this.closed;
  }

  /** Ends the stream with the access denial's status (its message names the limit). */
  private deny(d: Denial): void {
    if (this.closed) return;
    this.out.fail(DENIAL_STATUS[d.kind], d.message);
    this.close();
  }

  /** Counts what the stream sent under its key; past the key's byte rate the stream ends. */
  protected sendCounted(slot: bigint | undefined, o: Parameters<Outbound['send']>[0]): void {
    if (this.closed) return;
    this.out.send(o);
    const over = this.tenant?.sent(this.a.iface, slot === undefined ? 0 : 1, (o.prefix?.length ?? 0) + o.bytes.length);
    if (over !== undefined) this.deny(over);
  }

  /** Validates and compiles a request (and keeps whatever the transport needs to encode for it). */
  protected abstract accept(req: Req): Accepted;
  /** The server ping message; undefined: the response type has none (SubscribeParsed). */
  protected abstract pingBytes(): Buffer | undefined;
  abstract deliver(u: SharedEvent, names: readonly string[]): void;

  get lastSlot(): bigint | undefined {
    return this.out.lastSlot;
  }

  private onRequest(req: Req): void {
    if (this.closed) return;
    const a = this.accept(req);
    if ('error' in a) {
      this.out.fail(status.INVALID_ARGUMENT, `failed to create filter: ${a.error}`);
      this.close();
    } else if ('pong' in a) this.sendCounted(undefined, { slot: undefined, bytes: a.pong });
    else if ('subscription' in a) {
      const over = this.tenant?.checkSubscription(subscriptionShape(a.subscription, this.d.live.chainTip()));
      if (over !== undefined) this.deny(over);
      else this.startStream(a.subscription, a.bounds ?? {}, a.snapshot === true);
    }
  }

  /**
   * Registers a subscription with its bounds. With a cursor, the stream starts right after the cursor's stored
   * position when it has one (whatever from_slot says), else at from_slot (or live), and every slot fully
   * written from then on is stored as the cursor's position (`delivered`). `snapshot`: the state first, then the
   * writes after it (LiveSession.applySnapshot); the adapters never pair it with a cursor.
   */
  private startStream(sub: CompiledSubscription, bounds: StreamBounds, snapshot: boolean): void {
    const start = ++this.starts;
    // The registration in place until the look-up answers is not this cursor's: its slots must not move it.
    this.cursor = undefined;
    const opts = { toSlot: bounds.toSlot, pace: bounds.pace, reportDelivered: bounds.cursor !== undefined };
    if (bounds.cursor === undefined) {
      if (snapshot) this.session.applySnapshot(sub, opts);
      else this.session.apply(sub, opts);
      return;
    }
    const name = bounds.cursor;
    this.d.live.cursors.get(name).then(
      (position) => {
        if (this.closed || start !== this.starts) return;
        const fromSlot = cursorStart(position?.slot, sub.fromSlot);
        this.cursor = name;
        this.d.log.info(
          { stream: this.session.id, cursor: name, position: position?.slot.toString(), fromSlot: fromSlot?.toString() },
          'stream on a cursor',
        );
        this.session.apply({ ...sub, fromSlot }, opts);
      },
      (err: unknown) => {
        if (this.closed || start !== this.starts) return;
        this.out.fail(status.UNAVAILABLE, `cursor ${name}: its position cannot be read: ${(err as Error).message}`);
        this.close();
      },
    );
  }

  /** Every update of `slot` and before was handed to this stream: once HTTP/2 took them, the cursor moves there. */
  delivered(slot: bigint): void {
    const name = this.cursor;
    if (name === undefined) return;
    const cursors = this.d.live.cursors;
    this.out.mark(() => void cursors.save(name, slot));
  }

  /** The end slot went out: status OK after everything queued. */
  end(): void {
    this.out.end();
    this.close();
  }

  /** Sends a shared body behind this stream's `filters` prefix. */
  protected send(slot: bigint, names: readonly string[], body: Buffer | undefined): void {
    if (body !== undefined && names.length > 0) this.sendCounted(slot, outgoing(slot, this.prefixes.get(names), body));
  }

  /** A snapshot waits on the outgoing queue (Outbound.ready). */
  ready(): Promise<void> | undefined {
    return this.out.ready();
  }

  ping(): void {
    const bytes = this.pingBytes();
    if (bytes !== undefined) this.sendCounted(undefined, { slot: undefined, bytes });
  }

  fail(reason: LiveFailure, message: string): void {
    if (reason === 'SLOTSTREAM_CLIENT_TOO_SLOW') slowClientCutoffs.inc();
    // A cursor fallen out of retention: the from_slot it resumes at is its position + 1.
    const text = reason === 'SLOTSTREAM_REPLAY_OUT_OF_RANGE' && this.cursor !== undefined ? `cursor ${this.cursor}: ${message}` : message;
    this.out.fail(FAILURE_STATUS[reason], text);
    this.close();
  }

  private close(abandoned = false): void {
    if (this.closed) return;
    this.closed = true;
    if (abandoned) this.out.abandon();
    openStreams.dec({ method: this.method });
    this.lease?.release();
    this.session.close();
  }
}

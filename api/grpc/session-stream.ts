// What every gRPC Subscribe stream on the live layer shares, whatever its wire format (stream.Stream's
// Subscribe in ./stream/subscribe.ts, geyser.Geyser's in ./geyser/subscribe.ts): the bounded Outbound queue,
// a LiveSession, the open-streams metric, the call's lifecycle events, and Yellowstone's request rules:
// an invalid request ends the stream with INVALID_ARGUMENT "failed to create filter: <reason>", a ping is
// answered with a pong and changes nothing, any other request replaces the whole registration.
import { status, type ServerDuplexStream } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { CompiledSubscription } from '../filters/index.js';
import type { LiveFailure, LiveLayer, LiveSession, SessionSink, SharedEvent } from '../live/index.js';
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

/** What a request asks for: an error, a pong to send, a subscription to apply (with a snapshot first: issue 23),
 * or nothing (SubscribeParsed's ping: its response type has no pong). */
export type Accepted = { error: string } | { pong: Buffer } | { subscription: CompiledSubscription; snapshot?: boolean } | { none: true };

export abstract class SessionStream<Req> implements SessionSink {
  protected readonly out: Outbound;
  protected readonly session: LiveSession;
  private readonly prefixes = new PrefixCache();
  private closed = false;

  constructor(
    call: ServerDuplexStream<Req, Buffer>,
    protected readonly d: SessionStreamDeps,
    /** The open-streams metric's label. */
    private readonly method: string,
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
    } else if ('pong' in a) this.out.send({ slot: undefined, bytes: a.pong });
    else if ('subscription' in a) {
      if (a.snapshot === true) this.session.applySnapshot(a.subscription);
      else this.session.apply(a.subscription);
    }
  }

  /** Sends a shared body behind this stream's `filters` prefix. */
  protected send(slot: bigint, names: readonly string[], body: Buffer | undefined): void {
    if (body !== undefined && names.length > 0) this.out.send(outgoing(slot, this.prefixes.get(names), body));
  }

  /** A snapshot waits on the outgoing queue (Outbound.ready). */
  ready(): Promise<void> | undefined {
    return this.out.ready();
  }

  ping(): void {
    const bytes = this.pingBytes();
    if (bytes !== undefined) this.out.send({ slot: undefined, bytes });
  }

  fail(reason: LiveFailure, message: string): void {
    if (reason === 'SLOTSTREAM_CLIENT_TOO_SLOW') slowClientCutoffs.inc();
    this.out.fail(FAILURE_STATUS[reason], message);
    this.close();
  }

  private close(abandoned = false): void {
    if (this.closed) return;
    this.closed = true;
    if (abandoned) this.out.abandon();
    openStreams.dec({ method: this.method });
    this.session.close();
  }
}

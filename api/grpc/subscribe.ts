// One stream.Stream Subscribe stream (behaviour.md "Subscribe: stream lifecycle"), a thin adapter on the
// live layer's session (api/live/session.ts: registration, replay and hand-over, commitment gate):
// - each request replaces the whole filter set; a request carrying `ping` is answered with `pong{id}` and
//   changes nothing (its other fields are still validated); invalid filters end the stream with
//   INVALID_ARGUMENT "failed to create filter: <reason>";
// - updates go out as `filters prefix + shared body` through the Outbound queue, which bounds what a slow
//   client may owe.
import { status, type ServerDuplexStream } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { SubscribeRequest } from '../../proto/gen/stream.js';
import { compileSubscribeRequest, type DataSlice, type FilterLimits } from '../filters/index.js';
import type { LiveFailure, LiveLayer, LiveSession, SessionSink, SharedEvent } from '../live/index.js';
import { encodePing, encodePong, sliceKey } from './encode.js';
import { openStreams, slowClientCutoffs } from './metrics.js';
import { Outbound } from './outbound.js';
import { outgoing, PrefixCache, streamBody } from './stream-body.js';

export interface SubscribeDeps {
  live: LiveLayer;
  limits: FilterLimits;
  queueSize: number;
  log: Logger;
}

/** How the live layer's failures read on gRPC. */
export const FAILURE_STATUS: Record<LiveFailure, status> = {
  outOfRange: status.OUT_OF_RANGE,
  tooSlow: status.RESOURCE_EXHAUSTED,
  unavailable: status.UNAVAILABLE,
};

export class SubscribeStream implements SessionSink {
  private readonly out: Outbound;
  private readonly session: LiveSession;
  private readonly prefixes = new PrefixCache();
  private slices: readonly DataSlice[] = [];
  private slicesKey = '';
  private closed = false;

  constructor(
    call: ServerDuplexStream<SubscribeRequest, Buffer>,
    private readonly d: SubscribeDeps,
  ) {
    this.out = new Outbound(call, d.queueSize, (details) => {
      slowClientCutoffs.inc();
      d.log.warn({ stream: this.session.id, details }, 'slow client cut off');
      this.close();
    });
    this.session = d.live.openSession(this, { bufferLimit: d.queueSize });
    openStreams.inc({ method: 'Subscribe' });
    call.on('data', (req: SubscribeRequest) => this.onRequest(req));
    // A client that ends its sending side keeps receiving until it cancels: nothing to do on 'end'.
    call.on('end', () => undefined);
    call.on('cancelled', () => this.close(true));
    call.on('close', () => this.close(true));
    call.on('error', () => this.close(true));
  }

  get lastSlot(): bigint | undefined {
    return this.out.lastSlot;
  }

  private onRequest(req: SubscribeRequest): void {
    if (this.closed) return;
    const compiled = compileSubscribeRequest(req, this.d.limits);
    if (!compiled.ok) {
      this.out.fail(status.INVALID_ARGUMENT, `failed to create filter: ${compiled.error.message}`);
      this.close();
      return;
    }
    if (req.ping) {
      this.out.send({ slot: undefined, bytes: encodePong(req.ping.id) });
      return;
    }
    this.slices = compiled.value.accountsDataSlice;
    this.slicesKey = sliceKey(compiled.value.accountsDataSlice);
    this.session.apply(compiled.value);
  }

  deliver(u: SharedEvent, names: readonly string[]): void {
    const body = streamBody(u, this.slices, this.slicesKey);
    if (body !== undefined) this.out.send(outgoing(u.slot, this.prefixes.get(names), body));
  }

  ping(): void {
    this.out.send({ slot: undefined, bytes: encodePing() });
  }

  fail(reason: LiveFailure, message: string): void {
    if (reason === 'tooSlow') slowClientCutoffs.inc();
    this.out.fail(FAILURE_STATUS[reason], message);
    this.close();
  }

  private close(abandoned = false): void {
    if (this.closed) return;
    this.closed = true;
    if (abandoned) this.out.abandon();
    openStreams.dec({ method: 'Subscribe' });
    this.session.close();
  }
}

export function handleSubscribe(d: SubscribeDeps) {
  return (call: ServerDuplexStream<SubscribeRequest, Buffer>): void => {
    new SubscribeStream(call, d);
  };
}

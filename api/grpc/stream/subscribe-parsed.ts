// SubscribeParsed (behaviour.md "SubscribeParsed"): every transaction with at least one decodable top-level
// pump.fun instruction, with the bonding-curve account update the same transaction wrote. One ParsedFeed per
// server runs the join (api/pumpfun/join.ts) on the live layer only while a parsed stream is open, and
// encodes each message once for all of them. The client may only send pings, which keep the stream alive;
// the response type has no pong, so none is sent.
import type { ServerDuplexStream } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { SubscribeParsedRequest } from '../../../proto/gen/stream.js';
import type { LiveLayer } from '../../live/index.js';
import { PumpJoin } from '../../pumpfun/index.js';
import { encodeParsed } from './encode.js';
import { openStreams, slowClientCutoffs } from '../metrics.js';
import { Outbound } from '../outbound.js';

export class ParsedFeed {
  private readonly streams = new Set<ParsedStream>();
  private join: PumpJoin | undefined;

  constructor(
    private readonly live: LiveLayer,
    private readonly joinMs?: number,
  ) {}

  add(s: ParsedStream): void {
    this.streams.add(s);
    if (this.join) return;
    this.join = new PumpJoin((tx, instructions, acc) => {
      const bytes = encodeParsed(tx, instructions, acc);
      for (const p of this.streams) p.send(tx.slot, bytes);
    }, this.joinMs);
    this.live.addObserver(this.join);
  }

  remove(s: ParsedStream): void {
    this.streams.delete(s);
    if (this.streams.size > 0 || !this.join) return;
    this.live.removeObserver(this.join);
    this.join.stop();
    this.join = undefined;
  }
}

export interface SubscribeParsedDeps {
  feed: ParsedFeed;
  queueSize: number;
  log: Logger;
}

export class ParsedStream {
  private readonly out: Outbound;
  private closed = false;

  constructor(
    call: ServerDuplexStream<SubscribeParsedRequest, Buffer>,
    private readonly d: SubscribeParsedDeps,
  ) {
    this.out = new Outbound(call, d.queueSize, (details) => {
      slowClientCutoffs.inc();
      d.log.warn({ details }, 'slow SubscribeParsed client cut off');
      this.close();
    });
    openStreams.inc({ method: 'SubscribeParsed' });
    d.feed.add(this);
    call.on('data', () => undefined);
    call.on('end', () => undefined);
    call.on('cancelled', () => this.close(true));
    call.on('close', () => this.close(true));
    call.on('error', () => this.close(true));
  }

  send(slot: bigint, bytes: Buffer): void {
    if (!this.closed) this.out.send({ slot, bytes });
  }

  private close(abandoned = false): void {
    if (this.closed) return;
    this.closed = true;
    if (abandoned) this.out.abandon();
    openStreams.dec({ method: 'SubscribeParsed' });
    this.d.feed.remove(this);
  }
}

export function handleSubscribeParsed(d: SubscribeParsedDeps) {
  return (call: ServerDuplexStream<SubscribeParsedRequest, Buffer>): void => {
    new ParsedStream(call, d);
  };
}

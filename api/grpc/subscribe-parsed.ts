// One SubscribeParsed stream (behaviour.md "SubscribeParsed"): every transaction with at least one decodable
// top-level pump.fun instruction, with the bonding-curve account update the same transaction wrote. The
// hub builds each message once for all parsed streams. The client may only send pings, which keep the
// stream alive; the response type has no pong, so none is sent.
import type { ServerDuplexStream } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { SubscribeParsedRequest } from '../../proto/gen/stream.js';
import type { Hub, ParsedSubscriber } from './hub.js';
import { openStreams, slowClientCutoffs } from './metrics.js';
import { Outbound } from './outbound.js';

export interface SubscribeParsedDeps {
  hub: Hub;
  queueSize: number;
  log: Logger;
}

export class ParsedSession implements ParsedSubscriber {
  private readonly out: Outbound;
  private closed = false;

  constructor(call: ServerDuplexStream<SubscribeParsedRequest, Buffer>, private readonly d: SubscribeParsedDeps) {
    this.out = new Outbound(call, d.queueSize, (details) => {
      slowClientCutoffs.inc();
      d.log.warn({ details }, 'slow SubscribeParsed client cut off');
      this.close();
    });
    openStreams.inc({ method: 'SubscribeParsed' });
    d.hub.addParsed(this);
    call.on('data', () => undefined);
    call.on('end', () => undefined);
    call.on('cancelled', () => this.close(true));
    call.on('close', () => this.close(true));
    call.on('error', () => this.close(true));
  }

  onParsed(slot: bigint, bytes: Buffer): void {
    if (!this.closed) this.out.send({ slot, bytes });
  }

  private close(abandoned = false): void {
    if (this.closed) return;
    this.closed = true;
    if (abandoned) this.out.abandon();
    openStreams.dec({ method: 'SubscribeParsed' });
    this.d.hub.removeParsed(this);
  }
}

export function handleSubscribeParsed(d: SubscribeParsedDeps) {
  return (call: ServerDuplexStream<SubscribeParsedRequest, Buffer>): void => {
    new ParsedSession(call, d);
  };
}

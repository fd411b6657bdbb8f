// One geyser.Geyser Subscribe stream, a thin adapter on the live layer's session (api/live/session.ts:
// registration, from_slot replay and hand-over, commitment gate), with Yellowstone's stream semantics
// (yellowstone-grpc-geyser grpc.rs):
// - each request replaces the whole filter set; a request carrying `ping` is answered with `pong{id}` and
//   changes nothing; invalid filters end the stream with INVALID_ARGUMENT "failed to create filter: <reason>";
// - a transaction matching both lists goes out twice, as `transaction` then as `transaction_status`, each
//   with its own filter names; a block goes out once per matching blocks filter (their content differs);
// - updates leave as `filters prefix + shared body` through api/grpc's Outbound queue, which cuts a slow
//   client off with RESOURCE_EXHAUSTED naming the last slot it was sent.
import { status, type ServerDuplexStream } from '@grpc/grpc-js';
import type { SubscribeRequest } from '@triton-one/yellowstone-grpc';
import type { Logger } from 'pino';
import { compileGeyserRequest, splitTransactionNames, type GeyserFilterLimits, type GeyserRequest } from '../filters/from-geyser.js';
import type { CompiledBlocksFilter } from '../filters/index.js';
import { encodeFiltersPrefix } from '../grpc/encode.js';
import { openStreams, slowClientCutoffs } from '../grpc/metrics.js';
import { Outbound } from '../grpc/outbound.js';
import { FAILURE_STATUS } from '../grpc/subscribe.js';
import { outgoing, PrefixCache } from '../grpc/stream-body.js';
import type { LiveFailure, LiveLayer, LiveSession, SessionSink, SharedEvent } from '../live/index.js';
import {
  accountBody,
  blockBody,
  blockMetaBody,
  blocksFilterKey,
  encodePing,
  encodePong,
  entryBody,
  slotBody,
  transactionBody,
  transactionStatusBody,
} from './encode.js';
import { slicesKey } from './slices.js';

export interface GeyserSubscribeDeps {
  live: LiveLayer;
  limits: GeyserFilterLimits;
  queueSize: number;
  log: Logger;
}

const METHOD = 'geyser.Subscribe';

export class GeyserStream implements SessionSink {
  private readonly out: Outbound;
  private readonly session: LiveSession;
  private readonly prefixes = new PrefixCache();
  private req: GeyserRequest | undefined;
  private slicesKey = '';
  /** Per blocks filter name: the filter and its encoding key. */
  private blocks = new Map<string, { filter: CompiledBlocksFilter; key: string }>();
  private closed = false;

  constructor(
    call: ServerDuplexStream<SubscribeRequest, Buffer>,
    private readonly d: GeyserSubscribeDeps,
  ) {
    this.out = new Outbound(call, d.queueSize, (details) => {
      slowClientCutoffs.inc();
      d.log.warn({ stream: this.session.id, details }, 'slow geyser client cut off');
      this.close();
    });
    this.session = d.live.openSession(this, { bufferLimit: d.queueSize });
    openStreams.inc({ method: METHOD });
    call.on('data', (req: SubscribeRequest) => this.onRequest(req));
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
    const compiled = compileGeyserRequest(req, this.d.limits);
    if (!compiled.ok) {
      this.out.fail(status.INVALID_ARGUMENT, `failed to create filter: ${compiled.error.message}`);
      this.close();
      return;
    }
    const r = compiled.value;
    if (r.ping !== undefined) {
      this.out.send({ slot: undefined, bytes: encodePong(r.ping) });
      return;
    }
    this.req = r;
    const slices = r.compiled.accountsDataSlice;
    this.slicesKey = slicesKey(slices);
    this.blocks = new Map(r.compiled.blocks.map((f) => [f.name, { filter: f, key: blocksFilterKey(f, slices) }]));
    this.session.apply(r.compiled);
  }

  private send(u: SharedEvent, names: readonly string[], body: Buffer | undefined): void {
    if (body !== undefined && names.length > 0) this.out.send(outgoing(u.slot, this.prefixes.get(names), body));
  }

  deliver(u: SharedEvent, names: readonly string[]): void {
    const req = this.req;
    if (!req) return;
    try {
      this.deliverOne(u, names, req);
    } catch (err) {
      // A record the Yellowstone messages cannot express (say, an unknown transaction error): skipped and
      // logged, never the end of the stream.
      this.d.log.warn({ stream: this.session.id, slot: u.slot.toString(), kind: u.kind, reason: (err as Error).message }, 'geyser: update not encodable, skipped');
    }
  }

  private deliverOne(u: SharedEvent, names: readonly string[], req: GeyserRequest): void {
    const live = u.live;
    switch (live.kind) {
      case 'transaction': {
        const { transactions, status: st } = splitTransactionNames(names);
        if (transactions.length > 0) this.send(u, transactions, transactionBody(u, live.event));
        if (st.length > 0) this.send(u, st, transactionStatusBody(u, live.event));
        return;
      }
      case 'account': {
        let passing = names;
        if (req.nonemptyTxnSignature.size > 0) {
          const signed = (live.scan ? live.scan.txnSignature : live.event.txnSignature) !== undefined;
          passing = names.filter((n) => {
            const want = req.nonemptyTxnSignature.get(n);
            return want === undefined || want === signed;
          });
        }
        if (passing.length > 0) this.send(u, passing, accountBody(u, live.event, req.compiled.accountsDataSlice, this.slicesKey));
        return;
      }
      case 'slot':
        return this.send(u, names, slotBody(u));
      case 'blockMeta':
        return this.send(u, names, blockMetaBody(u));
      case 'entry':
        return this.send(u, names, entryBody(u));
      case 'block':
        for (const n of names) {
          const b = this.blocks.get(n);
          if (b) this.out.send(outgoing(u.slot, encodeFiltersPrefix([n]), blockBody(u, live.event, b.filter, req.compiled.accountsDataSlice, b.key)));
        }
        return;
    }
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
    openStreams.dec({ method: METHOD });
    this.session.close();
  }
}

export function handleGeyserSubscribe(d: GeyserSubscribeDeps) {
  return (call: ServerDuplexStream<SubscribeRequest, Buffer>): void => {
    new GeyserStream(call, d);
  };
}

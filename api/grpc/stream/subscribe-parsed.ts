// SubscribeParsed (behaviour.md "SubscribeParsed"): every pump.fun and PumpSwap transaction decoded, each joined
// with the bonding-curve / pool account updates it wrote. The ingest builds each update once its slot is whole
// (ingest/publish/parsed-slot.ts) into the parsed topic; here a stream re-frames those bytes, the way Subscribe
// re-frames a record's (docs/decisions.md, Issue 20: "the parsed topic"). A SessionStream like Subscribe
// (api/grpc/session-stream.ts), so commitment, from_slot replay, cursors and to_slot are the live layer's, with
// Subscribe's semantics and errors: the registration is the parsed kind only, at the request's commitment.
// The stream applies the default registration when it opens (an old client sends nothing but pings); a request
// that sets any new field replaces it, a ping alone changes nothing and gets no answer (the response type has no
// pong). The request's filters (api/pumpfun/parsed-filter.ts) read the record's summary, and its facts only when
// they ask more than the default (decoded once per record for every stream: the SharedEvent's cache).
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { CommitmentLevel, SubscribeRequest, type SubscribeParsedRequest } from '../../../proto/gen/stream.js';
import { ParsedFacts, type ParsedTransactionEvent } from '../../../schemas/gen/events.js';
import { compileSubscribeRequest, type CompileResult, type FilterLimits } from '../../filters/index.js';
import { STREAM_FIELD_NAMES, streamBounds, type SharedEvent } from '../../live/index.js';
import {
  compileParsedFilter,
  DEFAULT_PARSED_FILTER,
  hasParsedOptions,
  matchParsed,
  type ParsedFilter,
} from '../../pumpfun/parsed-filter.js';
import { SessionStream, type Accepted, type SessionStreamDeps, type StreamAccess } from '../session-stream.js';

export interface SubscribeParsedDeps extends SessionStreamDeps {
  limits: FilterLimits;
}

/** The live layer's registration a SubscribeParsed request stands for: the parsed updates (filter name `parsed`)
 * at its commitment, from its from_slot; commitment and from_slot checked as Subscribe checks them. */
function parsedRegistration(r: Pick<SubscribeParsedRequest, 'commitment' | 'fromSlot'>, limits: FilterLimits): CompileResult {
  const c = compileSubscribeRequest(
    { ...SubscribeRequest.fromPartial({}), commitment: r.commitment ?? CommitmentLevel.PROCESSED, fromSlot: r.fromSlot },
    limits,
  );
  return c.ok ? { ok: true, value: { ...c.value, parsed: [{ name: 'parsed' }] } } : c;
}

const FACTS = 'parsed-facts';

export class ParsedStream extends SessionStream<SubscribeParsedRequest> {
  private filter: ParsedFilter = DEFAULT_PARSED_FILTER;

  constructor(
    call: ServerDuplexStream<SubscribeParsedRequest, Buffer>,
    private readonly deps: SubscribeParsedDeps,
    access: StreamAccess,
  ) {
    super(call, deps, 'SubscribeParsed', access);
    if (!this.active) return;
    const initial = parsedRegistration({}, deps.limits);
    if (!initial.ok) throw new Error(`SubscribeParsed's default registration does not compile: ${initial.error.message}`);
    this.session.apply(initial.value);
  }

  protected accept(req: SubscribeParsedRequest): Accepted {
    if (!hasParsedOptions(req)) return { none: true };
    const f = compileParsedFilter(req);
    if (!f.ok) return { error: f.error };
    const compiled = parsedRegistration(req, this.deps.limits);
    if (!compiled.ok) return { error: compiled.error.message };
    const bounds = streamBounds({ cursor: req.cursor, toSlot: req.toSlot, pace: req.pace, fromSlot: req.fromSlot }, STREAM_FIELD_NAMES);
    if (!bounds.ok) return { error: bounds.error };
    this.filter = f.filter;
    return { subscription: compiled.value, bounds: bounds.value };
  }

  protected pingBytes(): Buffer | undefined {
    // SubscribeUpdateParsedTransaction has no ping: the server's keep-alive pings are not sent here.
    return undefined;
  }

  deliver(u: SharedEvent, names: readonly string[]): void {
    if (names.length === 0 || u.live.kind !== 'parsed') return;
    const p: ParsedTransactionEvent = u.live.event;
    if (matchParsed(this.filter, p, () => u.encoded(FACTS, () => ParsedFacts.decode(p.facts))))
      this.sendCounted(p.slot, { slot: p.slot, bytes: p.update });
  }
}

export function handleSubscribeParsed(d: SubscribeParsedDeps, access: StreamAccess) {
  return (call: ServerDuplexStream<SubscribeParsedRequest, Buffer>): void => {
    new ParsedStream(call, d, access);
  };
}

// SubscribeParsed (behaviour.md "SubscribeParsed"): every pump.fun and PumpSwap transaction decoded, each
// joined with the bonding-curve / pool account updates it wrote. A SessionStream like Subscribe
// (api/grpc/session-stream.ts), so commitment and from_slot replay are the live layer's, with Subscribe's
// semantics and errors: the stream's registration is a Subscribe request for transactions that include
// either program (failed ones only when asked) and for writes of accounts either program owns, compiled by
// the same code (api/filters). The stream applies the default registration when it opens (an old client
// sends nothing but pings); a request that sets any new field replaces it, a ping alone changes nothing and
// gets no answer (the response type has no pong).
// Per delivered transaction the parsed content (api/pumpfun/parsed-scan.ts) is built once and shared by
// every stream through the SharedEvent (parsed-update.ts); each stream filters it (api/pumpfun/parsed-filter.ts)
// and runs its own join (its registration, commitment and replay decide which account writes it sees), and
// the encoded message is shared by every stream whose join came out the same (one encoding per transaction
// on a live feed).
import type { ServerDuplexStream } from '@grpc/grpc-js';
import {
  CommitmentLevel,
  SubscribeRequest,
  type SubscribeParsedRequest,
  type SubscribeRequestFilterAccounts,
  type SubscribeRequestFilterTransactions,
} from '../../../proto/gen/stream.js';
import type { AccountEvent } from '../../../schemas/gen/events.js';
import { compileSubscribeRequest, type FilterLimits } from '../../filters/index.js';
import { STREAM_FIELD_NAMES, streamBounds, type SharedEvent } from '../../live/index.js';
import { PUMP, PUMP_AMM } from '../../pumpfun/index.js';
import {
  compileParsedFilter,
  DEFAULT_PARSED_FILTER,
  hasParsedOptions,
  matchParsed,
  type ParsedFilter,
} from '../../pumpfun/parsed-filter.js';
import { PumpJoin, type JoinOptions, type JoinWrite } from '../../pumpfun/join.js';
import { SessionStream, type Accepted, type SessionStreamDeps } from '../session-stream.js';
import { parsedUpdateOf, type ParsedUpdate } from './parsed-update.js';

export interface SubscribeParsedDeps extends SessionStreamDeps {
  limits: FilterLimits;
  /** The curve/pool join's bounds (api/pumpfun/join.ts: keyed to chain position; wall time only when idle). */
  join?: JoinOptions;
}

/** Where a live update was read (the record's partition; -1 for an update built without a record). */
const partitionOf = (live: object): number => (live as { partition?: number }).partition ?? -1;

/** An account update as the join takes it: from the record's scan, decoded in full only when joined. */
function joinWrite(live: SharedEvent['live'] & { kind: 'account' }): JoinWrite {
  const scan = live.scan;
  if (scan === undefined)
    return { slot: live.event.slot, pubkey: live.event.pubkey, txnSignature: live.event.txnSignature, event: live.event };
  return {
    slot: scan.slot,
    pubkey: scan.pubkey,
    txnSignature: scan.txnSignature,
    get event() {
      return live.event;
    },
  };
}

const PROGRAMS = [PUMP.programId, PUMP_AMM.programId];

/** The Subscribe request a SubscribeParsed request stands for (filter name `parsed`). */
export function parsedRegistration(r: Pick<SubscribeParsedRequest, 'includeFailed' | 'commitment' | 'fromSlot'>): SubscribeRequest {
  const tx: SubscribeRequestFilterTransactions = {
    accountInclude: PROGRAMS,
    accountExclude: [],
    accountRequired: [],
    vote: false,
    failed: r.includeFailed ? undefined : false,
    instructions: [],
  };
  const acc: SubscribeRequestFilterAccounts = { account: [], owner: PROGRAMS, filters: [] };
  return {
    ...SubscribeRequest.fromPartial({}),
    transactions: new Map([['parsed', tx]]),
    accounts: new Map([['parsed', acc]]),
    commitment: r.commitment ?? CommitmentLevel.PROCESSED,
    fromSlot: r.fromSlot,
  };
}

export class ParsedStream extends SessionStream<SubscribeParsedRequest> {
  // The join pairs each transaction with the curve/pool write it made: at confirmed and finalized the gate must
  // not keep only a curve's last write of the slot (the earlier trades of a hot curve would lose theirs).
  protected override readonly everyWrite = true;
  private filter: ParsedFilter = DEFAULT_PARSED_FILTER;
  private readonly join: PumpJoin<ParsedUpdate>;

  constructor(
    call: ServerDuplexStream<SubscribeParsedRequest, Buffer>,
    private readonly deps: SubscribeParsedDeps,
  ) {
    super(call, deps, 'SubscribeParsed');
    const at = deps.live.positions();
    this.join = new PumpJoin<ParsedUpdate>((p, curve, pool) => this.emit(p, curve, pool), {
      transactionPartitions: at.partitions(deps.live.topics.transactions).size,
      accountPartitions: at.partitions(deps.live.topics.accounts).size,
      ...deps.join,
    });
    call.on('close', () => this.join.stop());
    call.on('cancelled', () => this.join.stop());
    call.on('error', () => this.join.stop());
    const initial = compileSubscribeRequest(parsedRegistration({}), deps.limits);
    if (!initial.ok) throw new Error(`SubscribeParsed's default registration does not compile: ${initial.error.message}`);
    this.session.apply(initial.value, { everyWrite: this.everyWrite });
  }

  protected accept(req: SubscribeParsedRequest): Accepted {
    if (!hasParsedOptions(req)) return { none: true };
    const f = compileParsedFilter(req);
    if (!f.ok) return { error: f.error };
    const compiled = compileSubscribeRequest(parsedRegistration(req), this.deps.limits);
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
    if (names.length === 0) return;
    const live = u.live;
    if (live.kind === 'transaction') {
      const p = parsedUpdateOf(u, live);
      if (p.hasContent && matchParsed(this.filter, p.scan, p.tx)) this.join.onTransaction(p, partitionOf(live));
      else this.join.onOtherTransaction(u.slot, partitionOf(live));
    } else if (live.kind === 'account') this.join.onAccount(joinWrite(live), partitionOf(live));
  }

  private emit(p: ParsedUpdate, curve: AccountEvent | undefined, pool: AccountEvent | undefined): void {
    this.out.send({ slot: p.tx.slot, bytes: p.bytes(curve, pool) });
  }
}

export function handleSubscribeParsed(d: SubscribeParsedDeps) {
  return (call: ServerDuplexStream<SubscribeParsedRequest, Buffer>): void => {
    new ParsedStream(call, d);
  };
}

// One geyser.Geyser Subscribe stream, a thin adapter on the live layer's session (api/live/session.ts:
// registration, from_slot replay and hand-over, commitment gate), with Yellowstone's stream semantics
// (yellowstone-grpc-geyser grpc.rs):
// - each request replaces the whole filter set; a request carrying `ping` is answered with `pong{id}` and
//   changes nothing; invalid filters end the stream with INVALID_ARGUMENT "failed to create filter: <reason>";
// - a transaction matching both lists goes out twice, as `transaction` then as `transaction_status`, each
//   with its own filter names; a block goes out once per matching blocks filter (their content differs);
// - updates leave as `filters prefix + shared body` through the host's Outbound queue (api/grpc/outbound.ts),
//   which cuts a slow client off with RESOURCE_EXHAUSTED naming the last slot it was sent;
// - snapshot, then stream (issue 23): a stream opened with Yellowstone's own `x-request-snapshot` metadata key (the
//   stock client's `grpcSetXRequestSnapshot` channel option) gets, for its first request with accounts filters, the
//   state of every account they match at one slot S (is_startup), then every write after S (api/live/snapshot.ts).
//   Such a request with from_slot resumes instead (a reconnecting client already holds the state); later requests
//   replace the filters as usual, without a snapshot (Yellowstone sends its snapshot once per stream). A snapshot
//   with a durable cursor (x-slotstream-cursor) is refused with INVALID_ARGUMENT; with an end slot it ends there.
import type { Metadata, ServerDuplexStream } from '@grpc/grpc-js';
import type { SubscribeRequest } from '@triton-one/yellowstone-grpc';
import { compileGeyserRequest, splitTransactionNames, type GeyserFilterLimits, type GeyserRequest } from '../../filters/from-geyser.js';
import { dataSliceKey, type CompiledBlocksFilter } from '../../filters/index.js';
import { encodeFiltersPrefix } from '../filters-prefix.js';
import { outgoing } from '../outbound.js';
import { SessionStream, type Accepted, type SessionStreamDeps, type StreamAccess } from '../session-stream.js';
import { boundsFromMetadata, GEYSER_METADATA, type SharedEvent } from '../../live/index.js';
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

export interface GeyserSubscribeDeps extends SessionStreamDeps {
  limits: GeyserFilterLimits;
}

/** Yellowstone's metadata key asking for the account snapshot first (yellowstone-grpc-geyser grpc.rs: its presence). */
export const SNAPSHOT_METADATA_KEY = 'x-request-snapshot';

/** A snapshot names no cursor: where a cursor resumes, the client holds the state already (api/live/README.md). */
export const SNAPSHOT_WITH_CURSOR = `${SNAPSHOT_METADATA_KEY}: cannot be combined with ${GEYSER_METADATA.cursor} (a cursor resumes a stream; a snapshot starts one from the current state)`;

export class GeyserStream extends SessionStream<SubscribeRequest> {
  private req: GeyserRequest | undefined;
  private slicesKey = '';
  /** Per blocks filter name: the filter and its encoding key. */
  private blocks = new Map<string, { filter: CompiledBlocksFilter; key: string }>();
  /** The stream asked for a snapshot and its first subscription has not come yet. */
  private snapshotPending: boolean;
  /** The call's request metadata: slotstream's opt-ins a stock client can send (x-slotstream-cursor, ...). */
  private readonly metadata: Metadata;

  constructor(
    call: ServerDuplexStream<SubscribeRequest, Buffer>,
    private readonly deps: GeyserSubscribeDeps,
    access: StreamAccess,
  ) {
    super(call, deps, 'geyser.Subscribe', access);
    this.snapshotPending = call.metadata.get(SNAPSHOT_METADATA_KEY).length > 0;
    this.metadata = call.metadata;
  }

  protected accept(request: SubscribeRequest): Accepted {
    // slotstream's opt-ins (cursor, end slot, pace) as request metadata, or as reserved blocks_meta names for
    // clients that cannot set metadata (the stock napi clients); the reserved names are no filters.
    const optIns = takeOptIns(request.blocksMeta);
    const req = optIns.found.size > 0 ? { ...request, blocksMeta: optIns.rest } : request;
    const compiled = compileGeyserRequest(req, this.deps.limits);
    if (!compiled.ok) return { error: compiled.error.message };
    const r = compiled.value;
    if (r.ping !== undefined) return { pong: encodePong(r.ping) };
    const bounds = boundsFromMetadata((key) => {
      const v = this.metadata.get(key)[0];
      return v === undefined ? optIns.found.get(key) : v.toString();
    }, r.compiled.fromSlot);
    if (!bounds.ok) return { error: bounds.error };
    this.req = r;
    const slices = r.compiled.accountsDataSlice;
    this.slicesKey = dataSliceKey(slices);
    this.blocks = new Map(r.compiled.blocks.map((f) => [f.name, { filter: f, key: blocksFilterKey(f, slices) }]));
    // The first request with accounts filters takes the snapshot (the client may open the stream with an empty one).
    const snapshot = this.snapshotPending && r.compiled.accounts.length > 0 && r.compiled.fromSlot === undefined;
    if (snapshot && bounds.value.cursor !== undefined) return { error: SNAPSHOT_WITH_CURSOR };
    if (r.compiled.accounts.length > 0) this.snapshotPending = false;
    return { subscription: r.compiled, bounds: bounds.value, snapshot };
  }

  protected pingBytes(): Buffer {
    return encodePing();
  }

  deliver(u: SharedEvent, names: readonly string[]): void {
    const req = this.req;
    if (!req) return;
    try {
      this.deliverOne(u, names, req);
    } catch (err) {
      // A record the Yellowstone messages cannot express (say, an unknown transaction error): skipped and
      // logged, never the end of the stream.
      this.d.log.warn(
        { stream: this.session.id, slot: u.slot.toString(), kind: u.kind, reason: (err as Error).message },
        'geyser: update not encodable, skipped',
      );
    }
  }

  private deliverOne(u: SharedEvent, names: readonly string[], req: GeyserRequest): void {
    const live = u.live;
    switch (live.kind) {
      case 'transaction': {
        const { transactions, status: st } = splitTransactionNames(names);
        if (transactions.length > 0) this.send(u.slot, transactions, transactionBody(u));
        if (st.length > 0) this.send(u.slot, st, transactionStatusBody(u, live.event));
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
        if (passing.length > 0) this.send(u.slot, passing, accountBody(u, live.event, req.compiled.accountsDataSlice, this.slicesKey));
        return;
      }
      case 'slot':
        return this.send(u.slot, names, slotBody(u));
      case 'blockMeta':
        return this.send(u.slot, names, blockMetaBody(u));
      case 'entry':
        return this.send(u.slot, names, entryBody(u));
      case 'block':
        for (const n of names) {
          const b = this.blocks.get(n);
          if (b)
            this.out.send(
              outgoing(u.slot, encodeFiltersPrefix([n]), blockBody(u, live.event, b.filter, req.compiled.accountsDataSlice, b.key)),
            );
        }
        return;
    }
  }
}

/** `blocks_meta` entries named `x-slotstream-<option>=<value>` (takeOptIn's keys), and the other entries. */
function takeOptIns(blocksMeta: SubscribeRequest['blocksMeta']): { found: Map<string, string>; rest: SubscribeRequest['blocksMeta'] } {
  const found = new Map<string, string>();
  const rest: SubscribeRequest['blocksMeta'] = Object.create(null) as SubscribeRequest['blocksMeta'];
  for (const [name, filter] of Object.entries(blocksMeta ?? {})) {
    const eq = name.indexOf('=');
    const key = eq < 0 ? '' : name.slice(0, eq);
    if (OPT_IN_KEYS.has(key)) found.set(key, name.slice(eq + 1));
    else rest[name] = filter;
  }
  return { found, rest };
}

const OPT_IN_KEYS: ReadonlySet<string> = new Set(Object.values(GEYSER_METADATA));

export function handleGeyserSubscribe(d: GeyserSubscribeDeps, access: StreamAccess) {
  return (call: ServerDuplexStream<SubscribeRequest, Buffer>): void => {
    new GeyserStream(call, d, access);
  };
}

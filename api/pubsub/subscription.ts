// One PubSub subscription: a live-layer session (one filter, the subscription's commitment) and what
// turns its updates into Agave's notifications (behaviour.md "PubSub (WebSocket)"):
// - logs: one notification per transaction, when its slot reaches the commitment (the session's gate);
// - account and program: per slot, each account's last write in that slot, sent once the slot reaches the
//   commitment. Writes are gathered here per slot; the slot's status (trackStatuses) or, above
//   processed, the gate's release of the slot flushes them. Dead and skipped slots drop what was gathered
//   (the gate never releases them to confirmed/finalized subscriptions in the first place);
// - signature: one notification at the commitment, then the subscription ends itself (as Agave's is_final);
//   at once when the views already hold the transaction at that level;
// - slot: a slot's processed status, `{slot, parent, root}`; root: each finalized slot;
// - slotsUpdates, block, vote, transaction: one notification per matching status, block, vote or transaction
//   (notify-streams.ts), blocks and transactions at the commitment (the session's gate).
import { setTimeout as sleep } from 'node:timers/promises';
import bs58 from 'bs58';
import { atLeast } from '../../schemas/commitment.js';
import type { AccountEvent, SlotEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { Commitment, compileSubscription, keyId } from '../filters/index.js';
import { specFromPubSub, type PubSubRequest } from '../filters/from-pubsub.js';
import {
  isTerminal,
  reached,
  type LiveFailure,
  type LiveLayer,
  type LiveSession,
  NewestWrites,
  type SessionSink,
  type SharedEvent,
} from '../live/index.js';
import {
  keyedAccountJson,
  notificationPrefix,
  notificationSuffix,
  signatureResultJson,
  startupSuffix,
  slotInfoJson,
  transactionLogsJson,
  uiAccountJson,
  viewKey,
  withSlot,
} from './notify.js';
import { sharedProcessedHead } from './views-head.js';
import type { AccountView, SubscriptionKind } from './params.js';
import type { AssembledBlock } from '../live/block-assembler.js';
import type { BlockOptions } from '../solana-json/block.js';
import { parseVoteTransaction } from '../solana-json/vote.js';
import {
  assembledHeader,
  blockUpdateJson,
  frozenJson,
  optionsKey,
  slotUpdateJson,
  transactionNotificationJson,
  voteJson,
} from './notify-streams.js';

/** voteNotification's result of a vote transaction; undefined when its first instruction casts no vote. */
function voteOf(tx: TransactionEvent): string | undefined {
  const v = parseVoteTransaction(tx);
  return v === undefined ? undefined : voteJson(v);
}

/** Where a transaction stands in the views, for signatureSubscribe's "already there" check. */
export interface SignatureStatus {
  slot: bigint;
  /** Agave's JSON error, or null. */
  err: string | null;
  level: Commitment;
}

/**
 * Where the views place a signature. Admits the look-up at once for `client` (the connection's share of the
 * ClickHouse queries): throws RpcError -32429, synchronously, when the connection is over it. `signal` aborts it
 * (the subscription is gone): a look-up still waiting never reaches ClickHouse.
 */
export type SignatureLookup = (signature: string, client: string, signal: AbortSignal) => Promise<SignatureStatus | undefined>;

/** What a subscription needs from its connection. */
export interface SubscriptionOwner {
  /** Sends a notification (the connection checks for a slow client). */
  send(text: string): void;
  /** The subscription ended itself (signatureSubscribe after its notification) or failed. */
  ended(sub: PubSubSubscription, failure?: { reason: LiveFailure; message: string }): void;
  /** Benchmarks: add the read time to notifications. */
  readonly readAtDebug: boolean;
  /** Whose share of the ClickHouse queries the subscription's look-up uses (one per connection). */
  readonly client: string;
  /** Back-pressure for a snapshot (SessionSink.ready). */
  ready(): Promise<void> | undefined;
}

export interface SubscriptionDeps {
  live: LiveLayer;
  lookupSignature?: SignatureLookup;
}

/**
 * Live updates a snapshot subscription's replay (from the slot after its snapshot) may leave waiting for its
 * hand-over; other PubSub subscriptions never replay and keep none.
 */
export const SNAPSHOT_BUFFER_LIMIT = 100_000;

/** A signature's look-up that found nothing while the views trailed the live read: how often their head is read
 * until it reaches the live read's slot of then, and for how long at most, before the one look-up more. */
const VIEWS_POLL_MS = 250;
const VIEWS_WAIT_MS = 30_000;

/** Slots of gathered writes kept behind the newest one flushed (a slot never finished is not kept forever). */
const PENDING_SLOTS = 512n;

export class PubSubSubscription implements SessionSink {
  private readonly session: LiveSession;
  private readonly prefix: string;
  private readonly suffix: string;
  private readonly level: Commitment;
  /** Account and program: the last write per account in each slot not yet sent (newest-writes.ts). */
  private readonly pending = new NewestWrites<SharedEvent>();
  private readonly flushSoon = new Set<bigint>();
  private flushScheduled = false;
  /** Signature: the slot the views placed the transaction in, while it waits for the commitment. */
  private awaiting: { slot: bigint; err: string | null } | undefined;
  /** Signature: cancels the views look-up when the subscription goes. */
  private readonly lookUpAbort = new AbortController();
  private done = false;
  lastSlot: bigint | undefined;

  constructor(
    readonly id: number,
    readonly kind: SubscriptionKind,
    private readonly request: PubSubRequest,
    private readonly view: AccountView | undefined,
    /** Block and transaction subscriptions: how transactions are written. */
    private readonly options: BlockOptions | undefined,
    private readonly owner: SubscriptionOwner,
    private readonly d: SubscriptionDeps,
    /** Account and program: the current state first (issue 23), then the writes after it. */
    snapshot = false,
  ) {
    this.prefix = notificationPrefix(kind);
    this.suffix = notificationSuffix(id);
    this.level = 'commitment' in request ? request.commitment : Commitment.processed;
    // The look-up is admitted first: refused (the connection over its share), the subscribe fails before
    // anything is opened.
    const lookUp =
      request.kind === 'signature' && d.lookupSignature !== undefined
        ? () => d.lookupSignature!(bs58.encode(request.signature), owner.client, this.lookUpAbort.signal)
        : undefined;
    const found = lookUp?.();
    const tracks = kind === 'account' || kind === 'program' || kind === 'signature';
    this.session = d.live.openSession(this, { bufferLimit: snapshot ? SNAPSHOT_BUFFER_LIMIT : 1, trackStatuses: tracks });
    const compiled = compileSubscription(specFromPubSub(request));
    if (snapshot) this.session.applySnapshot(compiled);
    else this.session.apply(compiled);
    if (found) void this.lookedUp(found, lookUp!);
  }

  private emit(result: string, readAt: number): void {
    if (this.done) return;
    this.owner.send(this.prefix + result + (this.owner.readAtDebug ? notificationSuffix(this.id, readAt) : this.suffix));
  }

  deliver(u: SharedEvent): void {
    if (this.done) return;
    this.lastSlot = u.slot;
    const live = u.live;
    switch (live.kind) {
      case 'transaction':
        if (this.kind === 'logs')
          this.emit(
            u.encoded('pubsub/logs', () => withSlot(u.slot, transactionLogsJson(live))),
            u.readAt,
          );
        else if (this.kind === 'vote')
          this.emitSome(
            u.encoded('pubsub/vote', () => voteOf(live.event)),
            u.readAt,
          );
        else if (this.kind === 'transaction') {
          const o = this.options!;
          this.emitSome(
            u.encoded(`pubsub/tx/${optionsKey(o)}`, () => transactionNotificationJson(live.event, o)),
            u.readAt,
          );
        } else this.signatureDone(u.slot, live.event.err ?? null, u.readAt);
        return;
      case 'block':
        this.block(u, live.event);
        return;
      case 'account':
        // A snapshot account is read from the views (marked `snapshot`); is_startup writes a source published
        // to Kafka go per slot like any other.
        if (live.snapshot === true) this.startup(u, live.event);
        else this.gather(u, live.event);
        return;
      case 'slot':
        this.slotUpdate(u, live.event);
        return;
      default:
        return;
    }
  }

  /** A snapshot account (its slot has reached the level already): notified at once, marked `isStartup`. */
  private startup(u: SharedEvent, e: AccountEvent): void {
    if (this.done) return;
    const view = this.view!;
    const value = this.kind === 'program' ? () => keyedAccountJson(e, view) : () => uiAccountJson(e, view);
    this.owner.send(
      this.prefix + u.encoded(`pubsub/${this.kind}/${viewKey(view)}`, () => withSlot(u.slot, value())) + startupSuffix(this.id),
    );
  }

  ready(): Promise<void> | undefined {
    return this.owner.ready();
  }

  private gather(u: SharedEvent, e: AccountEvent): void {
    this.pending.note(u.slot, keyId(e.pubkey), e.writeVersion, u);
    // Above processed the gate hands over a slot's writes right after its status; at processed a write
    // may come after its slot's status (a record read late): both are flushed once this step is over.
    if (reached(this.d.live.hub.statusOf(u.slot), this.level)) this.scheduleFlush(u.slot);
  }

  private scheduleFlush(slot: bigint): void {
    this.flushSoon.add(slot);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => {
      this.flushScheduled = false;
      const slots = [...this.flushSoon].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.flushSoon.clear();
      for (const s of slots) this.flush(s);
    });
  }

  private flush(slot: bigint): void {
    const writes = this.pending.take(slot);
    if (!writes) return;
    const view = this.view!;
    const key = `pubsub/${this.kind}/${viewKey(view)}`;
    for (const { value: u } of writes.byKey.values()) {
      const e = u.live.event as AccountEvent;
      const value = this.kind === 'program' ? () => keyedAccountJson(e, view) : () => uiAccountJson(e, view);
      this.emit(
        u.encoded(key, () => withSlot(u.slot, value())),
        u.readAt,
      );
    }
    this.pending.forgetBefore(slot - PENDING_SLOTS);
  }

  slotStatus(slot: bigint, status: number): void {
    if (this.done) return;
    if (this.kind === 'signature') {
      if (this.awaiting?.slot === slot && reached(status, this.level)) this.signatureDone(slot, this.awaiting.err, Date.now());
      return;
    }
    if (isTerminal(status)) this.pending.forget(slot);
    else if (reached(status, this.level) && this.pending.has(slot)) this.scheduleFlush(slot);
  }

  /** A whole block: blockSubscribe's notification, or slotsUpdatesSubscribe's `frozen`. */
  private block(u: SharedEvent, b: AssembledBlock): void {
    if (this.kind === 'slotsUpdates') {
      this.emit(
        u.encoded('pubsub/frozen', () => frozenJson(b, u.readAt)),
        u.readAt,
      );
      return;
    }
    const o = this.options!;
    const mention = this.request.kind === 'block' && this.request.mentions !== undefined ? Buffer.from(this.request.mentions) : undefined;
    const chain = this.d.live.chain;
    this.emitSome(
      u.encoded(`pubsub/block/${optionsKey(o)}/${mention === undefined ? '*' : mention.toString('hex')}`, () =>
        blockUpdateJson(
          b,
          assembledHeader(b, (s) => chain.meta(s)),
          o,
          mention,
        ),
      ),
      u.readAt,
    );
  }

  private emitSome(result: string | undefined, readAt: number): void {
    if (result !== undefined) this.emit(result, readAt);
  }

  private slotUpdate(u: SharedEvent, ev: SlotEvent): void {
    if (this.kind === 'slotsUpdates') {
      this.emitSome(
        u.encoded('pubsub/slotsUpdates', () => slotUpdateJson(ev, u.readAt)),
        u.readAt,
      );
      return;
    }
    if (this.kind === 'root') {
      this.emit(
        u.encoded('pubsub/root', () => ev.slot.toString()),
        u.readAt,
      );
      return;
    }
    const chain = this.d.live.chain;
    this.emit(
      u.encoded('pubsub/slot', () => {
        const parent = ev.block?.parentSlot ?? ev.parent ?? (ev.slot > 0n ? ev.slot - 1n : 0n);
        return slotInfoJson(ev.slot, parent, chain.slot(Commitment.finalized) ?? 0n);
      }),
      u.readAt,
    );
  }

  /**
   * signatureSubscribe on a transaction the views already hold: notify at once when it is at the level. One the live
   * read passed before this session opened but the views had not stored yet is in neither path: when the look-up
   * finds nothing and the views' processed head is below the slot the live read had reached then, it is asked once
   * more after they reach it (the JSON-RPC head cache answering getTransaction from memory made a client that
   * subscribes right after it meet that window). The wait's head reads are shared by every subscription waiting in
   * the process (views-head.ts).
   */
  private async lookedUp(first: Promise<SignatureStatus | undefined>, lookUp: () => Promise<SignatureStatus | undefined>): Promise<void> {
    let found: SignatureStatus | undefined;
    const tip = this.d.live.chainTip();
    try {
      found = await first;
      if (found === undefined && tip !== undefined && !this.done && (await this.viewsReached(tip))) found = await lookUp();
    } catch {
      return; // cancelled, or the views unreadable: the live path still notifies
    }
    if (found === undefined || this.done) return;
    if (atLeast(found.level, this.level) || reached(this.d.live.hub.statusOf(found.slot), this.level))
      this.signatureDone(found.slot, found.err, Date.now());
    else this.awaiting = { slot: found.slot, err: found.err };
  }

  /** Waits until the views' processed head is at `slot` (at most VIEWS_WAIT_MS); whether they were behind it. */
  private async viewsReached(slot: bigint): Promise<boolean> {
    const views = this.d.live.views;
    if (views === undefined) return false;
    const head = () => sharedProcessedHead(views, VIEWS_POLL_MS);
    if ((await head()) >= slot) return false;
    for (let waited = 0; waited < VIEWS_WAIT_MS && !this.done; waited += VIEWS_POLL_MS) {
      await sleep(VIEWS_POLL_MS, undefined, { signal: this.lookUpAbort.signal });
      if ((await head()) >= slot) break;
    }
    return !this.done;
  }

  private signatureDone(slot: bigint, err: string | null, readAt: number): void {
    if (this.done) return;
    this.emit(withSlot(slot, signatureResultJson(err)), readAt);
    this.owner.ended(this);
  }

  ping(): void {
    // The server pings the socket itself (one WebSocket ping per connection, not per subscription).
  }

  fail(reason: LiveFailure, message: string): void {
    this.owner.ended(this, { reason, message });
  }

  /** Leaves the live layer and drops what was gathered (idempotent). */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.lookUpAbort.abort();
    this.pending.clear();
    this.flushSoon.clear();
    this.session.close();
  }
}

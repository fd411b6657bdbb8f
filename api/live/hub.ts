// The live hub of one api process: receives every record the live tail decodes, matches it once against
// the filters of every session of every transport (FilterIndex for transactions and accounts: cost grows
// with the event's keys, not with the number of sessions; the keyless kinds ask only the sessions that
// have such filters), wraps a matching event once (SharedEvent, encodings shared per wire format) and
// hands it to the matching sessions. It also keeps the live slot statuses (the commitment gate's shared
// lookup; each level of a slot announced once and in order, a level the source skipped filled in:
// slot-statuses.ts) and the chain state, and runs the server ping timer.
import {
  Commitment,
  FilterIndex,
  keyId,
  matchBlockMeta,
  matchEntry,
  matchParsedUpdates,
  matchSlotStatus,
  scannedAccountView,
  scannedTransactionView,
  type CompiledSubscription,
} from '../filters/index.js';
import { matchBlocks } from '../filters/match-chain.js';
import { BlockAssembler, type AssembledBlock } from './block-assembler.js';
import { ChainState } from './chain-state.js';
import type { TailSink } from './live-tail.js';
import { blockMetaUpdate, blockUpdate, recordUpdate, statusUpdate, type SharedEvent } from './shared-event.js';
import { SlotStatuses } from './slot-statuses.js';
import { NewestWrites } from './newest-writes.js';
import type { DataRecord, SlotRecord, StreamEvent } from './stream-event.js';

/** A session as the hub sees it (api/live/session.ts implements it for every transport). */
export interface LiveSubscriber {
  /** A live update matched `names` (sorted) of this session's filters. */
  onLive(update: SharedEvent, names: string[]): void;
  /** A slot status change (levels and terminal statuses, see slot-status.ts), for sessions that track them. */
  onSlotStatus(slot: bigint, status: number): void;
  /** The server ping tick. */
  onPing(): void;
  /**
   * Everything one slot record brought went out (its statuses, their updates, its block meta), for sessions that
   * track statuses: what a slot's completion waits for (session.ts `settle`; the end slot's block meta went before
   * the stream ends, issue 32 item 7).
   */
  onSlotDone?(): void;
}

/** Sees every live event, in the tail's order, before the sessions do; must not keep the loop long. */
export interface LiveConsumer {
  onEvent(e: StreamEvent): void;
}

/** Live slot statuses kept this many slots behind the newest. */
const STATUS_WINDOW = 20_000n;
/** Newest writes of watched accounts kept this many slots behind the newest (finalized comes ~32 slots after processed). */
export const WRITES_WINDOW = 256n;

export class Hub implements TailSink {
  private readonly index = new FilterIndex<LiveSubscriber>();
  private readonly subscribers = new Set<LiveSubscriber>();
  /** The tail's hand-over count when each session registered (LiveTail.handedOver), and its from_slot: who
   * got which copy, and which copies a session said it holds. */
  private readonly since = new Map<LiveSubscriber, { at: number; fromSlot: bigint | undefined }>();
  /** Sessions told about every status change (a gate above processed, or a transport that tracks slots). */
  private readonly statusListeners = new Set<LiveSubscriber>();
  /** Sessions with slot, blocks_meta or entry filters, with their subscription. */
  private readonly chainSubs = new Map<LiveSubscriber, CompiledSubscription>();
  /** Sessions with parsed filters (SubscribeParsed), with their filter names: every parsed record goes to each, so the
   * names are made once, not per record, and other chain subscribers (slot streams) are not walked for it. */
  private readonly parsedSubs = new Map<LiveSubscriber, string[]>();
  /** Sessions with blocks filters, and the assembler that runs only while there are any. */
  private readonly blockSubs = new Map<LiveSubscriber, CompiledSubscription>();
  private blocks: BlockAssembler | undefined;
  private readonly statuses = new SlotStatuses(STATUS_WINDOW);
  /** Sessions above processed with account filters: their gates deduplicate writes per slot (newest-writes.ts). */
  private readonly gatedAccounts = new Set<LiveSubscriber>();
  private readonly writes = new NewestWrites(WRITES_WINDOW);
  private readonly timer: NodeJS.Timeout;
  readonly chain = new ChainState();
  /** Read-only consumers of every event (the JSON-RPC head cache), told before any session. */
  private readonly consumers = new Set<LiveConsumer>();

  constructor(o: { pingIntervalMs: number }) {
    this.timer = setInterval(() => this.ping(), o.pingIntervalMs);
    this.timer.unref();
  }

  get sessionCount(): number {
    return this.subscribers.size;
  }

  /** Status of a slot as the live tail knows it: a level or terminal (skipped, dead), combined by slot-status.ts. */
  statusOf = (slot: bigint): number | undefined => this.statuses.get(slot);

  /** The newest live write of an account in a slot, for accounts a gated session matched there (newest-writes.ts). */
  newestWrite = (slot: bigint, key: string): bigint | undefined => this.writes.newest(slot, key);

  /**
   * Adds or replaces a session's filters. `statuses`: also tell it every status change. `since`: the
   * tail's hand-over count now (LiveTail.handedOver). Synchronous: callers read the live positions right
   * after, in the same step.
   */
  register(s: LiveSubscriber, sub: CompiledSubscription, statuses: boolean, since: number): void {
    this.index.set(s, sub);
    this.since.set(s, { at: since, fromSlot: sub.fromSlot });
    this.subscribers.add(s);
    if (statuses) this.statusListeners.add(s);
    else this.statusListeners.delete(s);
    if (sub.commitment !== Commitment.processed && sub.accounts.length > 0) this.gatedAccounts.add(s);
    else this.gatedAccounts.delete(s);
    if (sub.slots.length + sub.blocksMeta.length + sub.entry.length > 0) this.chainSubs.set(s, sub);
    else this.chainSubs.delete(s);
    if (sub.parsed.length > 0) this.parsedSubs.set(s, matchParsedUpdates(sub));
    else this.parsedSubs.delete(s);
    if (sub.blocks.length > 0) {
      this.blockSubs.set(s, sub);
      this.blocks ??= new BlockAssembler((b) => this.onBlock(b));
    } else this.dropBlocks(s);
  }

  private dropBlocks(s: LiveSubscriber): void {
    this.blockSubs.delete(s);
    if (this.blockSubs.size === 0) this.blocks = undefined;
  }

  private onBlock(b: AssembledBlock): void {
    const u = blockUpdate(b);
    for (const [s, sub] of this.blockSubs) s.onLive(u, matchBlocks(sub));
  }

  /** A session without filters still receives pings. */
  addIdle(s: LiveSubscriber): void {
    this.subscribers.add(s);
  }

  unregister(s: LiveSubscriber): void {
    this.index.delete(s);
    this.since.delete(s);
    this.subscribers.delete(s);
    this.statusListeners.delete(s);
    this.gatedAccounts.delete(s);
    this.chainSubs.delete(s);
    this.parsedSubs.delete(s);
    this.dropBlocks(s);
  }

  private ping(): void {
    for (const s of this.subscribers) s.onPing();
  }

  /** Adds a read-only consumer of every live event the tail hands over (a second copy of a record not again). */
  addConsumer(c: LiveConsumer): void {
    this.consumers.add(c);
  }

  onEvent(e: StreamEvent): void {
    for (const c of this.consumers) c.onEvent(e);
    this.blocks?.onEvent(e);
    if (e.kind === 'slot') this.onSlot(e);
    else this.deliver(e);
  }

  /**
   * A second copy of a data record (read uncommitted: an aborted record, then its re-publication) goes
   * only to the sessions registered after the first copy was handed over (number `first`), and not to
   * one whose from_slot is past the record's slot (it said it holds that slot); blocks and everyone
   * else had the first.
   */
  onCopy(e: StreamEvent, first: number): void {
    if (e.kind === 'slot') return;
    const slot = e.slot;
    this.deliver(e, (s) => {
      const reg = this.since.get(s);
      return reg !== undefined && reg.at > first && (reg.fromSlot === undefined || slot >= reg.fromSlot);
    });
  }

  private deliver(e: DataRecord, only?: (s: LiveSubscriber) => boolean): void {
    switch (e.kind) {
      case 'transaction': {
        if (this.index.size === 0) return;
        const hits = this.index.matchTransactionView(scannedTransactionView(e.scan));
        if (hits.size === 0) return;
        const u = recordUpdate(e);
        for (const [s, names] of hits) if (!only || only(s)) s.onLive(u, names);
        return;
      }
      case 'account': {
        if (this.index.size === 0) return;
        const hits = this.index.matchAccountView(scannedAccountView(e.scan));
        if (this.gatedAccounts.size > 0) this.noteWrite(e.scan, hits);
        if (hits.size === 0) return;
        const u = recordUpdate(e);
        for (const [s, names] of hits) if (!only || only(s)) s.onLive(u, names);
        return;
      }
      case 'entry': {
        if (this.chainSubs.size === 0) return;
        let u: SharedEvent | undefined;
        for (const [s, sub] of this.chainSubs) {
          if (only && !only(s)) continue;
          const names = matchEntry(sub);
          if (names.length > 0) s.onLive((u ??= recordUpdate(e)), names);
        }
        return;
      }
      case 'parsed': {
        if (this.parsedSubs.size === 0) return;
        let u: SharedEvent | undefined;
        for (const [s, names] of this.parsedSubs) if (!only || only(s)) s.onLive((u ??= recordUpdate(e)), names);
        return;
      }
    }
  }

  /** Remembers the write when a gated session matched it, or moves an account one did (newest-writes.ts). */
  private noteWrite(w: { slot: bigint; pubkey: Uint8Array; writeVersion: bigint }, hits: Map<LiveSubscriber, string[]>): void {
    let watch = false;
    for (const s of hits.keys()) if (this.gatedAccounts.has(s)) watch = true;
    this.writes.note(w.slot, keyId(w.pubkey), w.writeVersion, watch);
  }

  /**
   * Each status the record adds (slot-statuses.ts: a level the source skipped first, a level already
   * announced not again), in order: the sessions' gates learn it first and release what it completes, then
   * the slot status update goes out (Yellowstone's order: a slot's updates, then the status that released
   * them). The processed record's block meta follows its status. Progress statuses and gap records take part
   * in no commitment (behaviour.md, "Slot statuses"): they only go to the slot filters that want them.
   */
  private onSlot(e: SlotRecord): void {
    const ev = e.event;
    this.chain.onSlot(ev);
    this.statuses.take(
      ev,
      (now) => {
        for (const s of this.statusListeners) s.onSlotStatus(ev.slot, now);
      },
      (st) => {
        if (this.chainSubs.size > 0) this.matchStatus(e, st);
      },
    );
    if (ev.block !== undefined && this.chainSubs.size > 0) this.matchMeta(e);
    for (const s of this.statusListeners) s.onSlotDone?.();
  }

  /**
   * A replay's blocks of the slots it left unfinished at its hand-over (their records straddle the live positions,
   * so neither reader has them all) join the live assembler's; a block whole now goes to `onDone` (the replaying
   * stream) only (block-assembler.ts `adopt`).
   */
  adoptBlocks(replayed: BlockAssembler, onDone: (u: SharedEvent) => void): void {
    this.blocks?.adopt(replayed, (b) => onDone(blockUpdate(b)));
  }

  private matchStatus(e: SlotRecord, status: number): void {
    let u: SharedEvent | undefined;
    for (const [s, sub] of this.chainSubs) {
      const names = matchSlotStatus(sub, status);
      if (names.length > 0) s.onLive((u ??= statusUpdate(e, status)), names);
    }
  }

  private matchMeta(e: SlotRecord): void {
    let u: SharedEvent | undefined;
    for (const [s, sub] of this.chainSubs) {
      const names = matchBlockMeta(sub);
      if (names.length > 0) s.onLive((u ??= blockMetaUpdate(e)), names);
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.subscribers.clear();
    this.since.clear();
    this.statusListeners.clear();
    this.gatedAccounts.clear();
    this.chainSubs.clear();
    this.parsedSubs.clear();
    this.consumers.clear();
  }
}

// The live hub of one api process: receives every record the live tail decodes and hands it to the live
// dispatcher (dispatcher.ts, the one a from_slot replay uses too), which matches it once against the filters of
// every session of every transport, wraps a matching event once (SharedEvent, encodings shared per wire format)
// and hands it to the matching sessions. Through it the hub keeps the live slot statuses (the commitment gate's
// shared lookup) and the chain state; it tells the sessions that track statuses each one, decides which sessions
// get a second copy of a record, and runs the server ping timer.
import type { CompiledSubscription } from '../filters/index.js';
import type { BlockAssembler } from './block-assembler.js';
import { ChainState } from './chain-state.js';
import { Dispatcher } from './dispatcher.js';
import type { TailSink } from './live-tail.js';
import type { SharedEvent } from './shared-event.js';
import type { StreamEvent } from './stream-event.js';

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

export class Hub implements TailSink {
  private readonly subscribers = new Set<LiveSubscriber>();
  /** The tail's hand-over count when each session registered (LiveTail.handedOver), and its from_slot: who
   * got which copy, and which copies a session said it holds. */
  private readonly since = new Map<LiveSubscriber, { at: number; fromSlot: bigint | undefined }>();
  /** Sessions told about every status change (a gate above processed, or a transport that tracks slots). */
  private readonly statusListeners = new Set<LiveSubscriber>();
  private readonly timer: NodeJS.Timeout;
  readonly chain = new ChainState();
  private readonly dispatch = new Dispatcher<LiveSubscriber>((s, u, names) => s.onLive(u, names), this.chain);
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
  statusOf = (slot: bigint): number | undefined => this.dispatch.statusOf(slot);

  /** The newest live write of an account in a slot, for accounts a gated session matched there (newest-writes.ts). */
  newestWrite = (slot: bigint, key: string): bigint | undefined => this.dispatch.writes.newest(slot, key);

  /**
   * Adds or replaces a session's filters. `statuses`: also tell it every status change. `since`: the
   * tail's hand-over count now (LiveTail.handedOver). Synchronous: callers read the live positions right
   * after, in the same step.
   */
  register(s: LiveSubscriber, sub: CompiledSubscription, statuses: boolean, since: number): void {
    this.dispatch.register(s, sub);
    this.since.set(s, { at: since, fromSlot: sub.fromSlot });
    this.subscribers.add(s);
    if (statuses) this.statusListeners.add(s);
    else this.statusListeners.delete(s);
  }

  /** A session without filters still receives pings. */
  addIdle(s: LiveSubscriber): void {
    this.subscribers.add(s);
  }

  unregister(s: LiveSubscriber): void {
    this.dispatch.unregister(s);
    this.since.delete(s);
    this.subscribers.delete(s);
    this.statusListeners.delete(s);
  }

  private ping(): void {
    for (const s of this.subscribers) s.onPing();
  }

  /** Adds a read-only consumer of every live event the tail hands over (a second copy of a record not again). */
  addConsumer(c: LiveConsumer): void {
    this.consumers.add(c);
  }

  /** A slot's status now at a level or terminal: the sessions' gates learn it before the slot streams do. */
  private readonly level = (slot: bigint, now: number): void => {
    for (const s of this.statusListeners) s.onSlotStatus(slot, now);
  };

  onEvent(e: StreamEvent): void {
    for (const c of this.consumers) c.onEvent(e);
    this.dispatch.event(e, this.level);
    if (e.kind === 'slot') for (const s of this.statusListeners) s.onSlotDone?.();
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
    this.dispatch.record(e, (s) => {
      const reg = this.since.get(s);
      return reg !== undefined && reg.at > first && (reg.fromSlot === undefined || slot >= reg.fromSlot);
    });
  }

  /**
   * A replay's blocks of the slots it left unfinished at its hand-over (their records straddle the live positions,
   * so neither reader has them all) join the live assembler's; a block whole now goes to `onDone` (the replaying
   * stream) only (block-assembler.ts `adopt`).
   */
  adoptBlocks(replayed: BlockAssembler, onDone: (u: SharedEvent) => void): void {
    this.dispatch.adoptBlocks(replayed, onDone);
  }

  close(): void {
    clearInterval(this.timer);
    for (const s of this.subscribers) this.dispatch.unregister(s);
    this.subscribers.clear();
    this.since.clear();
    this.statusListeners.clear();
    this.consumers.clear();
  }
}

// One streaming session of any transport (a stream.Stream or geyser.Geyser Subscribe stream, a PubSub
// subscription): its registration in the hub, `from_slot` replay and the hand-over to live, and the
// commitment gate. What goes on the wire is the transport's business: it gets every update that passed
// through `SessionSink.deliver` (behaviour.md "Subscribe: stream lifecycle", "Replay: from_slot").
// - apply() replaces the whole registration (filters, commitment, replay);
// - during a replay, live updates wait in a buffer and follow the history at the hand-over;
// - the gate holds updates until their slot reaches the requested level and then sends each account's last
//   write of the slot only; slot status updates are never held, and go out after the updates they release;
// - slot statuses, live (the hub) or replayed (here), go out each level once and in order, with the levels a
//   source skipped filled in (slot-statuses.ts);
// - options (issue 23): an end slot after which the stream ends, a replay pace, and news of each slot fully
//   handed to the sink (what a durable cursor stores; see `settle`).
import type { SlotstreamErrorCode } from '../../schemas/errors.js';
import type { StreamViews } from './stream-views.js';
import type { Logger } from 'pino';
import type { Kafka } from '../../platform/kafka/index.js';
import type { TopicNames } from '../../schemas/topics.js';
import { Commitment, keyId, type CompiledSubscription } from '../filters/index.js';
import { matchBlocks } from '../filters/match-chain.js';
import { CommitmentGate } from './commitment-gate.js';
import { Dispatcher } from './dispatcher.js';
import type { Hub, LiveSubscriber } from './hub.js';
import type { LiveTail } from './live-tail.js';
import { planReplay, ReplayOutOfRange, ReplayRun } from './replay.js';
import { readKinds } from './read-kinds.js';
import { runSnapshot, SnapshotUnavailable } from './snapshot.js';
import type { ReplayLimit } from './replay-limit.js';
import type { SharedEvent } from './shared-event.js';
import { reached } from './slot-status.js';
import type { NewestWrites, Write } from './newest-writes.js';
import type { StreamEvent } from './stream-event.js';

/** Why a session cannot go on: a catalogue code (schemas/errors.ts); each transport maps it to its own status. */
export type LiveFailure = Extract<
  SlotstreamErrorCode,
  'SLOTSTREAM_REPLAY_OUT_OF_RANGE' | 'SLOTSTREAM_CLIENT_TOO_SLOW' | 'SLOTSTREAM_LIVE_UNAVAILABLE' | 'SLOTSTREAM_TOO_MANY_REPLAYS'
>;

/** What a transport implements for one session. */
export interface SessionSink {
  /** An update that matched `names` (sorted), in order, past the replay hand-over and the commitment gate. */
  deliver(update: SharedEvent, names: readonly string[]): void;
  /** Every level/terminal status change, for transports that asked for them (`trackStatuses`). */
  slotStatus?(slot: bigint, status: number): void;
  /** The server ping tick. */
  ping(): void;
  /** The session ends: the transport sends the failure and calls close(). */
  fail(reason: LiveFailure, message: string): void;
  /** The last slot the client was handed, for "resume with from_slot" messages. */
  readonly lastSlot: bigint | undefined;
  /**
   * Back-pressure for bulk sends (a snapshot): undefined while the transport can take more, else a promise that
   * settles once its write buffer drained below its low-water mark. Without it a snapshot never waits.
   */
  ready?(): Promise<void> | undefined;
  /** Every update of this slot and of the slots before it went to `deliver` (`reportDelivered`); increasing. */
  delivered?(slot: bigint): void;
  /** The stream reached its end slot: the transport ends it cleanly (gRPC: status OK); the session is closed. */
  end?(): void;
}

/** What a request asks beside its filters (issue 23; stream-bounds.ts validates them). */
export interface ApplyOptions {
  /** The stream ends after this slot; later slots' updates are not sent. */
  readonly toSlot?: bigint;
  /** Replay pace (replay.ts): N times the recorded speed; undefined: as fast as possible. */
  readonly pace?: number;
  /** Tell the sink each slot fully delivered (`SessionSink.delivered`). */
  readonly reportDelivered?: boolean;
}

/** What sessions share: one per process (see LiveLayer). */
export interface SessionDeps {
  hub: Hub;
  tail: LiveTail;
  kafka: Kafka;
  topics: TopicNames;
  /** What the stream needs from the views (stream-views.ts); undefined: none (replays scan, no snapshot). */
  views?: StreamViews;
  /** The process's bound on concurrent from_slot replays. */
  replays: ReplayLimit;
  log: Logger;
}

interface Pending {
  readonly update: SharedEvent;
  readonly names: readonly string[];
}

/** The account write an update is, for the gate's per-slot deduplication (from the scan when there is one: no decode). */
function writeOf(p: Pending): Write | undefined {
  const live = p.update.live;
  if (live.kind !== 'account') return undefined;
  const w = live.scan ?? live.event;
  return { key: keyId(w.pubkey), version: w.writeVersion };
}

let nextId = 1;

export class LiveSession implements LiveSubscriber {
  readonly id = nextId++;
  private sub: CompiledSubscription | undefined;
  private gate: CommitmentGate<Pending> | undefined;
  /** Live updates that arrived while a replay runs; undefined when no replay runs. */
  private liveBuffer: Pending[] | undefined;
  private replay: ReplayRun | undefined;
  /**
   * The replay's dispatcher (dispatcher.ts, the hub's for live records), with this session as its one subscription:
   * the replayed records' matching, their slot statuses (its own news: the hub's are the live tail's) and blocks
   * (live blocks come from the hub). Dropped at the hand-over.
   */
  private replayDispatch: Dispatcher<LiveSession> | undefined;
  /** The replay's newest writes of the accounts it matched (kept past the hand-over for slots still held). */
  private replayWrites: NewestWrites | undefined;
  /** Bumped by every filter change, so a stale replay's late events are ignored. */
  private generation = 0;
  /**
   * Replays started and not yet over (the current one, and replaced or cancelled ones whose reader has not
   * stopped yet). The session holds one `ReplayLimit` permit exactly while this is above 0: taken when a replay
   * starts with none running, given back when the last reader stopped, so the bound counts real readers and a
   * stream that replaces its own replay never competes with itself.
   */
  private replaysInFlight = 0;
  private closed = false;
  private opts: ApplyOptions = {};
  /** The newest slot reported to `SessionSink.delivered`. */
  private lastCompleted: bigint | undefined;
  /**
   * Slots that reached the stream's level and are not reported yet (`settle`): a slot waits here while an earlier
   * slot's updates are held by the gate, or while part of it waits in the hand-over buffer, and is reported once
   * that clears (before issue 32 item 8 such a slot was never reported, and the stored cursor stayed behind). Kept
   * only when the stream ends at a slot or reports its slots (`tracksCompletion`).
   */
  private reachedSlots: bigint[] = [];
  /** Slots the live statuses took to the level while a replay ran: they count from the hand-over on. */
  private reachedLive: bigint[] = [];
  /** The lowest slot among the live updates waiting for the hand-over (a replayed status of it or a later slot
   * does not complete it: part of it is in the buffer). */
  private bufferMin: bigint | undefined;

  constructor(
    private readonly d: SessionDeps,
    private readonly sink: SessionSink,
    /** Live updates a replay may leave waiting before the session is cut off as too slow. */
    private readonly bufferLimit: number,
    /** Tell the sink every status change (PubSub tracks slots itself). */
    private readonly trackStatuses = false,
  ) {
    d.hub.addIdle(this);
  }

  get subscription(): CompiledSubscription | undefined {
    return this.sub;
  }

  /** A subscription that needs a topic the tail does not read (LiveLayerOptions.kinds, `--live-topics`) ends the
   * stream, naming the topic: this replica cannot serve it. */
  private refusedUnread(sub: CompiledSubscription): boolean {
    const read = this.d.tail.readKinds;
    const missing = readKinds(sub).find((k) => !read.includes(k));
    if (missing === undefined) return false;
    this.sink.fail(
      'SLOTSTREAM_LIVE_UNAVAILABLE',
      `this server's streams do not read the ${missing} topic (--live-topics ${read.filter((k) => k !== 'slots').join(',') || '(none)'}): use a replica that reads it`,
    );
    return true;
  }

  /** Replaces the whole registration; starts a replay when the subscription has `fromSlot`. */
  apply(sub: CompiledSubscription, opts: ApplyOptions = {}): void {
    if (this.closed || this.refusedUnread(sub)) return;
    if (sub.fromSlot !== undefined && !this.holdReplayPermit()) return;
    const gen = this.replaceWith(sub, opts);
    this.gate =
      sub.commitment === Commitment.processed
        ? undefined
        : new CommitmentGate<Pending>(sub.commitment, this.d.hub.statusOf, writeOf, this.newestWrite);
    const statuses = this.gate !== undefined || this.trackStatuses || opts.toSlot !== undefined || opts.reportDelivered === true;
    this.d.hub.register(this, sub, statuses, this.d.tail.handedOver);
    if (sub.fromSlot === undefined) return;
    // Registering and reading the live positions happen in the same synchronous step: every record at or
    // after these positions reaches onLive, every record before them is read by the replay.
    const until = this.d.tail.positions();
    this.liveBuffer = [];
    const replayed = new Dispatcher<LiveSession>((_, update, names) => this.admit({ update, names }));
    replayed.register(this, sub);
    this.replayDispatch = replayed;
    this.replayWrites = replayed.writes;
    this.gate?.startReplay();
    this.replaysInFlight++;
    void this.startReplay(sub, sub.fromSlot, until, gen).finally(() => this.replayEnded());
  }

  /**
   * Snapshot, then stream (issue 23, item 1; snapshot.ts): replaces the whole registration with `sub` (which has no
   * fromSlot), sends the state at one slot S of every account it matches, then applies `sub` from slot S + 1, so the
   * live part is a from_slot replay's: no gap, no duplicate at the hand-over. Meanwhile the session is registered
   * for pings only. It holds a replay permit from here to its replay's end: a snapshot costs a ClickHouse stream,
   * then a replay reader. `opts` apply to the live part; with an end slot at or before S the stream ends right
   * after the snapshot (a durable cursor is the transport's to refuse: see api/live/README.md).
   */
  applySnapshot(sub: CompiledSubscription, opts: ApplyOptions = {}): void {
    if (this.closed || this.refusedUnread(sub) || !this.holdReplayPermit()) return;
    const gen = this.replaceWith(sub, opts);
    this.gate = undefined;
    this.d.hub.unregister(this);
    this.d.hub.addIdle(this);
    this.replaysInFlight++;
    void this.startSnapshot(sub, gen).finally(() => this.replayEnded());
  }

  private async startSnapshot(sub: CompiledSubscription, gen: number): Promise<void> {
    const current = () => gen === this.generation && !this.closed;
    try {
      const slot = await runSnapshot({
        views: this.d.views,
        sub,
        current,
        deliver: (update, names) => this.sink.deliver(update, names),
        ready: () => this.sink.ready?.(),
      });
      if (slot === undefined || !current()) return;
      if (this.opts.toSlot !== undefined && slot >= this.opts.toSlot) {
        // The state at S already covers the end slot: nothing after S is asked for.
        this.sink.end?.();
        this.close();
        return;
      }
      // The live part: every write after S, through the from_slot hand-over (this permit carries over to it).
      this.apply({ ...sub, fromSlot: slot + 1n }, this.opts);
    } catch (err) {
      if (!current()) return;
      if (!(err instanceof SnapshotUnavailable)) this.d.log.error({ err, session: this.id }, 'snapshot failed');
      this.sink.fail(
        'SLOTSTREAM_LIVE_UNAVAILABLE',
        err instanceof SnapshotUnavailable ? err.message : `snapshot failed: ${(err as Error).message}`,
      );
      this.close();
    }
  }

  /** Takes the process's replay permit unless this session holds it already; refused: the session fails. */
  private holdReplayPermit(): boolean {
    if (this.replaysInFlight > 0 || this.d.replays.tryAcquire()) return true;
    this.sink.fail('SLOTSTREAM_TOO_MANY_REPLAYS', this.d.replays.refusal());
    this.close();
    return false;
  }

  private replayEnded(): void {
    if (--this.replaysInFlight === 0) this.d.replays.release();
  }

  /** Drops the registration's replay, buffer and held updates; returns the new generation. */
  /** A new registration in place of the old one (apply, applySnapshot): nothing of the old one's progress counts. */
  private replaceWith(sub: CompiledSubscription, opts: ApplyOptions): number {
    const gen = this.reset();
    this.sub = sub;
    this.opts = opts;
    this.lastCompleted = undefined;
    this.reachedSlots = [];
    this.reachedLive = [];
    return gen;
  }

  private reset(): number {
    this.generation++;
    void this.replay?.cancel();
    this.replay = undefined;
    this.replayDispatch = undefined;
    this.replayWrites = undefined;
    this.liveBuffer = undefined;
    this.bufferMin = undefined;
    this.gate?.clear();
    return this.generation;
  }

  private async startReplay(
    sub: CompiledSubscription,
    fromSlot: bigint,
    until: ReturnType<LiveTail['positions']>,
    gen: number,
  ): Promise<void> {
    const { kafka, topics, views, log } = this.d;
    const current = () => gen === this.generation && !this.closed;
    let run: ReplayRun | undefined;
    try {
      const kinds = readKinds(sub);
      const plan = await planReplay({ kafka, topics, kinds, views, fromSlot });
      if (!current()) return;
      if (plan.scanned.length > 0)
        log.info({ session: this.id, topics: plan.scanned }, 'replay: no slot_offsets for topic, scanning from the log start');
      // The replay hands on what the live tail does (replay.ts), end markers after the records they count.
      run = await ReplayRun.start({
        kafka,
        topics,
        kinds,
        fromSlot,
        plan,
        until,
        log,
        pace: this.opts.pace,
        onEvent: (e) => {
          if (current()) this.onReplayEvent(e);
        },
        onReadAll: () => {
          if (current()) this.gate?.replayReadAll();
        },
      });
      if (!current()) {
        await run.cancel();
        return;
      }
      this.replay = run;
      await run.done;
      if (!current()) return;
      this.handOver(sub, fromSlot);
    } catch (err) {
      if (!current()) return;
      if (err instanceof ReplayOutOfRange) this.sink.fail(err.code, err.message);
      else {
        log.error({ err, session: this.id }, 'replay failed');
        this.sink.fail('SLOTSTREAM_LIVE_UNAVAILABLE', `replay failed: ${(err as Error).message}`);
      }
      this.close();
    } finally {
      // Settles when the reader's threads are gone, whichever way the replay ended (hand-over, replaced, closed).
      await run?.stop().catch((err: unknown) => log.warn({ err, session: this.id }, 'replay reader did not stop cleanly'));
    }
  }

  /**
   * A replayed record, through the replay's own dispatcher as the hub takes a live one: each status a slot record
   * adds (a skipped level filled in first), the updates it releases before the status update itself, the block meta
   * after the processed status; only then, once its news all went to the sink, the slot may count as delivered
   * (the end slot's meta goes out before the stream ends).
   */
  private onReplayEvent(e: StreamEvent): void {
    this.replayDispatch!.event(e, this.replayLevel);
    if (e.kind === 'slot') this.settle();
  }

  private readonly replayLevel = (slot: bigint, now: number): void => this.status(slot, now, true);

  /** The newest write of an account in a slot, live or replayed, for the gate's deduplication. */
  private readonly newestWrite = (slot: bigint, key: string): bigint | undefined => {
    const live = this.d.hub.newestWrite(slot, key);
    const replayed = this.replayWrites?.newest(slot, key);
    return live === undefined || (replayed !== undefined && replayed > live) ? replayed : live;
  };

  private handOver(sub: CompiledSubscription, fromSlot: bigint): void {
    // A slot whose records straddle the live positions is whole in neither assembler: the replay's part joins the
    // live one, and a block that completes goes to this stream only, through the buffer like any live update.
    const blocks = this.replayDispatch?.blocks;
    if (blocks) this.d.hub.adoptBlocks(blocks, (u) => this.onLive(u, matchBlocks(sub)));
    if (this.closed) return;
    const buffered = this.liveBuffer ?? [];
    this.liveBuffer = undefined;
    this.replay = undefined;
    this.replayDispatch = undefined;
    this.bufferMin = undefined;
    const waiting = buffered.filter((p) => p.update.slot >= fromSlot);
    // What the live statuses took to the level during the replay is complete now that its buffered updates went
    // out or joined the gate (before issue 32 item 8 these slots were never reported).
    this.reachedSlots.push(...this.reachedLive);
    this.reachedLive = [];
    if (!this.gate) {
      for (const p of waiting) this.out(p);
      this.settle();
      return;
    }
    // The buffered updates join their slots in the gate before it releases what reached the level (replayed
    // slots the live statuses took there, and slots confirmed while their records waited here), so each slot
    // goes out deduplicated as one; admitted one by one they went out at once, every write of the slot.
    // The buffered slot status updates follow what they released.
    const data: [bigint, Pending][] = [];
    const statuses: Pending[] = [];
    for (const p of waiting) {
      if (p.update.kind === 'slot') statuses.push(p);
      else data.push([p.update.slot, p]);
    }
    for (const p of this.gate.replayDone(data)) this.out(p);
    for (const p of statuses) this.out(p);
    this.settle();
  }

  /** Every update goes to the sink through here: none of a slot after the end slot. */
  private out(p: Pending): void {
    if (this.opts.toSlot !== undefined && p.update.slot > this.opts.toSlot) return;
    this.sink.deliver(p.update, p.names);
  }

  private admit(p: Pending): void {
    // Slot status updates are the commitment news itself: never held.
    if (!this.gate || p.update.kind === 'slot') {
      this.out(p);
      return;
    }
    if (this.gate.admit(p.update.slot, p) === 'send') this.out(p);
  }

  private status(slot: bigint, st: number, replayed: boolean): void {
    if (this.trackStatuses) this.sink.slotStatus?.(slot, st);
    if (this.gate) for (const p of this.gate.onStatus(slot, st, replayed)) this.out(p);
    if (this.sub && this.tracksCompletion() && reached(st, this.sub.commitment)) {
      // While a replay runs the live statuses run ahead of it: their slots count once the replay handed over.
      if (this.liveBuffer !== undefined && !replayed) this.reachedLive.push(slot);
      else this.reachedSlots.push(slot);
    }
  }

  private tracksCompletion(): boolean {
    return this.opts.toSlot !== undefined || this.opts.reportDelivered === true;
  }

  /**
   * Reports the newest slot fully delivered, and ends the stream once it is at or past the end slot. Called once a
   * slot record's news all went to the sink (its status updates, what they released, its block meta: the replay's
   * records here, the live ones through the hub's `onSlotDone`) and after the hand-over. A slot that reached the
   * stream's level (`reachedSlots`: at PROCESSED its end marker went on, after the records it counts; above, the
   * gate released it) counts when no earlier or equal slot's updates are held by the gate and, while a replay runs,
   * none of its updates wait in the live buffer (`bufferMin`). The position is the newest such slot, so a slot that
   * reached the level behind a held one is reported as soon as the held one is released or dropped (issue 32 item 8).
   */
  private settle(): void {
    if (this.closed || !this.sub) return;
    if (this.reachedSlots.length > 0) this.advance();
    this.endAtEndSlot();
  }

  private advance(): void {
    const held = this.gate?.oldestHeld();
    const buffered = this.liveBuffer !== undefined ? this.bufferMin : undefined;
    const last = this.lastCompleted;
    let best: bigint | undefined;
    for (const slot of this.reachedSlots) {
      if ((held !== undefined && slot >= held) || (buffered !== undefined && slot >= buffered)) continue;
      if (best === undefined || slot > best) best = slot;
    }
    // A slot past the end slot reached the level (its status rode in with the live tail, or the hand-over released
    // it): everything up to the end slot went out, and no more. Reporting the later slot would move a durable
    // cursor past updates this stream never sent (the next stream on it would skip them).
    const end = this.opts.toSlot;
    if (best !== undefined && end !== undefined && best > end) best = end;
    const position = best !== undefined && (last === undefined || best > last) ? best : last;
    if (position !== undefined) this.reachedSlots = this.reachedSlots.filter((slot) => slot > position);
    if (position === undefined || position === last) return;
    this.lastCompleted = position;
    if (this.opts.reportDelivered) this.sink.delivered?.(position);
  }

  /**
   * The stream ends once the end slot was delivered; while a replay runs, only once each of its slots partitions
   * went past the end slot (ReplayRun.passed): the replay reads one partition ahead of another, and the end slot
   * could reach its level while an older slot's later statuses still sat unread on a slower partition (CI saw a
   * bounded stream end without three slots' confirmed and finalized statuses).
   */
  private endAtEndSlot(): void {
    const end = this.opts.toSlot;
    if (end === undefined || this.lastCompleted === undefined || this.lastCompleted < end) return;
    if (this.liveBuffer !== undefined && !(this.replay?.passed(end) ?? false)) return;
    this.sink.end?.();
    this.close();
  }

  onLive(update: SharedEvent, names: string[]): void {
    if (this.closed) return;
    if (!this.liveBuffer) {
      this.admit({ update, names });
      return;
    }
    // Past the end slot: never sent, so never kept waiting (a paced bounded replay would fill the buffer).
    if (this.opts.toSlot !== undefined && update.slot > this.opts.toSlot) return;
    this.liveBuffer.push({ update, names });
    if (this.bufferMin === undefined || update.slot < this.bufferMin) this.bufferMin = update.slot;
    if (this.liveBuffer.length > this.bufferLimit) {
      this.sink.fail(
        'SLOTSTREAM_CLIENT_TOO_SLOW',
        `replay could not catch up: ${this.bufferLimit} live updates waiting for the hand-over; last delivered slot ${this.sink.lastSlot ?? 'none'}`,
      );
      this.close();
    }
  }

  onSlotStatus(slot: bigint, st: number): void {
    if (!this.closed) this.status(slot, st, false);
  }

  onSlotDone(): void {
    this.settle();
  }

  onPing(): void {
    if (!this.closed) this.sink.ping();
  }

  /** Ends the session (idempotent): leaves the hub, stops its replay, drops what the gate held. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.d.hub.unregister(this);
    this.reset();
  }
}

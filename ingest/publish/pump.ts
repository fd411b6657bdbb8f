// Pulls slot batches from a source, frames them (framer.ts) and hands the records to the publisher as
// they arrive: each is sent into the open Kafka transaction at once, so live streams (which read
// uncommitted) get it within the producer's linger, not after a commit. A transaction is committed once
// it has been open `commitIntervalMs` and holds a slot's end marker, or has been open `openLimitMs` (a slot's
// first pieces), or reached its size bound; while that commit runs, arrivals wait and
// go into the next transaction when it returns (spec/behaviour.md, "Slot framing": no record waits for its
// slot to end). A source running as fast as it can fills transactions to the bound. At most one commit
// runs at a time, and arrivals beyond one transaction's worth make the pump wait for it: memory stays
// bounded and the source is pulled only as fast as Kafka accepts (backpressure without a queue).
// The bookkeeping is pump-state.ts's (pure); the Pump class runs the steps: `run` (the loop), `pull`, `take`,
// `fill`, `startCommit`, `drain`.
import type { FramedRecord } from './framer.js';
import { PumpState } from './pump-state.js';
import type { SlotBatch } from '../source.js';

/** Where the pump puts records (the publisher). */
export interface PumpSink {
  /** Sends records into the open transaction now. */
  add(records: FramedRecord[]): Promise<void>;
  /** Commits everything added since the last commit. */
  commit(): Promise<void>;
}

export interface PumpOptions {
  /** A transaction holds at most this many records ... */
  maxGroupEvents?: number;
  /** ... and about this many key+value bytes (kept below the topics' max.message.bytes). */
  maxGroupBytes?: number;
  /** A transaction with records and a slot's end marker is committed this long after its first record (read_committed
   * readers, the projector and replays, see a whole slot no later than this plus the commit) ... */
  commitIntervalMs?: number;
  /** ... and one holding only pieces of a slot under way this long after it (pump-state.ts). */
  openLimitMs?: number;
  /** Stop pulling; the records in hand are still published. */
  signal?: AbortSignal;
}

export interface PumpResult {
  batches: number;
  events: number;
  lastSlot: bigint | undefined;
}

export const COMMIT_INTERVAL_MS = 50;
export const OPEN_LIMIT_MS = 1_000;

const SETTLED: unique symbol = Symbol('settled');
const DUE: unique symbol = Symbol('due');

export function pump<B extends { slot: bigint } = SlotBatch>(
  batches: AsyncIterable<B>,
  frame: (batch: B) => FramedRecord[],
  sink: PumpSink,
  opts: PumpOptions = {},
): Promise<PumpResult> {
  return new Pump(batches, frame, sink, opts).run();
}

class Pump<B extends { slot: bigint }> {
  // Waiting records and the open transaction (pump-state.ts): `take` enqueues, `fill` sends into the open
  // transaction, `startCommit` hands it to a commit.
  private readonly state: PumpState;

  // The running commit (at most one), settling to SETTLED either way; its failure is kept in `failure`
  // (the first one) and thrown by `run`. Set by `startCommit`, cleared when that commit settles.
  private inflight: Promise<typeof SETTLED> | undefined;
  private failure: unknown;

  // The source: its iterator, the pull in flight (kept across a wait that a commit or the due time won), the
  // timer of the open transaction's due time, and whether the source ended by itself. Only `run` and `pull`
  // touch them.
  private readonly it: AsyncIterator<B>;
  private next: Promise<IteratorResult<B>> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private finished = false;

  // What went through, returned by `run`; `take` counts.
  private readonly result: PumpResult = { batches: 0, events: 0, lastSlot: undefined };

  constructor(
    batches: AsyncIterable<B>,
    private readonly frame: (batch: B) => FramedRecord[],
    private readonly sink: PumpSink,
    private readonly opts: PumpOptions,
  ) {
    this.state = new PumpState({
      maxEvents: opts.maxGroupEvents ?? 20_000,
      maxBytes: opts.maxGroupBytes ?? 3 * 1024 * 1024,
      intervalMs: opts.commitIntervalMs ?? COMMIT_INTERVAL_MS,
      openLimitMs: opts.openLimitMs ?? OPEN_LIMIT_MS,
    });
    this.it = batches[Symbol.asyncIterator]();
  }

  async run(): Promise<PumpResult> {
    try {
      for (;;) {
        if (this.failure !== undefined) throw this.failure;
        if (this.opts.signal?.aborted) break;
        await this.fill();
        if (this.inflight === undefined && this.state.hasOpen && performance.now() >= this.state.dueAt) this.startCommit();
        const r = await this.pull();
        if (r === SETTLED || r === DUE) continue;
        if (r.done) {
          this.finished = true;
          break;
        }
        this.take(r.value);
        // A transaction's worth waiting while a commit runs: wait for it (the source waits with us).
        if (this.state.backlogged && this.inflight) await this.inflight;
      }
      await this.drain();
    } finally {
      clearTimeout(this.timer);
      // Let the source release its resources (timers, files) when we stop early or fail.
      if (!this.finished) await this.it.return?.().catch(() => {});
    }
    return this.result;
  }

  /** The next batch, or the end of the running commit, or the open transaction's due time, whichever first. */
  private async pull(): Promise<IteratorResult<B> | typeof SETTLED | typeof DUE> {
    this.next ??= this.it.next();
    let due: Promise<typeof DUE> | undefined;
    if (this.inflight === undefined && this.state.hasOpen) {
      due = new Promise((resolve) => (this.timer = setTimeout(() => resolve(DUE), Math.max(0, this.state.dueAt - performance.now()))));
    }
    const r = await Promise.race(this.inflight ? [this.next, this.inflight] : due ? [this.next, due] : [this.next]);
    clearTimeout(this.timer);
    if (r !== SETTLED && r !== DUE) this.next = undefined;
    return r;
  }

  /** A batch from the source: framed, stamped, and queued to be sent. */
  private take(batch: B): void {
    const handedAt = Date.now();
    const framed = this.frame(batch);
    // A source framed on another thread stamped its hand-over there.
    for (const rec of framed) rec.handedAt ??= handedAt;
    this.state.enqueue(framed);
    this.result.batches++;
    // One record per event: a slot's own status record becomes its end marker.
    this.result.events += framed.length;
    this.result.lastSlot = batch.slot;
  }

  /** Sends what waits into the open transaction, committing whenever it is full; stops while a commit runs. */
  private async fill(): Promise<void> {
    while (this.inflight === undefined && this.state.hasWaiting) {
      const part = this.state.takeForOpen(performance.now());
      if (part.length > 0) await this.sink.add(part);
      if (this.state.full) this.startCommit();
    }
  }

  private startCommit(): void {
    this.state.commitStarted();
    const p = this.sink.commit().then(
      (): typeof SETTLED => SETTLED,
      (err: unknown): typeof SETTLED => {
        this.failure ??= err;
        return SETTLED;
      },
    );
    this.inflight = p;
    void p.then(() => {
      if (this.inflight === p) this.inflight = undefined;
    });
  }

  /** Publishes what is in hand: the open transaction and everything waiting. */
  private async drain(): Promise<void> {
    for (;;) {
      if (this.inflight) await this.inflight;
      if (this.failure !== undefined) throw this.failure;
      await this.fill();
      if (this.inflight) continue;
      if (!this.state.hasOpen && !this.state.hasWaiting) break;
      this.startCommit();
    }
  }
}

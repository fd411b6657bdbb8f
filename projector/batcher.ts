// Collects slices until a batch is due (by event count or by age), then hands them to one flush at a
// time. Every `add` resolves only after the flush holding its slice finished: the consumer's fetch is
// not done before its rows are stored and its offsets committed.

export interface BatcherOptions<S> {
  /** Flush once this many events are waiting. */
  maxEvents: number;
  /** Flush a waiting slice at most this long after it arrived. */
  maxMs: number;
  /** Events a slice counts for (at least 1, so empty marker slices still make progress). */
  sizeOf: (slice: S) => number;
  flush: (slices: S[]) => Promise<void>;
}

interface Entry<S> {
  slice: S;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class Batcher<S> {
  private pending: Entry<S>[] = [];
  private pendingEvents = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private urgent = false;
  /** Events added and not yet flushed (waiting or in the running flush). */
  private queued = 0;
  private roomWaiters: (() => void)[] = [];

  constructor(private readonly o: BatcherOptions<S>) {}

  add(slice: S): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ slice, resolve, reject });
      const size = Math.max(1, this.o.sizeOf(slice));
      this.pendingEvents += size;
      this.queued += size;
      if (this.urgent || this.pendingEvents >= this.o.maxEvents) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.o.maxMs);
    });
  }

  /** Resolves once fewer than `limit` events are queued: back-pressure for the producer of slices. */
  waitForRoom(limit: number): Promise<void> {
    if (this.queued < limit) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const check = () => {
        if (this.queued < limit) resolve();
        else this.roomWaiters.push(check);
      };
      this.roomWaiters.push(check);
    });
  }

  /** From now on flush every slice as soon as it arrives (used while stopping). */
  hurry(): void {
    this.urgent = true;
    if (this.pending.length > 0) this.kick();
  }

  /** Resolves when no flush is running and nothing waits. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      // Slices that arrived during the last flush wait for their own due time (or go now if due).
      if (this.pending.length > 0) {
        if (this.urgent || this.pendingEvents >= this.o.maxEvents) this.kick();
        else this.timer ??= setTimeout(() => this.kick(), this.o.maxMs);
      }
    });
  }

  private async drain(): Promise<void> {
    const take = this.pending;
    this.pending = [];
    this.pendingEvents = 0;
    try {
      await this.o.flush(take.map((e) => e.slice));
      for (const e of take) e.resolve();
    } catch (err) {
      for (const e of take) e.reject(err);
    } finally {
      for (const e of take) this.queued -= Math.max(1, this.o.sizeOf(e.slice));
      const waiters = this.roomWaiters;
      this.roomWaiters = [];
      for (const w of waiters) w();
    }
  }
}

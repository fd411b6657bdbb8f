// The pump's bookkeeping (pure, no I/O, time passed in): records waiting to be sent, the open transaction's
// size and age, and the rules on them (a transaction's bounds, when it is due, when the source must wait).
// pump.ts moves records and commits by it; the unit tests drive it directly.
import type { FramedRecord } from './framer.js';

export interface PumpBounds {
  /** A transaction holds at most this many records ... */
  maxEvents: number;
  /** ... and about this many key+value bytes. */
  maxBytes: number;
  /** A transaction with records and a slot's end marker is due for its commit this long after its first record ... */
  intervalMs: number;
  /** ... and one without an end marker (the first pieces of a slot under way) this long after it: read_committed
   * readers (the projector, replays) need whole slots, and a commit per piece multiplied the Kafka transactions, the
   * broker's work and the readers' fetches by the pieces a slot comes in (~8 at 400 ms slots). */
  openLimitMs: number;
}

const sizeOf = (r: FramedRecord): number => r.key.length + r.value.length;

export class PumpState {
  // Records framed and not sent yet, in order, and their bytes: `enqueue` appends, `takeForOpen` removes a
  // prefix. They wait while a commit runs or when the open transaction is full.
  private waiting: FramedRecord[] = [];
  private waitingBytes = 0;

  // The open transaction: records and bytes sent into it, and when its first record went in (ms, the
  // caller's clock). `takeForOpen` adds to it, `commitStarted` empties it (the commit then owns them).
  private openEvents = 0;
  private openBytes = 0;
  private openedAt = 0;
  // Whether the open transaction holds a slot's end marker (a record with `ends`).
  private openEnds = false;

  constructor(readonly bounds: PumpBounds) {}

  enqueue(records: readonly FramedRecord[]): void {
    for (const r of records) {
      this.waiting.push(r);
      this.waitingBytes += sizeOf(r);
    }
  }

  /** The waiting records that fit the open transaction now (a batch can be larger than a transaction may
   * be: a prefix within the bounds), counted into it; empty when none fit. */
  takeForOpen(now: number): FramedRecord[] {
    const { maxEvents, maxBytes } = this.bounds;
    let n = 0;
    let bytes = 0;
    while (n < this.waiting.length && this.openEvents + n < maxEvents && this.openBytes + bytes < maxBytes)
      bytes += sizeOf(this.waiting[n++]!);
    if (n === 0) return [];
    const part = n === this.waiting.length ? this.waiting : this.waiting.slice(0, n);
    this.waiting = n === this.waiting.length ? [] : this.waiting.slice(n);
    this.waitingBytes -= bytes;
    if (this.openEvents === 0) this.openedAt = now;
    for (let i = 0; i < n && !this.openEnds; i++) if (part[i]!.ends !== undefined) this.openEnds = true;
    this.openEvents += n;
    this.openBytes += bytes;
    return part;
  }

  /** A commit of the open transaction begins: the next records open a new one. */
  commitStarted(): void {
    this.openEvents = 0;
    this.openBytes = 0;
    this.openEnds = false;
  }

  get hasWaiting(): boolean {
    return this.waiting.length > 0;
  }

  get hasOpen(): boolean {
    return this.openEvents > 0;
  }

  /** The open transaction reached a bound: commit it before sending more. */
  get full(): boolean {
    return this.openEvents >= this.bounds.maxEvents || this.openBytes >= this.bounds.maxBytes;
  }

  /** When the open transaction is due for its commit (meaningful while it has records). */
  get dueAt(): number {
    return this.openedAt + (this.openEnds ? this.bounds.intervalMs : Math.max(this.bounds.intervalMs, this.bounds.openLimitMs));
  }

  /** A transaction's worth waits: the source must wait for the running commit. */
  get backlogged(): boolean {
    return this.waiting.length >= this.bounds.maxEvents || this.waitingBytes >= this.bounds.maxBytes;
  }
}

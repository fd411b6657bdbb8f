// The partition reader's bookkeeping (pure, no consumer): positions, seeks racing consume calls, and
// pauses. partition-reader.ts drives it from the consumer's events; the unit tests drive it directly.
//
// The race it resolves: librdkafka applies a seek to what a consume call returns only for calls issued
// after the seek completed. A call in flight across a seek (or issued while one was pending) may return
// records of the old position, or of the new one after librdkafka moved its own position past them; either
// way that call is stale for the partition: its records are dropped, its end-of-partition ignored, and the
// partition is sought again once no call is in flight, so the next call starts exactly at the position.
import { OffsetMap, tpKey } from './offset-map.js';

export interface TopicPartition {
  topic: string;
  partition: number;
}

/** The partitions sought during one consume call (tpKey), filled while it is in flight. */
export type CallMarks = Set<string>;

export class ReadState {
  // Next offset to read per partition: set for every assigned partition at construction, moved forward
  // by `advance` (records handed over, end-of-partition), set anywhere by `seekStarted`. Read by anyone.
  readonly positions: OffsetMap;

  // The marks of the consume call in flight (at most one): made by `callIssued`, added to by `seekStarted`,
  // dropped by `callReturned`. Seeks pending (started, not completed) per partition, by `seekStarted` and
  // `seekEnded`; a call issued while one is pending is stale for that partition from the start.
  private inFlight: CallMarks | undefined;
  private readonly seeking = new Map<string, number>();

  // Partitions paused one by one, and whether everything is paused; `pause`, `resume` and `pauseAll`
  // keep them and say which partitions the consumer must pause or resume.
  private readonly paused = new Set<string>();
  private pausedAll = false;

  constructor(
    readonly assigned: readonly TopicPartition[],
    start: OffsetMap,
  ) {
    this.positions = start;
  }

  /** A consume call goes out: the partitions it is already stale for (seeks pending now). */
  callIssued(): CallMarks {
    this.inFlight = new Set(this.seeking.keys());
    return this.inFlight;
  }

  /** The call with these marks came back (it is no longer in flight). */
  callReturned(marks: CallMarks): void {
    if (this.inFlight === marks) this.inFlight = undefined;
  }

  /** Whether the next call may go out while this one's records are handled: not when a seek is pending or
   * this call came back stale (the re-seek must be made with no call in flight). */
  mayPrefetch(marks: CallMarks): boolean {
    return marks.size === 0 && this.seeking.size === 0;
  }

  /** Whether a record of the call with these marks is handed over: not stale, and not behind the position. */
  accepts(marks: CallMarks, topic: string, partition: number, offset: bigint): boolean {
    if (marks.size > 0 && marks.has(tpKey(topic, partition))) return false;
    const cur = this.positions.get(topic, partition);
    return cur === undefined || offset >= cur;
  }

  /** Whether an end-of-partition of the call with these marks counts. */
  acceptsEof(marks: CallMarks, topic: string, partition: number, offset: number): boolean {
    return offset >= 0 && !marks.has(tpKey(topic, partition));
  }

  /** Moves a partition's position forward (never back); whether it moved. */
  advance(topic: string, partition: number, next: bigint): boolean {
    if (this.positions.partitions(topic).size === 0) return false;
    const cur = this.positions.get(topic, partition);
    if (cur !== undefined && next <= cur) return false;
    this.positions.set(topic, partition, next);
    return true;
  }

  /** A seek begins: the position is the target now, and the call in flight is stale for the partition. */
  seekStarted(topic: string, partition: number, offset: bigint): void {
    const key = tpKey(topic, partition);
    this.inFlight?.add(key);
    this.seeking.set(key, (this.seeking.get(key) ?? 0) + 1);
    if (this.positions.partitions(topic).size > 0) this.positions.set(topic, partition, offset);
  }

  seekEnded(topic: string, partition: number): void {
    const key = tpKey(topic, partition);
    const n = (this.seeking.get(key) ?? 1) - 1;
    if (n === 0) this.seeking.delete(key);
    else this.seeking.set(key, n);
  }

  /** The assigned partitions a stale call must seek again (each to its position at the time of its seek). */
  reseeks(marks: CallMarks): TopicPartition[] {
    return this.assigned.filter((x) => marks.has(tpKey(x.topic, x.partition)));
  }

  /** Pauses one partition (to pause on the consumer). */
  pause(topic: string, partition: number): TopicPartition[] {
    this.paused.add(tpKey(topic, partition));
    return [{ topic, partition }];
  }

  /** Resumes one partition: to resume on the consumer unless everything is paused. */
  resume(topic: string, partition: number): TopicPartition[] {
    this.paused.delete(tpKey(topic, partition));
    return this.pausedAll ? [] : [{ topic, partition }];
  }

  /** Pauses or resumes everything: the partitions to pause, or to resume (those not paused one by one). */
  pauseAll(paused: boolean): TopicPartition[] {
    this.pausedAll = paused;
    return paused ? [...this.assigned] : this.assigned.filter((x) => !this.paused.has(tpKey(x.topic, x.partition)));
  }
}

// from_slot replay: reads the Kafka history of the topics the live tail reads from the first
// offset of a slot >= from_slot, per partition, up to the offsets the live tail had reached when the
// stream registered (`until`). Everything before `until` comes from here, everything from `until` on
// comes from the live tail: no gap and no duplicate at the hand-over. It hands on what the live tail hands
// on (stream-event.ts: the same records, read the same way, with their partition; slots' end markers after
// the records they count, frame-gate.ts), so one path downstream serves both.
//
// Start offsets come from the projector's `slot_offsets` view (through StreamViews: ClickHouse or the engine process). A partition without a row for a slot
// >= from_slot starts after the last offset the view indexed for it (the projector may trail Kafka);
// a topic the view knows nothing about (projector not running, or no ClickHouse) is scanned from the
// log start, filtering slot >= from_slot.
import type { Logger } from 'pino';
import { OffsetMap, tpKey, type InRecord, type Kafka, type OffsetRange, type PartitionReader } from '../../platform/kafka/index.js';
import { SlotstreamError } from '../../schemas/errors.js';
import type { TopicKind, TopicNames } from '../../schemas/topics.js';
import { FrameGate } from './frame-gate.js';
import { Pacer } from './pacer.js';
import { MARKER_HOLD_MS, MARKER_ORDER_WAIT_MS, READ_CHUNK, readError } from './live-tail.js';
import { readRecord, streamTopics, TOPIC_KIND, type StreamEvent } from './stream-event.js';
import type { LogStart, StreamViews } from './stream-views.js';

/** Catalogue code SLOTSTREAM_REPLAY_OUT_OF_RANGE. */
export class ReplayOutOfRange extends SlotstreamError<'SLOTSTREAM_REPLAY_OUT_OF_RANGE'> {
  override name = 'ReplayOutOfRange';
  constructor(
    readonly fromSlot: bigint,
    readonly firstAvailable: bigint,
  ) {
    super(
      'SLOTSTREAM_REPLAY_OUT_OF_RANGE',
      `from_slot ${fromSlot} is older than the retained history; first available slot is ${firstAvailable}`,
      {
        fromSlot,
        firstAvailable,
      },
    );
  }
}

export interface ReplayPlan {
  /** Start offset per topic and partition. */
  start: OffsetMap;
  /** Topics without any slot_offsets row: scanned from the log start. */
  scanned: string[];
}

export async function logRanges(kafka: Kafka, topics: string[]): Promise<Map<string, Map<number, OffsetRange>>> {
  const out = new Map<string, Map<number, OffsetRange>>();
  for (const topic of topics) out.set(topic, await kafka.admin().offsetRanges(topic));
  return out;
}

/** The partitions whose log start moved (retention deleted records), as StreamViews.firstAvailable takes them. */
export function movedStarts(ranges: Map<string, Map<number, OffsetRange>>): LogStart[] {
  const out: LogStart[] = [];
  for (const [topic, parts] of ranges) for (const [partition, r] of parts) if (r.low !== 0n) out.push({ topic, partition, low: r.low });
  return out;
}

/**
 * The oldest slot whose history is complete in every partition: per partition whose log start moved, the slot
 * of the first retained record, plus one when that slot's records were cut. Undefined when nothing was deleted
 * or the views cannot tell.
 */
export async function firstAvailableSlot(views: StreamViews, ranges: Map<string, Map<number, OffsetRange>>): Promise<bigint | undefined> {
  const starts = movedStarts(ranges);
  return starts.length === 0 ? undefined : views.firstAvailable(starts);
}

export async function planReplay(o: {
  kafka: Kafka;
  topics: TopicNames;
  /** The topic kinds the replay reads (readKinds); default: every stream kind. */
  kinds?: readonly TopicKind[];
  /** The views (slot_offsets); without them every topic is scanned from the log start. */
  views?: StreamViews;
  fromSlot: bigint;
}): Promise<ReplayPlan> {
  const names = [...streamTopics(o.topics, o.kinds).keys()];
  const ranges = await logRanges(o.kafka, names);
  const rows = o.views ? await o.views.replayOffsets(names, o.fromSlot) : [];
  if (o.views) {
    const first = await firstAvailableSlot(o.views, ranges);
    if (first !== undefined && o.fromSlot < first) throw new ReplayOutOfRange(o.fromSlot, first);
  }
  const start = new OffsetMap();
  const scanned: string[] = [];
  for (const [topic, parts] of ranges) {
    const topicRows = rows.filter((r) => r.topic === topic);
    if (topicRows.length === 0) scanned.push(topic);
    for (const [partition, r] of parts) {
      const row = topicRows.find((x) => x.partition === partition);
      let s: bigint;
      if (row?.start != null) s = BigInt(row.start);
      else if (row) s = BigInt(row.indexed) + 1n;
      else s = r.low;
      start.set(topic, partition, s < r.low ? r.low : s);
    }
  }
  return { start, scanned };
}

/** A paced replay's records of one partition, read and not yet handed on. */
interface PacedQueue {
  topic: string;
  partition: number;
  items: { e: StreamEvent; ts: number }[];
  /** Read to `until`. */
  done: boolean;
  /** Paused by the pacing (PACED_HIGH), not by being done. */
  paused: boolean;
}

/** A paused partition's records waiting for their time: paused at HIGH, resumed at LOW. */
const PACED_HIGH = 4 * READ_CHUNK;
const PACED_LOW = READ_CHUNK;

export interface ReplayOptions {
  kafka: Kafka;
  topics: TopicNames;
  fromSlot: bigint;
  plan: ReplayPlan;
  /** The topic kinds it reads (readKinds: what the subscription needs); default: every stream kind. */
  kinds?: readonly TopicKind[];
  /** Live tail positions at registration: replay stops right before them. */
  until: OffsetMap;
  /** Each record with slot >= fromSlot, in Kafka order per partition, end markers after what they count. */
  onEvent: (e: StreamEvent) => void;
  /** Called once the replay read to its bound, before it hands on what its framing still holds. */
  onReadAll?: () => void;
  log: Logger;
  /** N times the recorded speed (pacer.ts); undefined: as fast as the broker serves. */
  pace?: number;
}

/** A running replay; `done` settles when history up to `until` has been handed over (or on error). */
export class ReplayRun {
  private reader: PartitionReader | undefined;
  private readonly kinds: ReadonlyMap<string, TopicKind>;
  private cancelled = false;
  readonly done: Promise<void>;
  private resolve!: () => void;
  private readonly remaining = new Set<string>();
  private stopping: Promise<void> | undefined;
  /**
   * End markers go on after the records they count, as the live tail hands them over (a replay reads
   * partitions ahead of each other). Counts are compared per kind (`byKind`): a replay reads committed
   * records from a slot boundary, each once, so the sums match exactly when the partitions' counts do.
   * Bounded: history up to `until` is all in Kafka, so order waits for the partitions, not the clock (one
   * partition's chunk can come seconds after another's on a busy machine, and a dead fork's first statuses
   * must not overtake an older slot's confirmation still unread on another partition).
   */
  private readonly framed: FrameGate<StreamEvent>;
  /**
   * Paced replays only: the records read and not yet due, per partition (in offset order), handed on by `pump`
   * lowest timestamp first when due, so the topics go on in recorded order however far the reader read one ahead
   * of another (a partition holding PACED_HIGH records is paused until it is down to PACED_LOW). A partition read
   * to `until` is done for the frame gate, and the replay is over, only once its records went on.
   */
  private readonly pacer: Pacer | undefined;
  private readonly queues = new Map<string, PacedQueue>();
  private pumpTimer: NodeJS.Timeout | undefined;
  private allRead = false;

  private constructor(private readonly o: ReplayOptions) {
    this.done = new Promise<void>((res) => (this.resolve = res));
    this.kinds = streamTopics(o.topics, o.kinds);
    this.pacer = o.pace === undefined ? undefined : new Pacer(o.pace);
    const slotPartitions = Math.max(1, o.until.partitions(o.topics.slots).size);
    this.framed = new FrameGate<StreamEvent>((e) => o.onEvent(e), {
      byKind: true,
      kinds: new Set(this.kinds.values()),
      bounded: true,
      fromSlot: o.fromSlot,
      slotPartitions,
      maxHoldMs: MARKER_HOLD_MS,
      orderWaitMs: MARKER_ORDER_WAIT_MS,
    });
  }

  static async start(o: ReplayOptions): Promise<ReplayRun> {
    const run = new ReplayRun(o);
    await run.begin();
    return run;
  }

  private untilOf(topic: string, partition: number): bigint {
    return this.o.until.get(topic, partition) ?? 0n;
  }

  private async begin(): Promise<void> {
    for (const [topic, partition, s] of this.o.plan.start)
      if (s < this.untilOf(topic, partition)) this.remaining.add(tpKey(topic, partition));
    if (this.remaining.size === 0) {
      this.resolve();
      return;
    }
    this.reader = await this.o.kafka.partitionReader({
      topics: [...this.kinds.keys()],
      start: this.o.plan.start,
      purpose: 'api-replay',
      chunk: READ_CHUNK,
      onRecords: (records) => this.onRecords(records),
      onPosition: (topic, partition, next) => this.onPosition(topic, partition, next),
      onError: (err) => readError(this.o.log, 'replay', err),
    });
    // Partitions with nothing to replay, or already complete, need no fetching.
    for (const [topic, partition] of this.o.plan.start) {
      if (!this.remaining.has(tpKey(topic, partition))) {
        this.reader.pause(topic, partition);
        this.slotsPartitionDone(topic, partition);
      } else this.onPosition(topic, partition, this.reader.position(topic, partition) ?? 0n);
    }
  }

  private onRecords(records: InRecord[]): void {
    if (this.cancelled) return;
    if (this.pacer) return this.queue(records, this.pacer);
    for (const r of records) {
      const e = this.wanted(r);
      if (e !== undefined) this.handOn(e);
    }
  }

  /** A record the replay hands on: before `until` (the live tail delivers the rest), slot >= fromSlot. */
  private wanted(r: InRecord): StreamEvent | undefined {
    if (r.offset >= this.untilOf(r.topic, r.partition)) return undefined;
    const e = readRecord(this.kinds.get(r.topic)!, r, this.o.log, 'replay: ');
    return e === undefined || e.slot < this.o.fromSlot ? undefined : e;
  }

  private queue(records: InRecord[], pacer: Pacer): void {
    for (const r of records) {
      const e = this.wanted(r);
      if (e === undefined) continue;
      const key = tpKey(r.topic, r.partition);
      let q = this.queues.get(key);
      if (!q) this.queues.set(key, (q = { topic: r.topic, partition: r.partition, items: [], done: false, paused: false }));
      q.items.push({ e, ts: r.timestamp });
      if (q.items.length >= PACED_HIGH && !q.paused) {
        q.paused = true;
        this.reader?.pause(q.topic, q.partition);
      }
    }
    this.pump(pacer);
  }

  /** Hands on every due record, lowest timestamp first; then waits for the next one's time. */
  private pump(pacer: Pacer): void {
    clearTimeout(this.pumpTimer);
    this.pumpTimer = undefined;
    while (!this.cancelled) {
      let next: PacedQueue | undefined;
      for (const q of this.queues.values()) if (q.items.length > 0 && (!next || q.items[0]!.ts < next.items[0]!.ts)) next = q;
      if (!next) {
        if (this.allRead) void this.finish();
        return;
      }
      const wait = pacer.delayFor(next.items[0]!.ts);
      if (wait >= 1) {
        this.pumpTimer = setTimeout(() => this.pump(pacer), wait);
        return;
      }
      this.handOn(next.items.shift()!.e);
      if (next.items.length === 0 && next.done) this.slotsPartitionDone(next.topic, next.partition);
      if (next.paused && !next.done && next.items.length <= PACED_LOW) {
        next.paused = false;
        this.reader?.resume(next.topic, next.partition);
      }
    }
  }

  private handOn(e: StreamEvent): void {
    if (e.kind === 'slot') {
      if (e.event.end === undefined && e.event.gap === undefined) this.framed.count('slots', e.partition, e.slot);
      this.framed.slotRecord(e.partition, e, e.event);
    } else {
      this.o.onEvent(e);
      this.framed.count(TOPIC_KIND[e.kind], e.partition, e.slot);
    }
    // After every record, not every chunk: a marker goes on as soon as its records are in, before later slots' data.
    this.framed.flush();
  }

  private onPosition(topic: string, partition: number, next: bigint): void {
    const key = tpKey(topic, partition);
    if (!this.remaining.has(key) || next < this.untilOf(topic, partition)) return;
    this.remaining.delete(key);
    this.reader?.pause(topic, partition);
    const q = this.queues.get(key);
    if (q) q.done = true;
    if (!q || q.items.length === 0) this.slotsPartitionDone(topic, partition);
    if (this.remaining.size > 0) return;
    if (!this.pacer) void this.finish();
    else {
      this.allRead = true;
      this.pump(this.pacer);
    }
  }

  /** A slots partition read to `until` (positions move after its records were handed to onRecords): what waited
   * for it may go on. */
  private slotsPartitionDone(topic: string, partition: number): void {
    if (topic !== this.o.topics.slots || this.cancelled) return;
    this.framed.partitionDone(partition);
    this.framed.flush();
  }

  private async finish(): Promise<void> {
    // Let the batch that completed the last partition be handed over first (positions advance after it).
    await Promise.resolve();
    // Every record is in: what still waits goes on, markers in slot order (after telling the stream: a marker
    // then may count records that come live).
    if (!this.cancelled) {
      this.o.onReadAll?.();
      this.framed.flush(true);
    }
    this.resolve();
    await this.stopReader();
  }

  /** Every slots partition went past `slot` (FrameGate.passed): a bounded stream's end slot may close it. */
  passed(slot: bigint): boolean {
    return this.framed.passed(slot);
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
    clearTimeout(this.pumpTimer);
    this.resolve();
    await this.stopReader();
  }

  /** Stops the reader if it still runs; settles once it has stopped (the replay's threads are gone). */
  stop(): Promise<void> {
    return this.stopReader();
  }

  /** Once: a stream closing right as its replay finishes stops it from both sides. */
  private stopReader(): Promise<void> {
    return (this.stopping ??= this.reader?.stop() ?? Promise.resolve());
  }
}

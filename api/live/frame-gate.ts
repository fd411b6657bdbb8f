// Slot framing for readers of several partitions (pure): slots' end markers (the processed, dead or skipped
// record with `end` counts, behaviour.md "Slot framing") are handed on in slot order and each only after
// the records it counts, so a consumer sees a slot's transactions, account writes and entries before its
// block meta and processed status, and blocks in slot order, as Yellowstone's own server sends them (a
// validator notifies a block's accounts and transactions before its block meta, and blocks one after
// another; a Yellowstone client such as slotstream's own yellowstone source relies on both).
// One reader over many partitions hands records of different partitions over in no particular order (a
// fetch answers partition by partition; a replay reads whole partitions ahead of others), so without this
// a marker could overtake account writes still in flight on another partition, or a lower slot's marker.
// Data records are never held. Slot records wait per partition behind their partition's next marker (Kafka
// order per partition is kept), and so do statuses of a slot after the next one to end (a dead fork's first
// statuses); the lowest waiting marker goes on once its records are in and the slot before it has ended. Fallbacks, so nothing waits for what will not come: a marker whose slot may have
// begun before the reader did goes on without its counts (a live reader starting mid-slot), one whose
// counts are not reached (an undecodable record) after `maxHoldMs`, and one whose previous slot has no
// marker (a gap; skipped slots on a chain that has no skipped records, where a block whose parent has ended
// is next) once every partition has a marker waiting, or after `orderWaitMs`.
// A reader that stops at known offsets (`bounded`: a replay, which reads up to the live tail's positions) never
// takes the clock's word for order: everything before its bound is in Kafka and will be read, so time waited
// only says how far one partition's fetch ran ahead of another's (a replay reads history as fast as the
// broker and the event loop allow, partitions chunks apart). There a record goes on out of slot order only
// once every slots partition has a record waiting or was read to its bound (`partitionDone`). Nor for a
// marker's records: they are in Kafka before the bound and will be read, so a marker waits for them however long
// (on a busy machine a replay read a marker seconds before a transaction it counts, on another partition, and a
// relaying ingest that got the marker first gave the slot up as incomplete and dropped the transaction when it
// came: issue 32); what never comes (an undecodable record) waits until the replay has read to its bound, and the
// replay's end (`flush(true)`) hands on what still waits.
import { SlotStatus, type PartitionCount, type SlotEvent } from '../../schemas/gen/events.js';
import { kindPartitionKey } from '../../schemas/topics.js';

interface Marker {
  slot: bigint;
  counts: PartitionCount[];
  /** A block's parent slot (processed markers). */
  parent: bigint | undefined;
  skipped: boolean;
}

interface Held<T> {
  item: T;
  /** The record's slot. */
  slot: bigint;
  /** The slots-topic partition it was read from. */
  partition: number;
  marker: Marker | undefined;
  since: number;
}

/** Counts kept this far behind the newest marker handed on. */
const COUNT_WINDOW = 4096n;

export interface FrameGateOptions {
  /** Whether the reader started after records of that `kind:partition` (a live reader starting at the log
   * end of a used topic); undefined: never (a reader starting at a slot boundary, like a replay). */
  startedLate?: (key: string) => boolean;
  /** A reader whose first record came this long after it began found its topics idle: no slot was under way when it
   * started, so `startedLate` no longer applies and the first slot's marker waits for its records like any other
   * (read before them, it went on at once, and a relaying ingest dropped the slot's account writes as late data).
   * An ingest that stalled mid-slot across the start costs that marker `maxHoldMs`, never a record. */
  idleStartMs?: number;
  /** The reader does not know the data records' partitions (count() gets any number): compare sums per kind. */
  byKind?: boolean;
  /** The topic kinds the reader reads (a replay reads only what its subscription needs): a marker's counts of other
   * kinds are not waited for. Undefined: every kind. */
  kinds?: ReadonlySet<string>;
  /** The first slot expected (a replay's from_slot); undefined: whichever marker comes first. */
  fromSlot?: bigint;
  /** How many partitions the slots topic has: when each has a marker waiting, the lowest is next whatever
   * the slot before it did (nothing lower can come), without waiting `orderWaitMs`. */
  slotPartitions?: number;
  /** The reader stops at known offsets (a replay): order never falls back on `orderWaitMs`, nor a marker's counts on
   * `maxHoldMs` (see above); the reader calls `partitionDone` for each slots partition read to its bound, and
   * `flush(true)` once every partition is. */
  bounded?: boolean;
  maxHoldMs: number;
  orderWaitMs: number;
  now?: () => number;
}

export class FrameGate<T> {
  /** slot -> `kind:partition` (or kind) -> records read. */
  private readonly seen = new Map<bigint, Map<string, number>>();
  /** `kind:partition` -> slot of the first record read there. */
  private readonly firstRead = new Map<string, bigint>();
  /** Slots-topic partition -> records not handed on yet, in Kafka order. */
  private readonly queues = new Map<number, Held<T>[]>();
  private last: bigint | undefined;
  private newest: bigint | undefined;
  private sawSkipped = false;
  /** Slots with statuses read whose marker has not gone on (a dead fork under way). */
  private readonly inFlight = new Set<bigint>();
  private readonly keys = new Map<string, string[]>();
  /** Slots-topic partitions a bounded reader has read to its bound: nothing more comes from them. */
  private readonly done = new Set<number>();
  /** Slots-topic partition -> the highest slot whose marker went on from it (see `passed`). */
  private readonly markerPassed = new Map<number, bigint>();
  /** When the gate was made, and whether its first record came `idleStartMs` or more after (see the option). */
  private readonly began: number;
  private startState: 'waiting' | 'busy' | 'idle' = 'waiting';

  constructor(
    private readonly out: (item: T) => void,
    private readonly o: FrameGateOptions,
  ) {
    if (o.fromSlot !== undefined) this.last = o.fromSlot - 1n;
    this.began = this.now();
  }

  /** The first record read: were the topics idle when the reader began? */
  private firstRecord(): void {
    const idle = this.o.idleStartMs !== undefined && this.now() - this.began >= this.o.idleStartMs;
    this.startState = idle ? 'idle' : 'busy';
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  /** `kind:partition` strings, made once per partition (count() runs for every record the reader hands over). */
  private partitionKey(kind: string, partition: number): string {
    let keys = this.keys.get(kind);
    if (!keys) this.keys.set(kind, (keys = []));
    return (keys[partition] ??= kindPartitionKey(kind, partition));
  }

  /** A record of slot `slot` read from a partition of a topic kind (data, or a slot's own status record). */
  count(kind: string, partition: number, slot: bigint): void {
    let m = this.seen.get(slot);
    if (!m) this.seen.set(slot, (m = new Map()));
    const p = this.partitionKey(kind, partition);
    const k = this.o.byKind ? kind : p;
    m.set(k, (m.get(k) ?? 0) + 1);
    if (this.startState === 'waiting') this.firstRecord();
    if (!this.firstRead.has(p)) this.firstRead.set(p, slot);
  }

  /** A record read from the slots topic; handed on by flush(). */
  slotRecord(partition: number, item: T, e: SlotEvent | undefined): void {
    const marker =
      e?.end !== undefined && e.gap === undefined
        ? { slot: e.slot, counts: e.end.counts, parent: e.block?.parentSlot, skipped: e.status === SlotStatus.SLOT_STATUS_SKIPPED }
        : undefined;
    if (this.startState === 'waiting') this.firstRecord();
    if (!marker && e && (this.last === undefined || e.slot > this.last)) this.inFlight.add(e.slot);
    let q = this.queues.get(partition);
    if (!q) this.queues.set(partition, (q = []));
    q.push({ item, slot: e?.slot ?? 0n, partition, marker, since: this.now() });
  }

  /** Hands on what no longer waits (call after each chunk of records, and now and then); `all`: everything,
   * markers in slot order. */
  flush(all = false): void {
    const now = this.now();
    for (;;) {
      let best: { q: Held<T>[]; h: Held<T> } | undefined;
      for (const q of this.queues.values()) {
        while (q.length > 0 && q[0]!.marker === undefined && this.free(q[0]!, now)) this.release(q.shift()!);
        const h = q[0];
        if (h && (!best || h.slot < best.h.slot)) best = { q, h };
      }
      if (!best || (!all && !this.ready(best.h, now, this.everyPartitionWaiting()))) break;
      this.release(best.q.shift()!);
    }
    for (const [p, q] of this.queues) if (q.length === 0) this.queues.delete(p);
  }

  /** A bounded reader read this slots-topic partition to its bound (call flush() after). */
  partitionDone(partition: number): void {
    this.done.add(partition);
  }

  /**
   * Every slots partition handed on a marker of a slot after `slot`, or (bounded readers) was read to its bound with
   * nothing left waiting: each record a partition holds before such a marker went on, so every status of an
   * earlier slot that was in Kafka before the later slot began did too. Markers go in slot order, other slot
   * records do not wait for other partitions: a bounded replay reads one partition ahead of another, and the end
   * slot's status can go on while an older slot's later statuses sit unread on a slower partition.
   */
  passed(slot: bigint): boolean {
    const n = this.o.slotPartitions;
    if (n === undefined) return true;
    for (let p = 0; p < n; p++) {
      const drained = this.done.has(p) && !this.queues.get(p)?.length;
      if (!drained && !((this.markerPassed.get(p) ?? -1n) > slot)) return false;
    }
    return true;
  }

  /** Every slots partition has a record waiting, or (bounded readers) has nothing more to give: nothing lower than
   * the lowest waiting record can still come. */
  private everyPartitionWaiting(): boolean {
    if (this.o.slotPartitions === undefined) return false;
    let n = 0;
    for (const q of this.queues.values()) if (q.length > 0) n++;
    for (const p of this.done) if (!this.queues.get(p)?.length) n++;
    return n === this.o.slotPartitions;
  }

  /** The first record not handed on per slots-topic partition (for a reader's positions). */
  firstHeld(): Map<number, T> {
    const out = new Map<number, T>();
    for (const [p, q] of this.queues) if (q.length > 0) out.set(p, q[0]!.item);
    return out;
  }

  get holding(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  /** A slot record that is not a marker goes on unless it is a status of a slot after the next one to end
   * (a dead fork's first statuses, read before the previous slot's marker): then it waits for its turn. */
  private free(h: Held<T>, now: number): boolean {
    return this.last === undefined || h.slot <= this.last + 1n || this.waitedForOrder(h, now);
  }

  /** The live fallback for order (a record that may never come); a bounded reader waits for its partitions instead. */
  private waitedForOrder(h: Held<T>, now: number): boolean {
    return !this.o.bounded && now - h.since >= this.o.orderWaitMs;
  }

  private ready(h: Held<T>, now: number, lowestOfAll: boolean): boolean {
    const m = h.marker;
    const waited = now - h.since;
    const whole = !m || this.complete(m) || this.mayHaveBegunEarlier(m) || (!this.o.bounded && waited >= this.o.maxHoldMs);
    // A chain whose skipped slots have no records (a Yellowstone upstream's) cannot name its previous slot:
    // there a block whose parent has ended is next.
    const last = this.last;
    const parentEnded =
      !this.sawSkipped &&
      m?.parent !== undefined &&
      last !== undefined &&
      m.parent <= last &&
      ![...this.inFlight].some((x) => x > last && x < h.slot);
    const inOrder = this.last === undefined || h.slot <= this.last + 1n || parentEnded || lowestOfAll || this.waitedForOrder(h, now);
    return whole && inOrder;
  }

  private mayHaveBegunEarlier(m: Marker): boolean {
    const late = this.o.startedLate;
    if (!late || this.startState === 'idle') return false;
    return m.counts.some((c) => {
      if (!this.reads(c.kind)) return false;
      const k = this.partitionKey(c.kind, c.partition);
      const first = this.firstRead.get(k);
      return late(k) && (first === undefined || first >= m.slot);
    });
  }

  private reads(kind: string): boolean {
    return this.o.kinds === undefined || this.o.kinds.has(kind);
  }

  private complete(m: Marker): boolean {
    const seen = this.seen.get(m.slot);
    if (this.o.byKind) {
      const want = new Map<string, number>();
      for (const c of m.counts) if (this.reads(c.kind)) want.set(c.kind, (want.get(c.kind) ?? 0) + c.count);
      return [...want].every(([kind, n]) => (seen?.get(kind) ?? 0) >= n);
    }
    return m.counts.every((c) => !this.reads(c.kind) || (seen?.get(this.partitionKey(c.kind, c.partition)) ?? 0) >= c.count);
  }

  private release(h: Held<T>): void {
    const m = h.marker;
    // Before handing it on: the reader's `passed` may be asked while it is.
    if (m && m.slot > (this.markerPassed.get(h.partition) ?? -1n)) this.markerPassed.set(h.partition, m.slot);
    this.out(h.item);
    if (!m) return;
    this.seen.delete(m.slot);
    if (m.skipped) this.sawSkipped = true;
    this.inFlight.delete(m.slot);
    for (const x of this.inFlight) if (x < m.slot) this.inFlight.delete(x);
    if (this.last === undefined || m.slot > this.last) this.last = m.slot;
    if (this.newest === undefined || m.slot > this.newest) this.newest = m.slot;
    if (this.seen.size > 2 * Number(COUNT_WINDOW))
      for (const s of this.seen.keys()) if (s + COUNT_WINDOW < this.newest) this.seen.delete(s);
  }
}

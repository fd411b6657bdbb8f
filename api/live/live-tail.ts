// The live tail: ONE Kafka reader per api process over the transactions, accounts, slots and entries
// topics, starting at their current end. Every record is decoded once and handed to the sink (the live
// hub), which matches it once for every session of every transport. Also tracks the newest slot seen (`chainTip`), which
// JSON-RPC uses to tell whether its views trail the chain.
//
// Read uncommitted by default (`read`): a record reaches streams as soon as the ingest produced it, not when
// its Kafka transaction commits (the commit was most of the chain-to-client latency, docs/decisions.md
// "Live reads uncommitted"). The price is a record of an aborted transaction, and its identical
// re-publication: the identity window (identity-window.ts) hands the second copy only to sessions that
// never got the first.
import type { Logger } from 'pino';
import { KafkaError, type InRecord, type Kafka, type OffsetMap, type PartitionReader } from '../../platform/kafka/index.js';
import { kindPartitionKey, type TopicKind, type TopicNames } from '../../schemas/topics.js';
import type { UpstreamVersion } from '../../schemas/codec.js';
import { FrameGate } from './frame-gate.js';
import { IdentityWindow, liveIdentity } from './identity-window.js';
import { recordCopies } from './metrics.js';
import { readRecord, streamTopics, type StreamEvent } from './stream-event.js';

/** What the tail hands over, record by record, in Kafka order per partition (a replay hands its sink the same). */
export interface TailSink {
  onEvent(e: StreamEvent): void;
  /** A second copy of a record already handed over as number `first` (see `LiveTail.handedOver`): read
   * uncommitted, an aborted record and its re-publication. */
  onCopy?(e: StreamEvent, first: number): void;
  /** After every chunk: a chance to flush work collected while handling it. */
  onBatchEnd?(): void;
}

/**
 * Records handed over per synchronous step (the readers' `chunk`). Each chunk is one consume call, and
 * the next call's answer arrives on a later turn of the event loop, so one large backlog cannot hold the
 * loop: clients get to read between chunks (a burst alone would otherwise fill their queues). A reader's
 * position moves right after its chunk, in the same step, so a stream registering between chunks sees a
 * consistent split: everything before the position was handed over, everything from it will be.
 */
export const READ_CHUNK = 256;

/** A failed read is retried by the reader; only one that is not a passing Kafka condition is an error. */
export function readError(log: Logger, who: string, err: Error): void {
  if (err instanceof KafkaError && err.retriable) log.warn({ err }, `${who}: reading Kafka failed; retrying`);
  else log.error({ err }, `${who}: reading failed; reading on`);
}

/** How long a slot's end marker waits for the records it counts, and for the previous slot's marker (frame-gate.ts). */
export const MARKER_HOLD_MS = 2_000;
export const MARKER_ORDER_WAIT_MS = 400;

/** How the live tail reads: `uncommitted` (default) or `committed` (no duplicates to weed out; streams wait for
 * the ingest's commits). */
export type LiveRead = 'committed' | 'uncommitted';

export class LiveTail {
  private tip: bigint | undefined;
  /** The upstream's version on the newest end marker that carried one (SlotEvent.upstream), and its slot. */
  private upstream: { slot: bigint; version: UpstreamVersion } | undefined;
  private reader: PartitionReader | undefined;
  /** End markers go on after the records they count (frame-gate.ts): one reader hands partitions over in
   * no particular order, and geyser.Geyser's clients expect a block's data before its block meta. */
  private readonly gate: FrameGate<{ e: StreamEvent; offset: bigint }>;
  private readonly timer: NodeJS.Timeout;
  /** `kind:partition` where the tail started after records (at the end of a used log). */
  private readonly startedLate = new Set<string>();
  private readonly slotPartitions = { n: 0 };
  /** Only when reading uncommitted. */
  private readonly copies: IdentityWindow | undefined;
  private handed = 0;

  private constructor(
    private readonly kinds: ReadonlyMap<string, TopicKind>,
    private readonly sink: TailSink,
    private readonly log: Logger,
    read: LiveRead,
  ) {
    const slotPartitions = this.slotPartitions;
    this.copies = read === 'uncommitted' ? new IdentityWindow() : undefined;
    this.gate = new FrameGate<{ e: StreamEvent; offset: bigint }>((h) => this.handOver(h.e), {
      startedLate: (k) => this.startedLate.has(k),
      idleStartMs: MARKER_HOLD_MS,
      kinds: new Set(kinds.values()),
      get slotPartitions() {
        return slotPartitions.n;
      },
      maxHoldMs: MARKER_HOLD_MS,
      orderWaitMs: MARKER_ORDER_WAIT_MS,
    });
    this.timer = setInterval(() => {
      if (this.gate.holding === 0) return;
      this.gate.flush();
      this.sink.onBatchEnd?.();
    }, 100);
    this.timer.unref();
  }

  static async start(o: {
    kafka: Kafka;
    topics: TopicNames;
    /** The topics it reads; default every stream topic. */
    kinds?: readonly TopicKind[];
    sink: TailSink;
    log: Logger;
    read?: LiveRead;
  }): Promise<LiveTail> {
    const read = o.read ?? 'uncommitted';
    const t = new LiveTail(streamTopics(o.topics, o.kinds), o.sink, o.log, read);
    t.reader = await o.kafka.partitionReader({
      topics: [...t.kinds.keys()],
      purpose: 'api-live',
      isolation: read === 'uncommitted' ? 'read_uncommitted' : 'read_committed',
      maxWaitMs: 50,
      chunk: READ_CHUNK,
      onRecords: (records) => t.onRecords(records),
      onError: (err) => readError(o.log, 'live tail', err),
    });
    const positions = t.reader.positions();
    for (const [topic, partition, at] of positions) if (at > 0n) t.startedLate.add(kindPartitionKey(t.kinds.get(topic)!, partition));
    for (const topic of positions.topics()) if (t.kinds.get(topic) === 'slots') t.slotPartitions.n = positions.partitions(topic).size;
    return t;
  }

  /** The topics it reads, by kind (LiveLayerOptions.kinds). */
  get readKinds(): TopicKind[] {
    return [...this.kinds.values()];
  }

  /** Events handed to the sink so far: a session registered now got every later one, none before. */
  get handedOver(): number {
    return this.handed;
  }

  private handOver(e: StreamEvent): void {
    this.handed++;
    this.sink.onEvent(e);
  }

  /** The number of the earlier copy of `e`, when the tail read it before (only when reading uncommitted). */
  private copyOf(e: StreamEvent, slot: bigint): number | undefined {
    if (!this.copies) return undefined;
    const id = liveIdentity(e);
    return id === undefined ? undefined : this.copies.firstCopy(slot, id, this.handed);
  }

  private onRecords(records: InRecord[]): void {
    for (const r of records) {
      const kind = this.kinds.get(r.topic)!;
      const e = readRecord(kind, r, this.log);
      if (e === undefined) continue;
      const slot = e.slot;
      if (this.tip === undefined || slot > this.tip) this.tip = slot;
      const first = this.copyOf(e, slot);
      if (first !== undefined) recordCopies.inc({ kind });
      if (e.kind === 'slot') {
        // A slot record's second copy is dropped: statuses and markers are facts the hub already has
        // (a session registered in between gets the slot's later statuses).
        if (first !== undefined) continue;
        const v = e.event.upstream;
        if (v !== undefined && (this.upstream === undefined || slot >= this.upstream.slot)) this.upstream = { slot, version: v };
        if (e.event.end === undefined && e.event.gap === undefined) this.gate.count(kind, r.partition, slot);
        this.gate.slotRecord(r.partition, { e, offset: r.offset }, e.event);
      } else if (first !== undefined) {
        this.sink.onCopy?.(e, first);
      } else {
        this.handOver(e);
        this.gate.count(kind, r.partition, slot);
      }
    }
    this.gate.flush();
    this.sink.onBatchEnd?.();
  }

  chainTip(): bigint | undefined {
    return this.tip;
  }

  /** The version of the node the ingest reads, as the newest slot that says so carries it (undefined until one). */
  upstreamVersion(): UpstreamVersion | undefined {
    return this.upstream?.version;
  }

  /**
   * The offsets the tail will hand over next, per topic and partition. Read synchronously together with
   * registering a stream: every record at or after these offsets reaches that stream live, every record
   * before them is history (replay).
   */
  positions(): OffsetMap {
    const p = this.reader!.positions();
    const held = this.gate.firstHeld();
    if (held.size === 0) return p;
    // Held records (an end marker waiting for its slot's records, and what is behind it) are not handed
    // over yet: a stream registering now gets them live, so its replay stops before them.
    const slots = [...this.kinds].find(([, k]) => k === 'slots')?.[0];
    if (slots !== undefined && p.partitions(slots).size > 0) for (const [partition, h] of held) p.set(slots, partition, h.offset);
    return p;
  }

  /** Stops or restarts reading (streams stay open; nothing is skipped): for benchmarks and maintenance. */
  setPaused(paused: boolean): void {
    this.reader?.pauseAll(paused);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.reader?.stop();
  }
}

// Slot framing (spec/behaviour.md): turns a source's slot batches into the records to publish, in
// publish order, with their partitions. The slot's own PROCESSED (or SKIPPED/DEAD) record is held
// back and published last, as the slot's end marker, carrying how many of the slot's records went
// to each partition of each topic. A slot may come in several batches (`partial`), so a slot's
// records can go out in several Kafka transactions; the counts run across them. Pure: no I/O, and
// the same batches give the same records (the fault test compares topics byte for byte).
// The pure parts of the Kafka seam only: the framer also runs in the simulator's worker thread, where the
// native client cannot load a second time.
import { partitionForKey } from '../../platform/kafka/murmur2.js';
import { encodeRecord, SlotStatus, type PartitionCount, type RecordEvent, type SlotEvent } from '../../schemas/codec.js';
import { kindPartitionKey, type RecordKind, type TopicNames } from '../../schemas/topics.js';
import { oversizedRecord, type DeadLetterRecord } from './dead-letter.js';
import { ownSlotOf } from './identity.js';
import { ParsedSlot } from './parsed-slot.js';
import type { SlotBatch } from '../source.js';
import { ingestMetrics } from '../metrics.js';
import type { UndecodedAt } from '../../schemas/pumpfun/parsed-scan.js';

/** An instruction or event no loaded pump table decodes: counted, so an operator sees a program upgrade land. */
const countUndecoded = (u: UndecodedAt): void => ingestMetrics().pumpUndecoded.inc({ program: u.program, entry: u.entry, kind: u.kind });

export interface FramedRecord {
  kind: RecordKind;
  partition: number;
  key: Buffer;
  value: Buffer;
  /** The slot of the source batch it came in: records of batches up to a slot whose end marker is
   * in Kafka are in Kafka too. */
  batchSlot: bigint;
  /** Set on an end marker: the slot it ends. */
  ends?: bigint;
  /** Set when the record is too large for its topic: the dead letter to publish instead. Such a
   * record is not counted in its slot's marker (its partition never holds it). */
  dead?: DeadLetterRecord;
  /** When the source handed the record's batch to the ingest (ms since the epoch): the record's
   * timestamp in Kafka, where end-to-end latency starts (spec/behaviour.md, "Latency"). */
  handedAt?: number;
}

export class SlotFramingError extends Error {
  override name = 'SlotFramingError';
}

/** Statuses that end a slot when nothing ended it before. */
const ENDING = new Set<SlotStatus>([SlotStatus.SLOT_STATUS_PROCESSED, SlotStatus.SLOT_STATUS_SKIPPED, SlotStatus.SLOT_STATUS_DEAD]);

/** Whether a slot record read from Kafka ends its slot: one with `end`, or a PROCESSED/SKIPPED record
 * written before slot framing (then its slot was one Kafka transaction, so it was complete). */
export function endsSlot(e: SlotEvent): boolean {
  return e.end !== undefined || e.status === SlotStatus.SLOT_STATUS_PROCESSED || e.status === SlotStatus.SLOT_STATUS_SKIPPED;
}

interface OpenSlot {
  slot: bigint;
  /** `kind:partition` -> records of the slot sent there so far. */
  counts: Map<string, PartitionCount>;
  marker: SlotEvent | undefined;
}

export class SlotFramer {
  private open: OpenSlot | undefined;
  /** The open slot's SubscribeParsed updates (parsed-slot.ts): built only when `partitions` has the parsed topic. */
  private readonly parsed: ParsedSlot | undefined;

  constructor(
    private readonly partitions: ReadonlyMap<RecordKind, number>,
    private readonly topics: TopicNames,
  ) {
    this.parsed = partitions.has('parsed') ? new ParsedSlot(countUndecoded) : undefined;
  }

  /** The slot whose batches have started and not yet ended, if any. */
  get openSlot(): bigint | undefined {
    return this.open?.slot;
  }

  /** The records of one batch, in publish order; the last batch of a slot ends with its marker. */
  frame(batch: SlotBatch): FramedRecord[] {
    if (this.open && this.open.slot !== batch.slot) {
      throw new SlotFramingError(
        `source yielded slot ${batch.slot} while slot ${this.open.slot} had not ended (its last batch was marked partial)`,
      );
    }
    const open = (this.open ??= { slot: batch.slot, counts: new Map(), marker: undefined });
    const out: FramedRecord[] = [];
    for (const e of batch.events) {
      if (
        e.kind === 'slots' &&
        open.marker === undefined &&
        e.event.slot === batch.slot &&
        ENDING.has(e.event.status) &&
        e.event.gap === undefined
      ) {
        open.marker = e.event;
        continue;
      }
      const r = this.record(e, batch.slot);
      out.push(r);
      const own = ownSlotOf(e) === batch.slot;
      if (r.dead === undefined && own) this.count(open, r);
      if (own) this.parsed?.add(e);
    }
    if (batch.partial) return out;
    this.open = undefined;
    // The slot is whole: its parsed updates go out before its end marker, which counts them.
    if (this.parsed) {
      for (const p of this.parsed.take()) {
        const r = this.record({ kind: 'parsed', event: p }, batch.slot);
        out.push(r);
        if (r.dead === undefined) this.count(open, r);
      }
    }
    if (open.marker) {
      const counts = [...open.counts.values()].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.partition - b.partition));
      const upstream = batch.upstream === undefined ? {} : { upstream: batch.upstream };
      const marker = this.record({ kind: 'slots', event: { ...open.marker, end: { counts }, ...upstream } }, batch.slot);
      marker.ends = batch.slot;
      out.push(marker);
    }
    return out;
  }

  private record(e: RecordEvent, batchSlot: bigint): FramedRecord {
    const kind = e.kind;
    const { key, value } = encodeRecord(e);
    const partition = partitionForKey(key, this.partitions.get(kind)!);
    const dead = oversizedRecord(kind, this.topics[kind], batchSlot, key, value);
    // The event itself is not kept: records wait in groups, and a resume decodes the few it checks.
    return dead ? { kind, partition, key, value, batchSlot, dead } : { kind, partition, key, value, batchSlot };
  }

  private count(open: OpenSlot, r: FramedRecord): void {
    const k = kindPartitionKey(r.kind, r.partition);
    const c = open.counts.get(k);
    if (c) c.count++;
    else open.counts.set(k, { kind: r.kind, partition: r.partition, count: 1 });
  }
}

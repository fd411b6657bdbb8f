// A slice is what the runner takes from one fetched batch of one topic partition: the decoded and
// projected rows, the records that could not be projected (dead letters), and the offset range.
// Pure: the runner only moves slices between Kafka and ClickHouse.
import { decodeRecord, type RecordEvent } from '../schemas/codec.js';
import type { TopicKind } from '../schemas/topics.js';
import { projectInto, slotOf } from './projections/index.js';
import { projectSlotOffsets, type PositionedSlot } from './projections/offsets.js';
import { emptyRows, type Rows, type TransactionRecordRow } from './projections/rows.js';

export interface RawRecord {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
}

export interface DeadLetter {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  reason: string;
}

export interface Slice {
  topic: string;
  partition: number;
  /** Offsets of the first and last record of the slice (they name its insert dedup token). */
  firstOffset: bigint;
  lastOffset: bigint;
  /** Offset to commit once the slice is stored: past its last record and any trailing control record. */
  nextOffset: bigint;
  /** Records in the slice (projected or dead-lettered). */
  events: number;
  rows: Rows;
  deadLetters: DeadLetter[];
}

/**
 * Decodes and projects the records of one partition batch. `batchLastOffset` is the last offset the
 * fetch covered (it may be a transaction marker after the last record).
 */
export function projectSlice(
  kind: TopicKind,
  topic: string,
  partition: number,
  records: readonly RawRecord[],
  batchLastOffset: string,
): Slice {
  const rows = emptyRows();
  const deadLetters: DeadLetter[] = [];
  const positioned: PositionedSlot[] = [];
  for (const r of records) {
    const decoded = decodeRecord(kind, r.value);
    // The raw value goes along: the transaction bodies view stores it as it is (no re-encoding).
    const reason = decoded.ok ? projectInto(rows, decoded.value, r.value ?? undefined) : decoded.reason;
    if (reason !== undefined) {
      deadLetters.push({ topic, partition, offset: r.offset, key: r.key, value: r.value, reason });
      continue;
    }
    positioned.push({ offset: BigInt(r.offset), slot: slotOf((decoded as { value: RecordEvent }).value) });
  }
  rows.slot_offsets = projectSlotOffsets(topic, partition, positioned);
  packRecords(rows.transaction_records);
  const first = records.length > 0 ? BigInt(records[0]!.offset) : BigInt(batchLastOffset);
  const last = records.length > 0 ? BigInt(records[records.length - 1]!.offset) : BigInt(batchLastOffset);
  const end = BigInt(batchLastOffset) > last ? BigInt(batchLastOffset) : last;
  return { topic, partition, firstOffset: first, lastOffset: last, nextOffset: end + 1n, events: records.length, rows, deadLetters };
}

/**
 * Moves the records' bytes into one buffer for the slice. Each Kafka record value has a memory block of its
 * own (the client copies every message out of librdkafka), and the rows hold them until their batch is
 * stored: tens of thousands of live blocks, each one more for every garbage collection to track. One block
 * per slice, and the record values are garbage as soon as the slice is projected, as before the records
 * were stored.
 */
function packRecords(rows: TransactionRecordRow[]): void {
  let size = 0;
  for (let i = 0; i < rows.length; i++) size += rows[i]!.record.length;
  if (size === 0) return;
  const block = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const end = at + r.record.copy(block, at);
    r.record = block.subarray(at, end);
    at = end;
  }
}

/** A slice with no records that only moves the committed offset (past transaction markers). */
export function markerSlice(topic: string, partition: number, lastOffset: string): Slice {
  const last = BigInt(lastOffset);
  return { topic, partition, firstOffset: last, lastOffset: last, nextOffset: last + 1n, events: 0, rows: emptyRows(), deadLetters: [] };
}

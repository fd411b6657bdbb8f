// Slot to Kafka offsets: for each slot a partition slice holds, its first and last offset there.
// A slot's records may span slices (and projector batches); readers take min(first_offset).
import type { SlotOffsetRow } from './rows.js';

export interface PositionedSlot {
  offset: bigint;
  slot: bigint;
}

/** Rows for one topic partition; `records` in offset order. */
export function projectSlotOffsets(topic: string, partition: number, records: readonly PositionedSlot[]): SlotOffsetRow[] {
  const bySlot = new Map<bigint, { first: bigint; last: bigint }>();
  for (const r of records) {
    const seen = bySlot.get(r.slot);
    if (seen === undefined) bySlot.set(r.slot, { first: r.offset, last: r.offset });
    else {
      if (r.offset < seen.first) seen.first = r.offset;
      if (r.offset > seen.last) seen.last = r.offset;
    }
  }
  const rows: SlotOffsetRow[] = [];
  for (const [slot, { first, last }] of bySlot) {
    rows.push({ topic, partition, slot: slot.toString(), first_offset: first.toString(), last_offset: last.toString() });
  }
  return rows;
}

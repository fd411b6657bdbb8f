// A slot handed over as it happens: a validator streams a block's transactions while it builds it,
// so the simulator, pacing on the wall clock, hands a slot over in pieces spread over the slot's
// duration rather than all at its start. Pure: the pieces concatenate to the slot's batch, in order,
// and every piece but the last is `partial` (the last carries the slot's end, ingest/publish/framer.ts).
import type { SlotBatch } from '../../source.js';

/** Wall-clock gap between two pieces of a slot: about what a geyser stream shows between entries. */
export const PIECE_MS = 5;

/** The batch cut into `pieces` pieces of near-equal size (fewer when it has fewer events). */
export function spreadSlot(batch: SlotBatch, pieces: number): SlotBatch[] {
  const n = Math.max(1, Math.min(Math.floor(pieces), batch.events.length));
  if (n === 1) return [batch];
  const out: SlotBatch[] = [];
  for (let i = 0; i < n; i++) {
    const from = Math.floor((i * batch.events.length) / n);
    const to = Math.floor(((i + 1) * batch.events.length) / n);
    out.push(
      i < n - 1
        ? { slot: batch.slot, events: batch.events.slice(from, to), partial: true }
        : { slot: batch.slot, events: batch.events.slice(from, to) },
    );
  }
  return out;
}

/** How many pieces a slot of `slotMs` wall-clock milliseconds is handed over in. */
export const piecesFor = (slotMs: number): number => Math.max(1, Math.floor(slotMs / PIECE_MS));

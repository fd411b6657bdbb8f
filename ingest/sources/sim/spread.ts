// A slot handed over as it happens: a validator streams a block's transactions while it builds it,
// so the simulator, pacing on the wall clock, hands a slot over in pieces spread over the slot's
// duration rather than all at its start. Pure: the pieces concatenate to the slot's batch, in order,
// and every piece but the last is `partial` (the last carries the slot's end, ingest/publish/framer.ts).
import type { SlotBatch } from '../../source.js';

/** Wall-clock gap between two pieces of a slot: 20 pieces a 400 ms slot. At 5 ms (80 a slot: about one transaction
 * a piece at `npm start`'s 200 tps) the pipeline's cost was per piece, not per event (a Kafka produce request, the
 * broker's handling and each live reader's fetch per piece): `npm start` used 0.88 cores against 0.73 for the same
 * chain (bench/README.md "npm start's cost"). A record's timestamp is taken when its piece is handed over, so the gap is not
 * counted in the streams' latency either way. */
export const PIECE_MS = 20;

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

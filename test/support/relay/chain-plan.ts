// The relay test's chain (slotstream A's simulator), planned ahead: the simulator is deterministic, so the
// test computes here, unpaced and in memory, where a run may stop. A run that stops after a slot whose
// batch carries statuses of earlier slots (a confirmation, a finalization) leaves B holding them: B
// publishes a status of an older slot with the next batch that goes out, and after A's last slot none
// does. A run ending with a produced slot whose batch names no other slot leaves nothing pending on B.
import { SlotStatus } from '../../../schemas/codec.js';
import type { SlotBatch } from '../../../ingest/source.js';
import type { SimOptions } from '../../../ingest/sources/sim/options.js';
import { collect } from '../sim/checks.js';

/** Whether a run of the chain may end after this batch with nothing left pending on B. */
export function endsCleanly(b: SlotBatch): boolean {
  let own = false;
  for (const e of b.events) {
    if (e.kind !== 'slots') continue;
    if (e.event.slot !== b.slot) return false;
    if (e.event.status === SlotStatus.SLOT_STATUS_PROCESSED) own = true;
  }
  return own;
}

/** The smallest maxSlots >= `atLeast` (slots 0..maxSlots-1) whose last batch ends cleanly. */
export async function cleanEnd(o: Partial<SimOptions>, atLeast: number, within = 200): Promise<number> {
  const batches = await collect({ ...o, slotMs: 0, maxSlots: atLeast + within });
  for (let n = atLeast; n <= batches.length; n++) if (endsCleanly(batches[n - 1]!)) return n;
  throw new Error(`no clean end between slots ${atLeast} and ${atLeast + within} for seed ${String(o.seed)}`);
}

// Epochs: the compact leader schedule as published (identities plus one index per leader run).
import type { EpochEvent } from '../../schemas/codec.js';
import { base58Of, rejected, u64, type Projection } from './result.js';

export function projectEpoch(e: EpochEvent): Projection {
  if (e.slotsPerLeader === 0) return rejected(`epoch ${e.epoch}: slots_per_leader must be positive`);
  const identities: string[] = [];
  for (const id of e.identities) {
    const s = base58Of(id, 32);
    if (s === undefined) return rejected(`epoch ${e.epoch}: identity must be 32 bytes, got ${id.length}`);
    identities.push(s);
  }
  const bad = e.schedule.findIndex((i) => i >= identities.length);
  if (bad >= 0) {
    return rejected(`epoch ${e.epoch}: schedule run ${bad} names identity ${e.schedule[bad]} of ${identities.length}`);
  }
  return {
    ok: true,
    rows: {
      epochs: [
        {
          epoch: u64(e.epoch),
          first_slot: u64(e.firstSlot),
          slots_per_epoch: u64(e.slotsPerEpoch),
          slots_per_leader: e.slotsPerLeader,
          identities,
          schedule: e.schedule,
        },
      ],
    },
  };
}

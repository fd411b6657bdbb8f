// getEpochSchedule in Agave's shape, from the epochs view (the schedule is a cluster constant; the epoch
// of the newest processed slot describes it). Epoch records carry epoch, first slot and length, which
// is enough to tell whether the cluster started with warmup epochs (mainnet did not).
import { unavailable } from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import { contextSlot, defineMethod } from '../method.js';
import { parseNoParams } from '../../solana-json/params.js';
import { epochRowAt, type EpochRow } from './getLeaderSchedule.js';

/** Agave's smallest epoch, the length warmup starts from (MINIMUM_SLOTS_PER_EPOCH). */
const MINIMUM_SLOTS_PER_EPOCH = 32n;

export interface EpochSchedule {
  slotsPerEpoch: bigint;
  leaderScheduleSlotOffset: bigint;
  warmup: boolean;
  firstNormalEpoch: bigint;
  firstNormalSlot: bigint;
}

/**
 * Pure: the schedule one epoch implies. Without warmup every epoch has slots_per_epoch slots from 0, so
 * epoch E starts at E x slots_per_epoch. With warmup, Agave doubles epochs from 32 slots up to the normal
 * length: the first normal epoch is log2(next power of two of the length) - log2(32), starting at
 * 32 x (2^that - 1). The leader schedule offset is not recorded in epochs; Agave's default is one epoch.
 */
export function epochScheduleOf(e: Pick<EpochRow, 'epoch' | 'firstSlot' | 'slotsPerEpoch'>): EpochSchedule {
  const spe = e.slotsPerEpoch;
  const warmup = e.firstSlot !== e.epoch * spe;
  let firstNormalEpoch = 0n;
  let firstNormalSlot = 0n;
  if (warmup) {
    let pow = MINIMUM_SLOTS_PER_EPOCH;
    while (pow < spe) {
      pow *= 2n;
      firstNormalEpoch++;
    }
    firstNormalSlot = MINIMUM_SLOTS_PER_EPOCH * ((1n << firstNormalEpoch) - 1n);
  }
  return { slotsPerEpoch: spe, leaderScheduleSlotOffset: spe, warmup, firstNormalEpoch, firstNormalSlot };
}

export const epochScheduleJson = (s: EpochSchedule): Record<string, unknown> => ({
  slotsPerEpoch: u64Json(s.slotsPerEpoch),
  leaderScheduleSlotOffset: u64Json(s.leaderScheduleSlotOffset),
  warmup: s.warmup,
  firstNormalEpoch: u64Json(s.firstNormalEpoch),
  firstNormalSlot: u64Json(s.firstNormalSlot),
});

const UNAVAILABLE = 'Epoch schedule not available';

export const getEpochSchedule = defineMethod<null>({
  name: 'getEpochSchedule',
  unavailableMessage: UNAVAILABLE,
  parse: parseNoParams('getEpochSchedule'),
  run: async (ctx) => {
    const head = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, 'processed');
    const epoch = await epochRowAt(ctx.ch, ctx.db, head);
    if (epoch === undefined) throw unavailable(UNAVAILABLE);
    return epochScheduleJson(epochScheduleOf(epoch));
  },
});

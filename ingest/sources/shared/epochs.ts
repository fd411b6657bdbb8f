// Epochs and leaders from a node's getEpochSchedule and getLeaderSchedule, as the event model's EpochEvent
// (the simulator's shape: identities once, one index per run of 4 slots) and a slot -> leader lookup.
// Pure. Epoch arithmetic follows Agave's EpochSchedule, warm-up epochs included (epoch n of the warm-up
// has 2^(n+5) slots, from (2^n - 1) * 32).
import bs58 from 'bs58';
import type { EpochEvent } from '../../../schemas/codec.js';

/** Agave's getEpochSchedule answer. */
export interface RpcEpochSchedule {
  slotsPerEpoch: number;
  leaderScheduleSlotOffset: number;
  warmup: boolean;
  firstNormalEpoch: number;
  firstNormalSlot: number;
}

const MINIMUM_SLOTS_PER_EPOCH = 32n;
export const SLOTS_PER_LEADER = 4;

export class EpochMath {
  private readonly spe: bigint;
  private readonly firstNormalEpoch: bigint;
  private readonly firstNormalSlot: bigint;
  constructor(s: RpcEpochSchedule) {
    this.spe = BigInt(s.slotsPerEpoch);
    this.firstNormalEpoch = s.warmup ? BigInt(s.firstNormalEpoch) : 0n;
    this.firstNormalSlot = s.warmup ? BigInt(s.firstNormalSlot) : 0n;
  }

  epochOf(slot: bigint): bigint {
    if (slot >= this.firstNormalSlot) return this.firstNormalEpoch + (slot - this.firstNormalSlot) / this.spe;
    // Warm-up: the epoch whose range [(2^e - 1) * 32, (2^(e+1) - 1) * 32) holds the slot.
    let e = 0n;
    while (this.firstSlot(e + 1n) <= slot) e++;
    return e;
  }

  firstSlot(epoch: bigint): bigint {
    if (epoch <= this.firstNormalEpoch && this.firstNormalEpoch > 0n) return ((1n << epoch) - 1n) * MINIMUM_SLOTS_PER_EPOCH;
    return (epoch - this.firstNormalEpoch) * this.spe + this.firstNormalSlot;
  }

  slotsIn(epoch: bigint): bigint {
    return epoch < this.firstNormalEpoch ? MINIMUM_SLOTS_PER_EPOCH << epoch : this.spe;
  }
}

/** An epoch's leaders: the record to publish and the leader of each slot. */
export interface EpochLeaders {
  event: EpochEvent;
  /** Leader identity of a slot of this epoch; empty when the schedule names none. */
  leaderOf(slot: bigint): Buffer;
}

/** getLeaderSchedule's answer ({identity: [slot indices relative to the epoch's first slot]}) to the epoch
 * record. Identities are ordered by first slot led, so the record does not depend on the JSON's key order. */
export function epochLeaders(epoch: bigint, firstSlot: bigint, slotsInEpoch: bigint, schedule: Record<string, number[]>): EpochLeaders {
  const n = Number(slotsInEpoch);
  const bySlot = new Array<string | undefined>(n).fill(undefined);
  for (const [identity, indices] of Object.entries(schedule)) for (const i of indices) if (i >= 0 && i < n) bySlot[i] = identity;
  const identities: Buffer[] = [];
  const indexOf = new Map<string, number>();
  const slotIdentity = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const id = bySlot[i];
    if (id === undefined) continue;
    let k = indexOf.get(id);
    if (k === undefined) {
      k = identities.length;
      indexOf.set(id, k);
      identities.push(Buffer.from(bs58.decode(id)));
    }
    slotIdentity[i] = k;
  }
  const runs = Math.ceil(n / SLOTS_PER_LEADER);
  const compact: number[] = [];
  for (let r = 0; r < runs; r++) compact.push(Math.max(0, slotIdentity[r * SLOTS_PER_LEADER]!));
  return {
    event: { epoch, firstSlot, slotsPerEpoch: slotsInEpoch, slotsPerLeader: SLOTS_PER_LEADER, identities, schedule: compact },
    leaderOf(slot: bigint): Buffer {
      const k = slotIdentity[Number(slot - firstSlot)];
      return k === undefined || k < 0 ? Buffer.alloc(0) : identities[k]!;
    },
  };
}

// What Yellowstone's messages lack about leaders, from the upstream's JSON-RPC (--rpc-url): the epoch
// schedule once, then each epoch's leader schedule when its first batch goes out. Each epoch's record is
// published in the first batch of that epoch this process sends, unless a restart resumes within an epoch
// whose record Kafka holds already (as the simulator does), and every block's leader is filled from it.
// Without --rpc-url blocks go out with an empty leader and no epoch records (said once at start).
import type { Logger } from '../../../platform/log.js';
import type { EpochEvent } from '../../../schemas/codec.js';
import { isStop } from '../../../platform/stop.js';
import type { RpcClient } from '../shared/rpc-client.js';
import { EpochMath, epochLeaders, type EpochLeaders, type RpcEpochSchedule } from '../shared/epochs.js';

export interface SlotLeader {
  /** The epoch record to publish before this slot's records (first batch of an epoch). */
  epoch?: EpochEvent;
  leader: Buffer;
}

export class LeaderSchedules {
  private math: EpochMath | undefined;
  private readonly epochs = new Map<bigint, EpochLeaders | null>();
  private published: bigint | undefined;
  private resumedAfter: bigint | undefined;

  constructor(
    private readonly rpc: RpcClient | undefined,
    private readonly log: Logger,
  ) {}

  /** Resuming after `slot`, the newest slot Kafka holds whole: its epoch's record went out with the first
   * batch of that epoch and is in Kafka, so a restart within the epoch does not publish it again. */
  resumeAfter(slot: bigint): void {
    this.resumedAfter = slot;
  }

  /** Never throws for a node's error (the block goes out without leader, with a warning): a batch in hand
   * must not be lost to a lookup. Throws only when stopped. */
  async forSlot(slot: bigint): Promise<SlotLeader> {
    if (!this.rpc) return { leader: Buffer.alloc(0) };
    let leaders: EpochLeaders | null;
    let epoch: bigint;
    try {
      this.math ??= new EpochMath(await this.rpc.call<RpcEpochSchedule>('getEpochSchedule'));
      if (this.resumedAfter !== undefined) {
        this.published ??= this.math.epochOf(this.resumedAfter);
        this.resumedAfter = undefined;
      }
      epoch = this.math.epochOf(slot);
      leaders = await this.load(epoch);
    } catch (err) {
      if (isStop(err)) throw err;
      this.log.warn(
        { slot: String(slot), err: (err as Error).message },
        `yellowstone source: no leader for slot ${slot}: ${(err as Error).message}`,
      );
      return { leader: Buffer.alloc(0) };
    }
    if (leaders === null) return { leader: Buffer.alloc(0) };
    const fresh = this.published !== epoch;
    if (fresh) this.published = epoch;
    return { ...(fresh ? { epoch: leaders.event } : {}), leader: leaders.leaderOf(slot) };
  }

  private async load(epoch: bigint): Promise<EpochLeaders | null> {
    const known = this.epochs.get(epoch);
    if (known !== undefined) return known;
    const first = this.math!.firstSlot(epoch);
    const schedule = await this.rpc!.call<Record<string, number[]> | null>('getLeaderSchedule', [Number(first)]);
    const l = schedule === null ? null : epochLeaders(epoch, first, this.math!.slotsIn(epoch), schedule);
    if (l === null)
      this.log.warn(
        { epoch: String(epoch) },
        `yellowstone source: the RPC node has no leader schedule for epoch ${epoch}: blocks go out without leader`,
      );
    this.epochs.set(epoch, l);
    for (const k of this.epochs.keys()) if (k < epoch - 2n) this.epochs.delete(k);
    return l;
  }
}

// Block and transaction rewards. Yellowstone writes commission as text ("" when the reward has none).
import { RewardType, type Reward } from '../gen/events.js';
import { fromB58, toB58, u64, u64Str } from './bytes.js';
import type { Reward as YsReward } from './storage.js';

const optU32 = (s: string): number | undefined => (s === '' ? undefined : Number(s));

export function rewardFromYellowstone(r: YsReward): Reward {
  return {
    pubkey: fromB58(r.pubkey),
    lamports: BigInt(r.lamports || '0'),
    postBalance: u64(r.postBalance),
    // Both enums use Agave's numbering (Fee = 1 ... DeactivatedStake = 5).
    rewardType: r.rewardType < 0 ? RewardType.REWARD_TYPE_UNSPECIFIED : (r.rewardType as number),
    commission: optU32(r.commission),
    commissionBps: optU32(r.commissionBps),
  };
}

export function rewardToYellowstone(r: Reward): YsReward {
  return {
    pubkey: toB58(r.pubkey),
    lamports: r.lamports.toString(),
    postBalance: u64Str(r.postBalance),
    rewardType: r.rewardType as number,
    commission: r.commission === undefined ? '' : String(r.commission),
    commissionBps: r.commissionBps === undefined ? '' : String(r.commissionBps),
  };
}

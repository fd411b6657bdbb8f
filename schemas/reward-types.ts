// Agave's reward type names (getBlock's `rewardType`, the file format's) and the event model's
// RewardType, in one table for every source that reads Agave's shapes. null is an unspecified type.
import { RewardType } from './gen/events.js';

export const AGAVE_REWARD_TYPES: Readonly<Record<string, RewardType>> = {
  Fee: RewardType.REWARD_TYPE_FEE,
  Rent: RewardType.REWARD_TYPE_RENT,
  Staking: RewardType.REWARD_TYPE_STAKING,
  Voting: RewardType.REWARD_TYPE_VOTING,
  DeactivatedStake: RewardType.REWARD_TYPE_DEACTIVATED_STAKE,
};

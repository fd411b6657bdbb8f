// getInflationReward [addresses, config?]: each address's inflation reward for an epoch, from block rewards,
// as Agave's get_inflation_reward finds them: the epoch's rewards are paid in the first block of the next
// epoch (voting rewards always; staking rewards too unless that block reports reward partitions, in which
// case each stake account's reward is in one of the following num_partitions blocks). Config: commitment
// (confirmed or finalized: Agave reads blocks), epoch (default: the context slot's epoch - 1),
// minContextSlot. Errors are Agave's: the boundary older than the oldest block held -32001, no block at or
// after the epoch's first slot -32004, a boundary block whose parent is in the same epoch (a gap in the
// history) -32018, partitions not all paid yet -32017.
//
// Partitioned rewards: Agave hashes each address to its partition (EpochRewardsHasher, SipHash of the
// boundary's previous blockhash) and reads that one block; slotstream reads the num_partitions blocks after
// the boundary and takes the address's staking reward wherever it is (each stake account is paid once, so the
// answer is the same). While fewer than num_partitions blocks follow, an address not found yet answers -32017.
import { BlockMeta, RewardType, type Reward } from '../../../schemas/codec.js';
import { base58 } from '../../../schemas/base58.js';
import { describeValue } from '../../../platform/describe-value.js';
import {
  blockCleanedUp,
  blockNotAvailable,
  epochRewardsPeriodActive,
  invalidParams,
  slotNotEpochBoundary,
  unavailable,
} from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import { contextSlot, defineMethod, type MethodContext } from '../method.js';
import { optionalU64, parseConfig, parseContextConfig, parsePubkey, positional, type ContextConfig } from '../../solana-json/params.js';
import { queryRows, u64 } from '../../views/query.js';
import { epochRowAt } from './getLeaderSchedule.js';

export interface GetInflationRewardParams extends ContextConfig {
  addresses: string[];
  epoch: bigint | undefined;
}

export function parseGetInflationReward(params: unknown): GetInflationRewardParams {
  const p = positional(params, 1, 2);
  if (!Array.isArray(p[0])) throw invalidParams(`addresses: expected an array of base-58 public keys, got ${describeValue(p[0])}`);
  const addresses = p[0].map((a, i) => parsePubkey(a, `addresses[${i}]`));
  const cfg = parseConfig(p[1], 'config');
  return { addresses, epoch: optionalU64(cfg, 'epoch'), ...parseContextConfig(cfg, true) };
}

interface BlockRewards {
  slot: bigint;
  parentSlot: bigint;
  blockHeight: bigint;
  rewards: Reward[];
  numPartitions: bigint | undefined;
}

// Produced blocks from `from` up to the head, oldest first, with their rewards (LEFT JOIN: no details row
// means the block's rewards were never stored, and the block cannot answer).
const BLOCKS_SQL = `
SELECT toString(b.slot) AS slot, toString(b.parent_slot) AS parent_slot, toString(b.block_height) AS block_height,
       d.rewards AS rewards, d.num_partitions AS num_partitions, d.slot = b.slot AS has_details
FROM (SELECT slot, parent_slot, block_height FROM {db:Identifier}.blocks
      WHERE slot >= {from:UInt64} AND slot <= {head:UInt64}
        AND slot NOT IN (SELECT slot FROM {db:Identifier}.slot_status WHERE status = 3 AND slot >= {from:UInt64} AND slot <= {head:UInt64})
      ORDER BY slot LIMIT 1 BY slot LIMIT {n:UInt64}) AS b
LEFT JOIN (SELECT slot, rewards, num_partitions FROM {db:Identifier}.block_details
           WHERE slot >= {from:UInt64} AND slot <= {head:UInt64} LIMIT 1 BY slot) AS d ON d.slot = b.slot
ORDER BY b.slot`;

async function blocksFrom(ctx: MethodContext, from: bigint, head: bigint, n: bigint): Promise<BlockRewards[]> {
  const rows = await queryRows<{
    slot: string;
    parent_slot: string;
    block_height: string;
    rewards: string;
    num_partitions: string | null;
    has_details: number | boolean;
  }>(ctx.ch, BLOCKS_SQL, { db: ctx.db, from, head, n });
  return rows.map((r) => {
    const slot = u64(r.slot);
    if (!r.has_details) throw blockNotAvailable(slot);
    return {
      slot,
      parentSlot: u64(r.parent_slot),
      blockHeight: u64(r.block_height),
      rewards: r.rewards ? BlockMeta.decode(Buffer.from(r.rewards, 'base64')).rewards : [],
      numPartitions: r.num_partitions === null ? undefined : u64(r.num_partitions),
    };
  });
}

/** Agave's RpcInflationReward. */
const inflationReward = (epoch: bigint, slot: bigint, r: Reward): unknown => ({
  epoch: u64Json(epoch),
  effectiveSlot: u64Json(slot),
  amount: u64Json(r.lamports < 0n ? -r.lamports : r.lamports),
  postBalance: u64Json(r.postBalance),
  commission: r.commission ?? null,
});

const UNAVAILABLE = 'Block information unavailable';

export const getInflationReward = defineMethod<GetInflationRewardParams>({
  name: 'getInflationReward',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetInflationReward,
  run: async (ctx, p) => {
    const head = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const current = await epochRowAt(ctx.ch, ctx.db, head);
    const oldest = ctx.state.oldestBlock;
    if (current === undefined || oldest === undefined) throw unavailable(UNAVAILABLE);
    const epoch = p.epoch ?? (current.epoch > 0n ? current.epoch - 1n : 0n);
    // Epochs after warmup all have the current one's length (Agave's EpochSchedule::get_first_slot_in_epoch).
    const firstSlot = current.firstSlot + (epoch + 1n - current.epoch) * current.slotsPerEpoch;
    if (firstSlot < oldest) throw blockCleanedUp(firstSlot, oldest);
    const [boundary] = await blocksFrom(ctx, firstSlot, head, 1n);
    if (boundary === undefined) throw blockNotAvailable(firstSlot);
    if (boundary.parentSlot >= firstSlot) throw slotNotEpochBoundary(boundary.slot);

    const partitioned = boundary.numPartitions !== undefined;
    const found = new Map<string, { slot: bigint; reward: Reward }>();
    const wanted = new Set(p.addresses);
    const take = (b: BlockRewards, type: (t: RewardType) => boolean) => {
      for (const r of b.rewards) {
        const key = base58(r.pubkey);
        if (wanted.has(key) && !found.has(key) && type(r.rewardType)) found.set(key, { slot: b.slot, reward: r });
      }
    };
    take(boundary, (t) => t === RewardType.REWARD_TYPE_VOTING || (!partitioned && t === RewardType.REWARD_TYPE_STAKING));
    if (partitioned && found.size < wanted.size) {
      const partitions = await blocksFrom(ctx, boundary.slot + 1n, head, boundary.numPartitions!);
      for (const b of partitions) take(b, (t) => t === RewardType.REWARD_TYPE_STAKING);
      if (found.size < wanted.size && BigInt(partitions.length) < boundary.numPartitions!) {
        const height = ctx.state.height[p.commitment] ?? boundary.blockHeight;
        throw epochRewardsPeriodActive(head, height, boundary.blockHeight + boundary.numPartitions! + 1n);
      }
    }
    return p.addresses.map((a) => {
      const f = found.get(a);
      return f === undefined ? null : inflationReward(epoch, f.slot, f.reward);
    });
  },
});

// getBlockCommitment [slot]: Agave answers the stake that voted on the block at each lockout depth, from its
// vote-tracking cache, and null for any block the cache does not hold (older than the root, or unknown).
// slotstream ingests blocks and their commitment levels, not votes' lockouts or stake: it answers what Agave
// answers for a block outside its cache, `commitment: null`, and `totalStake: 0` (the stake is unknown
// here, not zero: api/jsonrpc/README.md). Use getSignatureStatuses or getBlock for a block's commitment level.
import { defineMethod } from '../method.js';
import { parseU64, positional } from '../../solana-json/params.js';

export interface GetBlockCommitmentParams {
  slot: bigint;
}

export function parseGetBlockCommitment(params: unknown): GetBlockCommitmentParams {
  const [slot] = positional(params, 1, 1);
  return { slot: parseU64(slot, 'slot') };
}

export const getBlockCommitment = defineMethod<GetBlockCommitmentParams>({
  name: 'getBlockCommitment',
  unavailableMessage: 'Block information unavailable',
  answersWhileBehind: true,
  parse: parseGetBlockCommitment,
  run: async () => ({ commitment: null, totalStake: 0 }),
});

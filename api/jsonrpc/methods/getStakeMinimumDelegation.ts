// getStakeMinimumDelegation [config?]: Agave's solana_stake_program::get_minimum_delegation: 1 SOL once the
// feature stake_raise_minimum_delegation_to_1_sol is active, else 1 lamport. slotstream runs no feature set;
// it reads the feature's account as the source wrote it (a Feature account: bincode Option<u64>, activated
// at that slot when Some) at the commitment's head, so it follows the chain it serves; an account it never
// saw counts as inactive, as on a chain where nobody has proposed the feature.
import { readAccounts } from '../account-state.js';
import { contextSlot, defineMethod, withContext } from '../method.js';
import { parseConfig, parseContextConfig, positional, type ContextConfig } from '../../solana-json/params.js';

export const STAKE_RAISE_MINIMUM_DELEGATION_TO_1_SOL = '9onWzzvCzNC2jfhxxeqRgs5q7nFAAKpCUvkj6T6GJK9i';
export const FEATURE_PROGRAM = 'Feature111111111111111111111111111111111111';
const LAMPORTS_PER_SOL = 1_000_000_000;

export function parseGetStakeMinimumDelegation(params: unknown): ContextConfig {
  const [config] = positional(params, 0, 1);
  return parseContextConfig(parseConfig(config, 'config'));
}

/** Pure: whether a Feature account's data says it is active at `slot`. */
export function featureActive(owner: string, data: Buffer, slot: bigint): boolean {
  return owner === FEATURE_PROGRAM && data.length >= 9 && data[0] === 1 && data.readBigUInt64LE(1) <= slot;
}

const UNAVAILABLE = 'Slot information unavailable';

export const getStakeMinimumDelegation = defineMethod<ContextConfig>({
  name: 'getStakeMinimumDelegation',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetStakeMinimumDelegation,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment, p.minContextSlot);
    const feature = (await readAccounts(ctx.ch, ctx.db, [STAKE_RAISE_MINIMUM_DELEGATION_TO_1_SOL], slot)).get(
      STAKE_RAISE_MINIMUM_DELEGATION_TO_1_SOL,
    );
    const active = feature !== undefined && featureActive(feature.owner, Buffer.from(feature.data, 'base64'), slot);
    return withContext(slot, ctx.apiVersion, active ? LAMPORTS_PER_SOL : 1);
  },
});

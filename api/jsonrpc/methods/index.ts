// Every method, by name: the seven of interface.md, the read-side methods of issue 13, the provider
// methods of issue 21, and the write methods a read-only service refuses.
import type { AnyMethod } from '../method.js';
import { getAccountInfo } from './getAccountInfo.js';
import { getBalance } from './getBalance.js';
import { getBlock } from './getBlock.js';
import { getBlockHeight } from './getBlockHeight.js';
import { getBlocks } from './getBlocks.js';
import { getBlocksWithLimit } from './getBlocksWithLimit.js';
import { getBlockTime } from './getBlockTime.js';
import { getEpochInfo } from './getEpochInfo.js';
import { getEpochSchedule } from './getEpochSchedule.js';
import { getFirstAvailableBlock } from './getFirstAvailableBlock.js';
import { getHealth } from './getHealth.js';
import { getLatestBlockhash } from './getLatestBlockhash.js';
import { getLeaderSchedule } from './getLeaderSchedule.js';
import { getMultipleAccounts } from './getMultipleAccounts.js';
import { getProgramAccounts } from './getProgramAccounts.js';
import { getProgramAccountsV2 } from './getProgramAccountsV2.js';
import { getRecentPerformanceSamples } from './getRecentPerformanceSamples.js';
import { getSignaturesForAddress } from './getSignaturesForAddress.js';
import { getSignatureStatuses } from './getSignatureStatuses.js';
import { getSlot } from './getSlot.js';
import { getTokenAccountBalance } from './getTokenAccountBalance.js';
import { getTokenAccountsByOwner } from './getTokenAccountsByOwner.js';
import { getTokenAccountsByOwnerV2 } from './getTokenAccountsByOwnerV2.js';
import { getTransaction } from './getTransaction.js';
import { getTransactionsForAddress } from './getTransactionsForAddress.js';
import { getVersion } from './getVersion.js';
import { isBlockhashValid } from './isBlockhashValid.js';
import { minimumLedgerSlot } from './minimumLedgerSlot.js';
import { READ_ONLY_REFUSALS } from './readOnly.js';
import { getBlockCommitment } from './getBlockCommitment.js';
import { getBlockProduction } from './getBlockProduction.js';
import { getFeeForMessage } from './getFeeForMessage.js';
import { getGenesisHash } from './getGenesisHash.js';
import { getHighestSnapshotSlot } from './getHighestSnapshotSlot.js';
import { getIdentity } from './getIdentity.js';
import { getInflationReward } from './getInflationReward.js';
import { getMaxRetransmitSlot, getMaxShredInsertSlot } from './getMaxShredInsertSlot.js';
import { getMinimumBalanceForRentExemption } from './getMinimumBalanceForRentExemption.js';
import { getRecentPrioritizationFees } from './getRecentPrioritizationFees.js';
import { getSlotLeader } from './getSlotLeader.js';
import { getSlotLeaders } from './getSlotLeaders.js';
import { getStakeMinimumDelegation } from './getStakeMinimumDelegation.js';
import { getTokenAccountsByDelegate } from './getTokenAccountsByDelegate.js';
import { getTokenLargestAccounts } from './getTokenLargestAccounts.js';
import { getTokenSupply } from './getTokenSupply.js';
import { getTransactionCount } from './getTransactionCount.js';
import { NOT_SERVED_METHODS } from './notServed.js';

export const METHODS: ReadonlyMap<string, AnyMethod> = new Map(
  [
    getProgramAccounts,
    getSignaturesForAddress,
    getBlocksWithLimit,
    getBlocks,
    getRecentPerformanceSamples,
    getBlockHeight,
    getLeaderSchedule,
    getSlot,
    getAccountInfo,
    getMultipleAccounts,
    getBalance,
    getSignatureStatuses,
    getBlockTime,
    getLatestBlockhash,
    isBlockhashValid,
    getHealth,
    getVersion,
    getFirstAvailableBlock,
    minimumLedgerSlot,
    getTokenAccountsByOwner,
    getTokenAccountBalance,
    getEpochSchedule,
    getEpochInfo,
    getTransaction,
    getBlock,
    getTransactionsForAddress,
    // The provider methods of issue 21 (spec/provider-methods.md).
    getProgramAccountsV2,
    getTokenAccountsByOwnerV2,
    ...READ_ONLY_REFUSALS,
    // Issue 21, item 5: the rest of Agave's read methods, and -32601 for the ones slotstream cannot answer.
    getTokenSupply,
    getTokenLargestAccounts,
    getTokenAccountsByDelegate,
    getTransactionCount,
    getSlotLeader,
    getSlotLeaders,
    getBlockProduction,
    getBlockCommitment,
    getRecentPrioritizationFees,
    getFeeForMessage,
    getMinimumBalanceForRentExemption,
    getInflationReward,
    getGenesisHash,
    getIdentity,
    getMaxShredInsertSlot,
    getMaxRetransmitSlot,
    getHighestSnapshotSlot,
    getStakeMinimumDelegation,
    ...NOT_SERVED_METHODS,
  ].map((m) => [m.name, m]),
);

// Agave's read methods slotstream does not serve, answered at once with -32601 and a message saying why
// (errors.ts notServed), whatever the params and however far behind the views are. Agave's method set is the
// five traits of rpc/src/rpc.rs (rpc_minimal, rpc_bank, rpc_accounts, rpc_accounts_scan, rpc_full); these are
// the ones whose answer lives only in a validator's bank, vote state or gossip. The methods Agave 2.0 removed
// are listed with their replacement, since old clients still call them.
import { notServed } from '../../solana-json/errors.js';
import { refusedMethod, type AnyMethod } from '../method.js';

export const NOT_SERVED: Readonly<Record<string, string>> = {
  getVoteAccounts:
    "vote accounts' activated stake, credits and delinquency come from the validator's stake and vote state, which slotstream does not ingest",
  getInflationGovernor: "the inflation parameters live in the validator's bank (genesis and features), which slotstream does not hold",
  getInflationRate:
    "the inflation rate is computed from the validator's bank (genesis, features, slots per year), which slotstream does not hold",
  getSupply:
    "the total supply is the bank's capitalization and the non-circulating list a validator's own, neither of which slotstream holds (it sees account writes, not every balance since genesis)",
  getLargestAccounts:
    "it needs every account's balance and the validator's non-circulating list; slotstream's views hold only the accounts written while it ingested",
  getClusterNodes: 'the cluster nodes are gossip contact information, and slotstream takes no part in gossip',
  getConfirmedBlock: 'Agave 2.0 removed it; use getBlock',
  getConfirmedBlocks: 'Agave 2.0 removed it; use getBlocks',
  getConfirmedBlocksWithLimit: 'Agave 2.0 removed it; use getBlocksWithLimit',
  getConfirmedSignaturesForAddress2: 'Agave 2.0 removed it; use getSignaturesForAddress',
  getConfirmedTransaction: 'Agave 2.0 removed it; use getTransaction',
  getFeeCalculatorForBlockhash: 'Agave 2.0 removed it; use isBlockhashValid or getFeeForMessage',
  getFeeRateGovernor: 'Agave 2.0 removed it; use getFeeForMessage',
  getFees: 'Agave 2.0 removed it; use getFeeForMessage',
  getRecentBlockhash: 'Agave 2.0 removed it; use getLatestBlockhash',
  getSnapshotSlot: 'Agave 2.0 removed it; use getHighestSnapshotSlot',
  getStakeActivation: 'Agave 2.0 removed it; read the stake account (getAccountInfo) and the StakeHistory sysvar',
};

export const NOT_SERVED_METHODS: readonly AnyMethod[] = Object.entries(NOT_SERVED).map(([name, why]) =>
  refusedMethod(name, () => notServed(name, why)),
);

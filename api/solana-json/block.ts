// Pure: Agave's UiConfirmedBlock (ConfirmedBlock::encode_with_options), the one shape getBlock (from the views)
// and blockSubscribe (from the live layer's assembled blocks) both answer with: members in Agave's order,
// transactions / signatures / rewards only when asked, the maxSupportedTransactionVersion rule per transaction.
import type { Reward, TransactionEvent } from '../../schemas/codec.js';
import { describeValue } from '../../platform/describe-value.js';
import { invalidParams } from './errors.js';
import { u64Json } from './json.js';
import { encodeWithMeta, uiReward, type TransactionEncoding } from './transactions.js';

/** Agave's TransactionDetails. */
export type TransactionDetails = 'full' | 'signatures' | 'accounts' | 'none';
const DETAILS: readonly TransactionDetails[] = ['full', 'signatures', 'accounts', 'none'];

/** `transactionDetails` of a config: default full (Agave's TransactionDetails::default()). */
export function parseTransactionDetails(v: unknown): TransactionDetails {
  const details = v ?? 'full';
  if (typeof details !== 'string' || !(DETAILS as readonly string[]).includes(details)) {
    throw invalidParams(`transactionDetails: expected one of full, signatures, accounts, none, got ${describeValue(details)}`);
  }
  return details as TransactionDetails;
}

/** Agave's BlockEncodingOptions plus the transaction encoding. */
export interface BlockOptions {
  readonly encoding: TransactionEncoding;
  readonly transactionDetails: TransactionDetails;
  /** Block rewards and each transaction meta's rewards (`rewards` in getBlock, `showRewards` in blockSubscribe). */
  readonly rewards: boolean;
  readonly maxSupportedVersion: number | undefined;
}

/** What a block says about itself, whichever store it comes from. */
export interface BlockHeader {
  readonly slot: bigint;
  readonly parentSlot: bigint;
  readonly blockhash: string;
  readonly previousBlockhash: string;
  /** 0: not recorded (old archived blocks); only genesis really has height 0. */
  readonly blockHeight: bigint;
  readonly blockTime: bigint | null;
  readonly rewards: readonly Reward[];
  readonly numPartitions: bigint | undefined;
}

/**
 * The block's transactions in block order: decoded (full, accounts) or their first signatures (signatures).
 * A function, so a caller reads only what the details need. Throws Agave's -32015 (RpcError) for a versioned
 * transaction the options do not allow.
 */
export function uiConfirmedBlock(
  o: BlockOptions,
  h: BlockHeader,
  transactions: () => readonly TransactionEvent[],
  signatures: () => readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    previousBlockhash: h.previousBlockhash,
    blockhash: h.blockhash,
    parentSlot: u64Json(h.parentSlot),
  };
  if (o.transactionDetails === 'full' || o.transactionDetails === 'accounts') {
    const e = { maxSupportedVersion: o.maxSupportedVersion, showRewards: o.rewards, accountsOnly: o.transactionDetails === 'accounts' };
    out.transactions = transactions().map((t) => encodeWithMeta(t, o.encoding, e));
  } else if (o.transactionDetails === 'signatures') {
    out.signatures = [...signatures()];
  }
  if (o.rewards) out.rewards = h.rewards.map(uiReward);
  if (h.numPartitions !== undefined) out.numRewardPartitions = u64Json(h.numPartitions);
  out.blockTime = h.blockTime === null ? null : u64Json(h.blockTime);
  out.blockHeight = h.blockHeight === 0n && h.slot !== 0n ? null : u64Json(h.blockHeight);
  return out;
}

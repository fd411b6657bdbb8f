// Pure: what Agave's PrioritizationFeeCache records of a block (runtime/src/prioritization_fee.rs): the
// compute-unit price (micro-lamports, the compute-budget program's SetComputeUnitPrice) of each non-vote
// transaction, its minimum over the block, and per account the minimum over the transactions that write-lock
// it; and what get_prioritization_fees answers from that: per slot, the block minimum raised to the highest
// minimum of the accounts asked for.
import { COMPUTE_BUDGET_PROGRAM } from '../../../schemas/programs.js';
import type { TransactionEvent } from '../../../schemas/codec.js';
import { accountKeysOf, parsedAccounts } from '../../solana-json/transactions.js';

export interface BlockFees {
  /** Lowest price of the block's non-vote transactions; undefined when it has none. */
  min: bigint | undefined;
  /** Lowest price per write-locked account. */
  accounts: Map<string, bigint>;
}

/** The price a transaction sets with SetComputeUnitPrice (instruction 3, u64 LE), 0 without one. */
export function computeUnitPrice(e: TransactionEvent, keys: readonly string[]): bigint {
  for (const ix of e.instructions) {
    if (keys[ix.programIdIndex] !== COMPUTE_BUDGET_PROGRAM || ix.data.length < 9 || ix.data[0] !== 3) continue;
    return Buffer.from(ix.data.buffer, ix.data.byteOffset, ix.data.length).readBigUInt64LE(1);
  }
  return 0n;
}

export function blockFees(txs: Iterable<TransactionEvent>): BlockFees {
  const out: BlockFees = { min: undefined, accounts: new Map() };
  for (const e of txs) {
    if (e.isVote) continue;
    const keys = accountKeysOf(e);
    const price = computeUnitPrice(e, keys);
    if (out.min === undefined || price < out.min) out.min = price;
    for (const a of parsedAccounts(e, keys)) {
      if (!a.writable) continue;
      const seen = out.accounts.get(a.pubkey);
      if (seen === undefined || price < seen) out.accounts.set(a.pubkey, price);
    }
  }
  return out;
}

/** Agave's per-slot answer: max(block minimum or 0, each asked account's minimum). */
export function feeFor(b: BlockFees, accounts: readonly string[]): bigint {
  let fee = b.min ?? 0n;
  for (const a of accounts) {
    const f = b.accounts.get(a);
    if (f !== undefined && f > fee) fee = f;
  }
  return fee;
}

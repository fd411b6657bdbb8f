// Pure: what Agave's PrioritizationFeeCache records of a block (runtime/src/prioritization_fee.rs): the
// compute-unit price (micro-lamports, the compute-budget program's SetComputeUnitPrice) of each non-vote
// transaction, its minimum over the block, and per account the minimum over the transactions that write-lock
// it; and what get_prioritization_fees answers from that: per slot, the block minimum raised to the highest
// minimum of the accounts asked for. Records are scanned (schemas/scan.ts), not decoded, and accounts are
// keyed by their raw bytes: a cold call summarises 150 blocks of thousands of transactions.
import bs58 from 'bs58';
import { COMPUTE_BUDGET_PROGRAM } from '../../../schemas/programs.js';
import { readVarint64, scanInstructions, scanTransaction } from '../../../schemas/scan.js';
import { RESERVED_ACCOUNT_KEYS } from '../../solana-json/transactions.js';

export interface BlockFees {
  /** Lowest price of the block's non-vote transactions; undefined when it has none. */
  min: bigint | undefined;
  /** Lowest price per write-locked account, keyed by the account's bytes as a latin1 string (`rawKey`). */
  accounts: Map<string, bigint>;
}

/** The map key of an account: its 32 bytes as a latin1 string (cheap; base58 only for the accounts asked for). */
export const rawKey = (base58: string): string => Buffer.from(bs58.decode(base58)).toString('latin1');
const COMPUTE_BUDGET = rawKey(COMPUTE_BUDGET_PROGRAM);
const UPGRADEABLE_LOADER = rawKey('BPFLoaderUpgradeab1e11111111111111111111111');
const RESERVED: ReadonlySet<string> = new Set([...RESERVED_ACCOUNT_KEYS].map(rawKey));

/**
 * One transaction record's price and write-locked accounts, or undefined for a vote. Write-locked is Agave's
 * is_writable: the header says so, not a reserved key, not a program it calls (unless the upgradeable loader
 * is among its keys), as api/solana-json/transactions.ts parsedAccounts.
 */
export function transactionFee(record: Buffer): { price: bigint; writable: string[] } | undefined {
  const s = scanTransaction(record);
  if (s.isVote) return undefined;
  let nSigned = 0;
  let nReadonlySigned = 0;
  let nReadonlyUnsigned = 0;
  for (let i = 0; i < s.fields.length; i += 3) {
    const f = s.fields[i];
    if (f !== 5 && f !== 6 && f !== 7) continue;
    const v = Number(readVarint64(record, s.fields[i + 1]!, s.fields[i + 2]!));
    if (f === 5) nSigned = v;
    else if (f === 6) nReadonlySigned = v;
    else nReadonlyUnsigned = v;
  }
  const keys = [...s.accountKeys, ...s.loadedWritable, ...s.loadedReadonly].map((k) => k.toString('latin1'));
  const called = new Set<number>();
  let price = 0n;
  let priced = false;
  for (const ix of scanInstructions(s)) {
    called.add(ix.programIdIndex);
    if (!priced && keys[ix.programIdIndex] === COMPUTE_BUDGET && ix.data.length >= 9 && ix.data[0] === 3) {
      price = ix.data.readBigUInt64LE(1);
      priced = true;
    }
  }
  const loaderPresent = keys.includes(UPGRADEABLE_LOADER);
  const nStatic = s.accountKeys.length;
  const writable: string[] = [];
  keys.forEach((k, i) => {
    const byHeader =
      i < nStatic ? (i < nSigned ? i < nSigned - nReadonlySigned : i < nStatic - nReadonlyUnsigned) : i < nStatic + s.loadedWritable.length;
    if (byHeader && !RESERVED.has(k) && !(called.has(i) && !loaderPresent)) writable.push(k);
  });
  return { price, writable };
}

export function blockFees(records: Iterable<Buffer>): BlockFees {
  const out: BlockFees = { min: undefined, accounts: new Map() };
  for (const r of records) {
    const t = transactionFee(r);
    if (t === undefined) continue;
    if (out.min === undefined || t.price < out.min) out.min = t.price;
    for (const k of t.writable) {
      const seen = out.accounts.get(k);
      if (seen === undefined || t.price < seen) out.accounts.set(k, t.price);
    }
  }
  return out;
}

/** Agave's per-slot answer: max(block minimum or 0, each asked account's minimum); `accounts` as rawKey. */
export function feeFor(b: BlockFees, accounts: readonly string[]): bigint {
  let fee = b.min ?? 0n;
  for (const a of accounts) {
    const f = b.accounts.get(a);
    if (f !== undefined && f > fee) fee = f;
  }
  return fee;
}

// Transactions: one row by signature, and one row per distinct address the transaction touches
// (static keys and lookup-loaded addresses) for getSignaturesForAddress scans.
import type { TransactionEvent } from '../../schemas/codec.js';
import { formatMemos } from '../../schemas/memos.js';
import { base58Of, optionalI64, rejected, u64, type Projection } from './result.js';
import type { SignatureByAddressRow, TransactionRow } from './rows.js';

export function projectTransaction(e: TransactionEvent): Projection {
  if (e.signatures.length === 0) return rejected(`transaction at slot ${e.slot} index ${e.index} has no signature`);
  const signature = base58Of(e.signatures[0], 64);
  if (signature === undefined) {
    return rejected(`transaction at slot ${e.slot} index ${e.index}: signature must be 64 bytes, got ${e.signatures[0]!.length}`);
  }
  const addresses = new Set<string>();
  for (const [list, name] of [
    [e.accountKeys, 'account key'],
    [e.loadedWritable, 'loaded writable address'],
    [e.loadedReadonly, 'loaded readonly address'],
  ] as const) {
    for (const key of list) {
      const a = base58Of(key, 32);
      if (a === undefined) return rejected(`transaction ${signature}: ${name} must be 32 bytes, got ${key.length}`);
      addresses.add(a);
    }
  }
  const slot = u64(e.slot);
  const err = e.err ?? null;
  const memo = formatMemos(e.memos);
  const blockTime = optionalI64(e.blockTime);
  const tx: TransactionRow = {
    signature,
    slot,
    position: e.index,
    err,
    memo,
    block_time: blockTime,
    is_vote: e.isVote,
    fee: u64(e.fee),
  };
  const byAddress: SignatureByAddressRow[] = [];
  for (const address of addresses) {
    byAddress.push({ address, slot, position: e.index, signature, err, memo, block_time: blockTime });
  }
  return { ok: true, rows: { transactions: [tx], signatures_by_address: byAddress } };
}

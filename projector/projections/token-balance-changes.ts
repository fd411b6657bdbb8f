// The token_balance_changes rows of a transaction (007_address_history.sql): one per token account whose
// balance the transaction changed, for getTransactionsForAddress's `tokenAccounts: "balanceChanged"`. Pure.
// "Changed" is the spec's rule (spec/provider-methods.md section 3): some pre/postTokenBalances entry of the
// account differs, a missing entry counting as 0 (an account opened or closed by the transaction).
import type { TokenBalance, TransactionEvent } from '../../schemas/codec.js';
import { base58Of, type Projection } from './result.js';
import type { SignatureByAddressRow, TokenBalanceChangeRow } from './rows.js';

/** Account indexes (into static keys, then loaded writable, then loaded readonly) whose token amount differs. */
export function changedTokenAccountIndexes(pre: readonly TokenBalance[], post: readonly TokenBalance[]): number[] {
  const before = new Map<number, bigint>();
  for (const b of pre) before.set(b.accountIndex, b.amount);
  const after = new Map<number, bigint>();
  for (const b of post) after.set(b.accountIndex, b.amount);
  const changed: number[] = [];
  for (const i of new Set([...before.keys(), ...after.keys()])) {
    if ((before.get(i) ?? 0n) !== (after.get(i) ?? 0n)) changed.push(i);
  }
  return changed.sort((a, b) => a - b);
}

/**
 * Rows for the transaction whose signatures_by_address row values (`tx`: slot, position, signature, err, memo,
 * block time) the caller already projected. An index past the transaction's keys is meta that cannot be
 * true: the transaction is rejected naming it (dead-lettered with the reason), not half-indexed.
 */
export function tokenBalanceChangeRows(e: TransactionEvent, tx: Omit<SignatureByAddressRow, 'address'>): Projection {
  const changed = changedTokenAccountIndexes(e.preTokenBalances, e.postTokenBalances);
  if (changed.length === 0) return { ok: true, rows: { token_balance_changes: [] } };
  const keys = [...e.accountKeys, ...e.loadedWritable, ...e.loadedReadonly];
  const rows: TokenBalanceChangeRow[] = [];
  for (const i of changed) {
    const account = base58Of(keys[i], 32);
    if (account === undefined) {
      return {
        ok: false,
        reason: `transaction ${tx.signature}: token balance account index ${i} names no 32-byte account key (${keys.length} keys)`,
      };
    }
    rows.push({ account, ...tx });
  }
  return { ok: true, rows: { token_balance_changes: rows } };
}

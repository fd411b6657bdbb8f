// Yellowstone's `token_accounts` expansion of a transaction filter (TokenAccountExpansionControlFlag;
// rpcpool/yellowstone-grpc, yellowstone-grpc-geyser/src/plugin/filter/filter.rs: `owners_in_any_balance`,
// `owners_with_changed_balance`): with it, account_include, account_exclude, account_required (and
// cuckoo_account_include) also match the owners of the transaction's token balances, so a wallet's
// filter catches the transfers into and out of its token accounts (ATAs), whose keys it does not list.
// - ALL: the owner of any pre or post token balance;
// - BALANCE_CHANGED: the owner of a post balance whose amount differs from the pre balance at the same
//   `account_index` (or that has no pre balance: a new account), and the owner of a pre balance with no
//   post balance at its index (a closed account).
// Balances without an owner (sources that did not record it) are skipped, as Yellowstone skips owners it
// cannot parse. Pure.
import { TokenBalance } from '../../schemas/gen/events.js';
import { keyId } from './key-id.js';

export type TokenAccountsMode = 'all' | 'balanceChanged';

/** What the rule reads of a token balance. */
export type TokenBalanceView = Pick<TokenBalance, 'accountIndex' | 'owner' | 'amount'>;

const hasOwner = (b: TokenBalanceView): boolean => b.owner.length === 32;

/** Key ids of the owners the mode expands to. */
export function tokenOwners(pre: readonly TokenBalanceView[], post: readonly TokenBalanceView[], mode: TokenAccountsMode): Set<string> {
  const out = new Set<string>();
  if (mode === 'all') {
    for (const b of pre) if (hasOwner(b)) out.add(keyId(b.owner));
    for (const b of post) if (hasOwner(b)) out.add(keyId(b.owner));
    return out;
  }
  const preByIndex = new Map<number, TokenBalanceView>();
  for (const b of pre) if (hasOwner(b)) preByIndex.set(b.accountIndex, b);
  const inPost = new Set<number>();
  for (const b of post) {
    if (!hasOwner(b)) continue;
    inPost.add(b.accountIndex);
    const before = preByIndex.get(b.accountIndex);
    if (before === undefined || before.amount !== b.amount) out.add(keyId(b.owner));
  }
  for (const [index, b] of preByIndex) if (!inPost.has(index)) out.add(keyId(b.owner));
  return out;
}

/** Token balances from their encoded records (a scanned transaction's fields 21 and 22). */
export function decodeTokenBalances(payloads: readonly Uint8Array[]): TokenBalanceView[] {
  return payloads.map((p) => TokenBalance.decode(p));
}

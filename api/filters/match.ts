// Matching one event against compiled filters (behaviour.md "Subscribe: transaction/account filters").
// Named filters combine with OR (every matching name is reported); fields inside a filter combine with AND;
// an empty field adds no constraint. The *View helpers precompute what every filter needs from an event,
// so FilterIndex builds them once per event and shares them across all streams.
import type { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { scanTokenBalances, type AccountScan, type TransactionScan } from '../../schemas/scan.js';
import type { CuckooSet } from './cuckoo.js';
import { anyInstructionSatisfies, dataMatches, eventInstructions, scannedInstructions, type InstructionsView } from './instructions.js';
import { keyId } from './key-id.js';
import { isTokenAccountData } from './token-account.js';
import { decodeTokenBalances, tokenOwners, type TokenAccountsMode, type TokenBalanceView } from './token-owners.js';
import type { CompiledAccountFilter, CompiledLamports, CompiledSubscription, CompiledTransactionFilter } from './types.js';

export interface TransactionView {
  /** Key ids of static keys plus addresses loaded through lookup tables (writable and readonly). */
  readonly keys: ReadonlySet<string>;
  readonly isVote: boolean;
  /** `err` present. */
  readonly failed: boolean;
  /** Key id of the first signature; undefined for a transaction without signatures. */
  readonly signature: string | undefined;
  /** Instructions for instruction conditions; read on first use (only such filters ask). */
  readonly instructions: InstructionsView;
  /** Key ids of the token balance owners `token_accounts` expands to; read on first use (only such filters ask). */
  tokenOwners(mode: TokenAccountsMode): ReadonlySet<string>;
}

/** Per view: the token balances, read once, and the owner set of each mode, computed once. */
class TokenOwnersCache {
  private balances: { pre: readonly TokenBalanceView[]; post: readonly TokenBalanceView[] } | undefined;
  private readonly byMode = new Map<TokenAccountsMode, ReadonlySet<string>>();

  constructor(private readonly read: () => { pre: readonly TokenBalanceView[]; post: readonly TokenBalanceView[] }) {}

  get(mode: TokenAccountsMode): ReadonlySet<string> {
    let set = this.byMode.get(mode);
    if (set === undefined) {
      const b = (this.balances ??= this.read());
      this.byMode.set(mode, (set = tokenOwners(b.pre, b.post, mode)));
    }
    return set;
  }
}

/** The view of a scanned record (schemas/scan.ts): keys are collected only when a filter asks for them
 * (match-all and vote/failed-only filters never do). A class: one is made per record the live tail reads. */
class ScannedTransactionView implements TransactionView {
  readonly isVote: boolean;
  readonly failed: boolean;
  private keySet: Set<string> | undefined;
  private sig: string | null | undefined;
  private ixs: InstructionsView | undefined;
  private owners: TokenOwnersCache | undefined;

  constructor(private readonly s: TransactionScan) {
    this.isVote = s.isVote;
    this.failed = s.failed;
  }

  tokenOwners(mode: TokenAccountsMode): ReadonlySet<string> {
    this.owners ??= new TokenOwnersCache(() => {
      const b = scanTokenBalances(this.s);
      return { pre: decodeTokenBalances(b.pre), post: decodeTokenBalances(b.post) };
    });
    return this.owners.get(mode);
  }

  get keys(): ReadonlySet<string> {
    if (this.keySet) return this.keySet;
    const keys = (this.keySet = new Set<string>());
    for (const k of this.s.accountKeys) keys.add(keyId(k));
    for (const k of this.s.loadedWritable) keys.add(keyId(k));
    for (const k of this.s.loadedReadonly) keys.add(keyId(k));
    return keys;
  }

  get signature(): string | undefined {
    if (this.sig === undefined) {
      const first = this.s.signatures[0];
      this.sig = first === undefined ? null : keyId(first);
    }
    return this.sig ?? undefined;
  }

  get instructions(): InstructionsView {
    return (this.ixs ??= scannedInstructions(this.s));
  }
}

export function scannedTransactionView(s: TransactionScan): TransactionView {
  return new ScannedTransactionView(s);
}

export function scannedAccountView(s: AccountScan): AccountView {
  return { pubkey: keyId(s.pubkey), owner: keyId(s.owner), data: s.data, lamports: s.lamports };
}

/** The view of a decoded event (replay, and records that came without a scan). */
class EventTransactionView implements TransactionView {
  readonly keys: ReadonlySet<string>;
  readonly isVote: boolean;
  readonly failed: boolean;
  readonly signature: string | undefined;
  private ixs: InstructionsView | undefined;
  private owners: TokenOwnersCache | undefined;

  tokenOwners(mode: TokenAccountsMode): ReadonlySet<string> {
    this.owners ??= new TokenOwnersCache(() => ({ pre: this.tx.preTokenBalances, post: this.tx.postTokenBalances }));
    return this.owners.get(mode);
  }

  constructor(private readonly tx: TransactionEvent) {
    const keys = new Set<string>();
    for (const k of tx.accountKeys) keys.add(keyId(k));
    for (const k of tx.loadedWritable) keys.add(keyId(k));
    for (const k of tx.loadedReadonly) keys.add(keyId(k));
    this.keys = keys;
    this.isVote = tx.isVote;
    this.failed = tx.err !== undefined && tx.err !== null;
    const first = tx.signatures[0];
    this.signature = first === undefined ? undefined : keyId(first);
  }

  get instructions(): InstructionsView {
    return (this.ixs ??= eventInstructions(this.tx));
  }
}

export function transactionView(tx: TransactionEvent): TransactionView {
  return new EventTransactionView(tx);
}

/** True when any element of `a` is in `b`; walks the smaller side. */
function intersects(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const k of small) if (large.has(k)) return true;
  return false;
}

/** The filter's key lists meet the transaction's keys, or with `token_accounts` its keys plus the expanded owners. */
function meets(list: ReadonlySet<string>, keys: ReadonlySet<string>, owners: ReadonlySet<string> | undefined): boolean {
  return intersects(list, keys) || (owners !== undefined && intersects(list, owners));
}

function anyIn(set: CuckooSet, keys: ReadonlySet<string>, owners: ReadonlySet<string> | undefined): boolean {
  for (const k of keys) if (set.has(k)) return true;
  if (owners) for (const k of owners) if (set.has(k)) return true;
  return false;
}

/** required, include (list or cuckoo set), exclude, over the transaction's keys plus the token_accounts owners. */
function keysMatch(f: CompiledTransactionFilter, v: TransactionView): boolean {
  const keys = v.keys;
  const owners = f.tokenAccounts === undefined ? undefined : v.tokenOwners(f.tokenAccounts);
  if (f.accountRequired.size > 0) {
    for (const k of f.accountRequired) if (!keys.has(k) && !owners?.has(k)) return false;
  }
  const cuckoo = f.accountIncludeCuckoo;
  if (f.accountInclude.size > 0 || cuckoo !== undefined) {
    const listed = f.accountInclude.size > 0 && meets(f.accountInclude, keys, owners);
    if (!listed && !(cuckoo !== undefined && anyIn(cuckoo, keys, owners))) return false;
  }
  return !(f.accountExclude.size > 0 && meets(f.accountExclude, keys, owners));
}

/**
 * `instructionsKnown`: the caller found the filter through an instruction it satisfies (FilterIndex's
 * instruction index), so the instruction conditions need no second test.
 * Yellowstone's order and rules (filter.rs FilterTransactions::get_updates): vote, failed, signature, then
 * required, include (list or cuckoo set), exclude, each over the transaction's keys plus, with token_accounts,
 * the owners the mode expands to.
 */
export function transactionFilterMatches(f: CompiledTransactionFilter, v: TransactionView, instructionsKnown = false): boolean {
  if (f.vote !== undefined && f.vote !== v.isVote) return false;
  if (f.failed !== undefined && f.failed !== v.failed) return false;
  if (f.signature !== undefined && f.signature !== v.signature) return false;
  // The key set (a string per key of the transaction) is built only for a filter that tests keys: a match-all
  // stream reading it for every transaction cost a quarter of its api CPU (bench:grpc one stream, issue 23's A/B).
  if (f.accountRequired.size > 0 || f.accountInclude.size > 0 || f.accountIncludeCuckoo !== undefined || f.accountExclude.size > 0) {
    if (!keysMatch(f, v)) return false;
  }
  // Last: the most expensive test, and the one most filters do not have.
  if (f.instructions.length > 0 && !instructionsKnown && !anyInstructionSatisfies(f.instructions, v.instructions)) return false;
  return true;
}

export interface AccountView {
  readonly pubkey: string;
  readonly owner: string;
  readonly data: Uint8Array;
  readonly lamports: bigint;
}

export function accountView(acc: AccountEvent): AccountView {
  return { pubkey: keyId(acc.pubkey), owner: keyId(acc.owner), data: acc.data, lamports: acc.lamports };
}

function lamportsMatches(c: CompiledLamports, lamports: bigint): boolean {
  switch (c.op) {
    case 'eq':
      return lamports === c.value;
    case 'ne':
      return lamports !== c.value;
    case 'lt':
      return lamports < c.value;
    case 'gt':
      return lamports > c.value;
  }
}

export function accountFilterMatches(f: CompiledAccountFilter, v: AccountView): boolean {
  // Yellowstone's match_account: in the list OR in the cuckoo set, when either is given.
  if ((f.account.size > 0 || f.accountCuckoo !== undefined) && !f.account.has(v.pubkey) && !f.accountCuckoo?.has(v.pubkey)) return false;
  if (f.owner.size > 0 && !f.owner.has(v.owner)) return false;
  if (f.datasize !== undefined && f.datasize !== v.data.length) return false;
  for (const m of f.memcmp) if (!dataMatches(m, v.data)) return false; // past the end: no match (behaviour.md)
  for (const c of f.lamports) if (!lamportsMatches(c, v.lamports)) return false;
  if (f.tokenAccountState && !isTokenAccountData(v.data)) return false;
  return true;
}

/** Names of every transaction filter of `sub` that matches `tx`, sorted (filters are compiled in name order). */
export function matchTransaction(sub: CompiledSubscription, tx: TransactionEvent): string[] {
  if (sub.transactions.length === 0) return [];
  return matchTransactionView(sub, transactionView(tx));
}

/** The same for a view (a scanned record's: scannedTransactionView), as FilterIndex matches live records. */
export function matchTransactionView(sub: CompiledSubscription, view: TransactionView): string[] {
  return sub.transactions.filter((f) => transactionFilterMatches(f, view)).map((f) => f.name);
}

/** Names of every account filter of `sub` that matches `acc`, sorted. */
export function matchAccount(sub: CompiledSubscription, acc: AccountEvent): string[] {
  if (sub.accounts.length === 0) return [];
  return matchAccountView(sub, accountView(acc));
}

/** The same for a view (a scanned record's: scannedAccountView). */
export function matchAccountView(sub: CompiledSubscription, view: AccountView): string[] {
  return sub.accounts.filter((f) => accountFilterMatches(f, view)).map((f) => f.name);
}

// Every stream's filters of one api process, indexed by key, so matching an event costs in proportion to the
// event's keys and the filters those keys select, not to the number of streams. Each filter sits in exactly
// one place:
// - transactions: by signature if set; else by ONE account_required key (all must be present, so any one
//   is a valid gate); else, with instruction conditions, by every condition in the instruction index
//   (./instruction-index.ts: program id, then data bytes; a transaction then costs a lookup per instruction,
//   and 500 streams asking for pump.fun `buy` cost nothing on its `sell`s); else by EVERY account_include key;
//   else in the wildcard list;
// - accounts: by every `account` key; else, with an owner and a memcmp, by every (owner, first memcmp's offset,
//   length and bytes) — many subscriptions on one program (say 500 on the Token program, each for its own
//   wallet at offset 32) then cost one lookup per group instead of one memcmp each; else by every `owner` key;
//   else in the wildcard list.
// Wildcard filters (only exclude/vote/failed, or only memcmp/datasize/lamports, or empty) are checked for
// every event: unavoidable. Every candidate found through the index is verified with the full filter.
// Compressed address sets (Yellowstone's cuckoo filters) cannot be listed by key: a transaction filter with
// one is placed by its signature or required key, else its instructions, else in the wildcard list (its
// account_include keys are no gate, since a cuckoo hit alone passes); an account filter with one is placed by
// its owner (with memcmp) or in the wildcard list. Their test costs two hashes per key of the event, whatever
// the set's size (./cuckoo.ts). Transaction filters with `token_accounts` may meet their keyed placement through
// a token balance owner instead of a transaction key, so while any is keyed the lookup also walks the owners
// of every token balance (the ALL expansion, a superset of BALANCE_CHANGED's).
import type { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import {
  accountFilterMatches,
  accountView,
  transactionFilterMatches,
  transactionView,
  type AccountView,
  type TransactionView,
} from './match.js';
import { InstructionIndex } from './instruction-index.js';
import { keyId } from './key-id.js';
import type { CompiledAccountFilter, CompiledSubscription, CompiledTransactionFilter } from './types.js';

interface Entry<S, F> {
  readonly stream: S;
  /** Position of the filter in the subscription's name-sorted list: sorts the names of a match. */
  readonly order: number;
  readonly filter: F;
  /** Sequence number of the last event that visited this entry: dedups entries reached through several keys. */
  seen: number;
}

type Bucket<S, F> = Set<Entry<S, F>>;
type TxEntry<S> = Entry<S, CompiledTransactionFilter>;
type AccEntry<S> = Entry<S, CompiledAccountFilter>;

interface Registration<S> {
  readonly tx: readonly TxEntry<S>[];
  readonly acc: readonly AccEntry<S>[];
}

/** Where an entry lives: a keyed map and its keys, or the wildcard set (map undefined). */
interface Placement<S, F> {
  readonly map: Map<string, Bucket<S, F>> | undefined;
  readonly keys: Iterable<string>;
}

function addTo<S, F>(map: Map<string, Bucket<S, F>>, key: string, e: Entry<S, F>): void {
  const bucket = map.get(key);
  if (bucket) bucket.add(e);
  else map.set(key, new Set([e]));
}

function removeFrom<S, F>(map: Map<string, Bucket<S, F>>, key: string, e: Entry<S, F>): void {
  const bucket = map.get(key);
  if (!bucket) return;
  bucket.delete(e);
  if (bucket.size === 0) map.delete(key);
}

/** Verifies the not-yet-visited entries of a bucket; returns how many it verified. */
function collect<S, F>(
  hits: Map<S, Entry<S, F>[]>,
  bucket: Iterable<Entry<S, F>> | undefined,
  seq: number,
  test: (f: F) => boolean,
): number {
  if (!bucket) return 0;
  let checked = 0;
  for (const e of bucket) {
    if (e.seen === seq) continue;
    e.seen = seq;
    checked++;
    if (!test(e.filter)) continue;
    const list = hits.get(e.stream);
    if (list) list.push(e);
    else hits.set(e.stream, [e]);
  }
  return checked;
}

function namesOf<S, F extends { readonly name: string }>(hits: Map<S, Entry<S, F>[]>): Map<S, string[]> {
  const out = new Map<S, string[]>();
  for (const [stream, entries] of hits) {
    if (entries.length > 1) entries.sort((a, b) => a.order - b.order);
    out.set(
      stream,
      entries.map((e) => e.filter.name),
    );
  }
  return out;
}

/** The memcmp an owner-bound account filter is indexed by: its first one at a finite offset. */
function memcmpGate(f: CompiledAccountFilter): { offset: number; bytes: Uint8Array } | undefined {
  const m = f.memcmp[0];
  return m !== undefined && Number.isFinite(m.offset) && m.bytes.length > 0 ? m : undefined;
}

/** Listed by its pubkeys: only without a cuckoo set, since a pubkey in the set passes without being listed. */
function byPubkey(f: CompiledAccountFilter): boolean {
  return f.account.size > 0 && f.accountCuckoo === undefined;
}

function memcmpKey(owner: string, offset: number, length: number, bytes: string): string {
  return `${owner}\u0001${offset}:${length}\u0001${bytes}`;
}

export class FilterIndex<StreamId> {
  private readonly streams = new Map<StreamId, Registration<StreamId>>();
  private readonly txBySignature = new Map<string, Bucket<StreamId, CompiledTransactionFilter>>();
  private readonly txByKey = new Map<string, Bucket<StreamId, CompiledTransactionFilter>>();
  private readonly txWildcard: Bucket<StreamId, CompiledTransactionFilter> = new Set();
  private readonly txByInstruction = new InstructionIndex<TxEntry<StreamId>>();
  private readonly accByPubkey = new Map<string, Bucket<StreamId, CompiledAccountFilter>>();
  private readonly accByOwner = new Map<string, Bucket<StreamId, CompiledAccountFilter>>();
  private readonly accWildcard: Bucket<StreamId, CompiledAccountFilter> = new Set();
  /** (owner, memcmp group, bytes) -> filters; see memcmpKey. */
  private readonly accByOwnerMemcmp = new Map<string, Bucket<StreamId, CompiledAccountFilter>>();
  /** owner -> the memcmp groups (offset and length) its filters are indexed under, with reference counts. */
  private readonly ownerGroups = new Map<string, Map<string, { offset: number; length: number; refs: number }>>();
  /** Entries in txByKey / txBySignature whose filter has token_accounts: the owners are looked up too while > 0. */
  private tokenKeyed = 0;
  private seq = 0;
  /** Filters verified in full so far (index candidates plus wildcards): for metrics, and to test the index. */
  candidatesChecked = 0;

  /** Number of streams registered. */
  get size(): number {
    return this.streams.size;
  }

  has(streamId: StreamId): boolean {
    return this.streams.has(streamId);
  }

  /** Replaces the whole filter set of a stream (behaviour.md: nothing is merged). */
  set(streamId: StreamId, sub: CompiledSubscription): void {
    this.delete(streamId);
    const tx = sub.transactions.map((filter, order) => ({ stream: streamId, order, filter, seen: 0 }));
    const acc = sub.accounts.map((filter, order) => ({ stream: streamId, order, filter, seen: 0 }));
    for (const e of tx) this.placeTx(e, true);
    for (const e of acc) {
      this.place(this.accPlacement(e.filter), this.accWildcard, e, true);
      this.countGroups(e.filter, 1);
    }
    this.streams.set(streamId, { tx, acc });
  }

  /** Removes a stream's filters; returns whether it was registered. */
  delete(streamId: StreamId): boolean {
    const reg = this.streams.get(streamId);
    if (!reg) return false;
    // Placement is a pure function of the (immutable) filter, so recomputing it finds every bucket again;
    // this keeps no per-key undo records (a stream may hold a million keys at the default limits).
    for (const e of reg.tx) this.placeTx(e, false);
    for (const e of reg.acc) {
      this.place(this.accPlacement(e.filter), this.accWildcard, e, false);
      this.countGroups(e.filter, -1);
    }
    this.streams.delete(streamId);
    return true;
  }

  private placeTx(e: TxEntry<StreamId>, add: boolean): void {
    const p = this.txPlacement(e.filter);
    if (p === 'instructions') {
      for (const c of e.filter.instructions) {
        if (add) this.txByInstruction.add(c, e);
        else this.txByInstruction.remove(c, e);
      }
    } else {
      if (p.map === this.txByKey && e.filter.tokenAccounts !== undefined) this.tokenKeyed += add ? 1 : -1;
      this.place(p, this.txWildcard, e, add);
    }
  }

  /** Instruction conditions come before account_include: they name a program (itself a key the transaction must
   * hold) and usually an instruction of it, so they select at least as narrowly as any one included key. */
  private txPlacement(f: CompiledTransactionFilter): Placement<StreamId, CompiledTransactionFilter> | 'instructions' {
    if (f.signature !== undefined) return { map: this.txBySignature, keys: [f.signature] };
    if (f.accountRequired.size > 0) {
      const [gate] = f.accountRequired; // every required key must be present, so one is enough as a gate
      return { map: this.txByKey, keys: [gate!] };
    }
    if (f.instructions.length > 0) return 'instructions';
    if (f.accountInclude.size > 0 && f.accountIncludeCuckoo === undefined) return { map: this.txByKey, keys: f.accountInclude };
    return { map: undefined, keys: [] };
  }

  private accPlacement(f: CompiledAccountFilter): Placement<StreamId, CompiledAccountFilter> {
    if (byPubkey(f)) return { map: this.accByPubkey, keys: f.account };
    const m = memcmpGate(f);
    if (f.owner.size > 0 && m)
      return { map: this.accByOwnerMemcmp, keys: [...f.owner].map((o) => memcmpKey(o, m.offset, m.bytes.length, keyId(m.bytes))) };
    if (f.owner.size > 0) return { map: this.accByOwner, keys: f.owner };
    return { map: undefined, keys: [] };
  }

  /** Keeps ownerGroups in step with the filters indexed by (owner, memcmp). */
  private countGroups(f: CompiledAccountFilter, delta: 1 | -1): void {
    const m = memcmpGate(f);
    if (byPubkey(f) || f.owner.size === 0 || !m) return;
    const group = `${m.offset}:${m.bytes.length}`;
    for (const o of f.owner) {
      let groups = this.ownerGroups.get(o);
      if (!groups) this.ownerGroups.set(o, (groups = new Map()));
      const g = groups.get(group);
      if (g) g.refs += delta;
      else groups.set(group, { offset: m.offset, length: m.bytes.length, refs: delta });
      if (groups.get(group)!.refs <= 0) groups.delete(group);
      if (groups.size === 0) this.ownerGroups.delete(o);
    }
  }

  private place<F>(p: Placement<StreamId, F>, wildcard: Bucket<StreamId, F>, e: Entry<StreamId, F>, add: boolean): void {
    if (p.map === undefined) {
      if (add) wildcard.add(e);
      else wildcard.delete(e);
      return;
    }
    for (const k of p.keys) {
      if (add) addTo(p.map, k, e);
      else removeFrom(p.map, k, e);
    }
  }

  /** For every stream with at least one matching transaction filter: the matching names, sorted. */
  matchTransaction(tx: TransactionEvent): Map<StreamId, string[]> {
    return this.matchTransactionView(transactionView(tx));
  }

  /** The same for a prepared view (e.g. of a scanned record: its keys are only collected if a filter needs them). */
  matchTransactionView(view: TransactionView): Map<StreamId, string[]> {
    const seq = ++this.seq;
    const test = (f: CompiledTransactionFilter): boolean => transactionFilterMatches(f, view);
    const hits = new Map<StreamId, Entry<StreamId, CompiledTransactionFilter>[]>();
    let checked = 0;
    if (this.txBySignature.size > 0 && view.signature !== undefined)
      checked += collect(hits, this.txBySignature.get(view.signature), seq, test);
    if (this.txByKey.size > 0) for (const k of view.keys) checked += collect(hits, this.txByKey.get(k), seq, test);
    if (this.tokenKeyed > 0) for (const k of view.tokenOwners('all')) checked += collect(hits, this.txByKey.get(k), seq, test);
    // Instructions are read only when some filter has instruction conditions (otherwise no cost at all).
    if (this.txByInstruction.size > 0) checked += this.collectByInstruction(hits, view, seq);
    checked += collect(hits, this.txWildcard, seq, test);
    this.candidatesChecked += checked;
    return namesOf(hits);
  }

  /** Verifies the filters found through an instruction that satisfies one of their conditions. */
  private collectByInstruction(hits: Map<StreamId, TxEntry<StreamId>[]>, view: TransactionView, seq: number): number {
    const buckets: ReadonlySet<TxEntry<StreamId>>[] = [];
    const ixs = view.instructions;
    for (const ix of ixs.top) this.txByInstruction.lookup(ix, false, buckets);
    if (this.txByInstruction.innerSize > 0) for (const ix of ixs.inner) this.txByInstruction.lookup(ix, true, buckets);
    if (buckets.length === 0) return 0;
    // The instruction conditions hold already; the rest of each filter is verified.
    const known = (f: CompiledTransactionFilter): boolean => transactionFilterMatches(f, view, true);
    let checked = 0;
    for (const b of buckets) checked += collect(hits, b, seq, known);
    return checked;
  }

  /** For every stream with at least one matching account filter: the matching names, sorted. */
  matchAccount(acc: AccountEvent): Map<StreamId, string[]> {
    return this.matchAccountView(accountView(acc));
  }

  matchAccountView(view: AccountView): Map<StreamId, string[]> {
    const seq = ++this.seq;
    const test = (f: CompiledAccountFilter): boolean => accountFilterMatches(f, view);
    const hits = new Map<StreamId, Entry<StreamId, CompiledAccountFilter>[]>();
    this.candidatesChecked +=
      collect(hits, this.accByPubkey.get(view.pubkey), seq, test) +
      collect(hits, this.accByOwner.get(view.owner), seq, test) +
      collect(hits, this.accWildcard, seq, test);
    const groups = this.ownerGroups.get(view.owner);
    if (groups) {
      for (const [group, g] of groups) {
        if (g.offset + g.length > view.data.length) continue; // past the end: no match (behaviour.md)
        const bytes = keyId(view.data.subarray(g.offset, g.offset + g.length));
        this.candidatesChecked += collect(hits, this.accByOwnerMemcmp.get(`${view.owner}\u0001${group}\u0001${bytes}`), seq, test);
      }
    }
    return namesOf(hits);
  }
}

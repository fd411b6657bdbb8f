// The head cache (issue 33, item 2): the newest slots of the chain in memory, fed by the api's live Kafka read
// (api/live's one tail, through the hub's consumer hook), so JSON-RPC answers recent reads without a ClickHouse
// query and without waiting for the projector (Triton's Superbank does the same in front of ClickHouse). Pure: fed
// one StreamEvent at a time; answers domain values, never JSON (the methods shape them with the same functions
// their views path uses, so both answers are the same bytes).
//
// What it holds, and what it can prove:
// - per slot: its status (levels and terminal, combined as api/live/slot-status.ts), its block meta (the record
//   that carries it: the views' `blocks` and `block_details` rows), and its transactions' record bytes by
//   position (the views' `transaction_records`, stored as read from Kafka), with a signature index and an index by
//   the transactions' keys (the views' `signatures_by_address`: static and loaded addresses);
// - per account: its writes in the held slots (the views' `account_writes`, the record bytes as read), in order,
//   less those no commitment can read any more (older than the newest write at or below the finalized head), so the
//   state of a recently written account (a pool, a bonding curve, a trader's token account) is read without a query;
// - the newest slot per commitment level, as the views' heads rule (max slot per level, never moving back, a
//   level implying the lower ones);
// - `floor`: every transaction of a slot >= floor that the views could hold is held here (the slot's own
//   completeness is checked against its end marker's counts); `metaFloor` the same for statuses and block
//   metas. Slot records and metas are kept for more slots than transactions (they are small): blockhash
//   validity and prioritization fees look further back than the bodies need.
// Invariant: a slot below a floor has no entry (its data was evicted or predates the read), so what is found
// at or above a floor is everything there is, and "not held" can be answered as "absent" only inside a floor.
// Memory is bounded by slots: the newest `slots` slots keep their transactions, `slots + META_EXTRA_SLOTS`
// their metas and statuses; the oldest go first.
import bs58 from 'bs58';
import type { BlockMeta, SlotEvent } from '../../schemas/gen/events.js';
import { payload, readVarint64, scanFields, type AccountScan, type TransactionScan } from '../../schemas/scan.js';
import { slotStatusOf, type Commitment } from '../../schemas/commitment.js';
import { combineStatus, isLevel, isTerminal } from '../live/slot-status.js';

/** Yellowstone's replay depth: the least the cache holds. */
export const MIN_HEAD_CACHE_SLOTS = 150;
export const DEFAULT_HEAD_CACHE_SLOTS = 150;
/** Slots whose statuses and block metas are kept beyond those with transactions (Agave's 300-block blockhash
 * queue and status cache, the 150 finalized blocks of prioritization fees, and the finalization lag). */
export const META_EXTRA_SLOTS = 512;
/** A read that started inside a used log: slots this far past the first one seen may have had records before
 * the start (a source interleaves neighbouring slots); coverage starts after them. */
export const LATE_START_MARGIN = 64n;

/** A held transaction: the Kafka record's bytes and what the indexes need from them (scanned, not decoded). */
export interface HeldTransaction {
  readonly slot: bigint;
  readonly position: number;
  /** The first signature, as a latin1 string of its 64 bytes (`rawSignature`). */
  readonly signature: string;
  /** The record's `err` (Agave's JSON text), null on success: the views' `transactions.err`. */
  readonly err: string | null;
  readonly bytes: Buffer;
  /** The distinct `keyHash`es of its keys, static and loaded (the address index's buckets it is in). */
  readonly keys: readonly number[];
  /** The signature in base-58, made on first use (`base58Signature`): getBlock's signature lists ask for it. */
  base58?: string;
}

/** The transaction's first signature in base-58, encoded once. */
export const base58Signature = (t: HeldTransaction): string => (t.base58 ??= bs58.encode(Buffer.from(t.signature, 'latin1')));

/** A held account write: the Kafka record's bytes and its order among the account's writes. */
export interface HeldWrite {
  readonly slot: bigint;
  readonly writeVersion: bigint;
  readonly bytes: Buffer;
}

/** What the cache needs of a live record: the api/live StreamEvent's transaction, account and slot kinds (an
 * account write from a snapshot of the views carries no scan: it is not the topics' record). */
export type HeadEvent =
  | { readonly kind: 'transaction'; readonly scan: TransactionScan }
  | { readonly kind: 'account'; readonly scan?: AccountScan }
  | { readonly kind: 'slot'; readonly event: SlotEvent }
  | { readonly kind: 'entry' | 'parsed' };

export interface HeadBlock {
  readonly slot: bigint;
  readonly meta: BlockMeta;
  /** Marked skipped or dead (a lost fork): the views leave such slots out of most reads, not out of `blocks`. */
  readonly dead: boolean;
}

/** A signature as the cache keys it: the 64 bytes as latin1. */
export const rawSignature = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

class HeldSlot {
  status: number | undefined;
  meta: BlockMeta | undefined;
  /** The record that carried the meta (its `end` counts the slot's records). */
  marker: SlotEvent | undefined;
  /** By position; undefined once evicted (the slot keeps its meta and status for META_EXTRA_SLOTS more). */
  txs: Map<number, HeldTransaction> | undefined = new Map();
  /** Summaries made from the transactions before they were dropped (see `summary`). */
  readonly summaries = new Map<string, unknown>();
  /** Account records read for the slot (held or not: a write the views reject is counted too, as the marker does). */
  accountsRead = 0;
  /** The accounts written in the slot (latin1 keys), for eviction; undefined once evicted, with `txs`. */
  written: string[] | undefined = [];

  constructor(readonly slot: bigint) {}

  get dead(): boolean {
    return isTerminal(this.status);
  }

  /** The marker read and the transactions it counts held. */
  get complete(): boolean {
    if (this.marker === undefined || this.txs === undefined) return false;
    return this.txs.size >= expectedTransactions(this.marker);
  }
}

/** How many transaction records the slot's marker says precede it (its counts; older records: the block meta's). */
export function expectedTransactions(marker: SlotEvent): number {
  const counts = marker.end?.counts;
  if (counts !== undefined) return counts.reduce((n, c) => (c.kind === 'transactions' ? n + c.count : n), 0);
  const b = marker.block!;
  return Number(b.executedTransactionCount ?? BigInt(b.transactionCount));
}

/** How many account records the slot's marker says precede it; undefined when it does not count them. */
export function expectedAccounts(marker: SlotEvent): number | undefined {
  const counts = marker.end?.counts;
  if (counts === undefined) return undefined;
  return counts.reduce((n, c) => (c.kind === 'accounts' ? n + c.count : n), 0);
}

/** Whether a held write is after another in an account's order (slot, then write_version: the views' version). */
const isAfter = (a: HeldWrite, b: HeldWrite): boolean => a.slot > b.slot || (a.slot === b.slot && a.writeVersion > b.writeVersion);

/** The address index's bucket of a 32-byte key: 30 bits of it (keys are hashes or curve points; a small integer
 * keys a Map without making a string per key of every transaction). A bucket's entries are checked on a read. */
export const keyHash = (key: Buffer, at = 0): number => key.readUInt32LE(at) & 0x3fffffff;

/** The distinct key hashes of a transaction record's keys (account keys, loaded writable, loaded readonly), or
 * undefined when one is not 32 bytes (the projector rejects such a transaction). */
function keyHashes(bytes: Buffer, fields: readonly number[]): number[] | undefined {
  const out: number[] = [];
  for (let i = 0; i < fields.length; i += 3) {
    const f = fields[i];
    if (f !== 8 && f !== 12 && f !== 13) continue;
    const start = fields[i + 1]!;
    if (fields[i + 2]! - start !== 33 || bytes[start] !== 32) return undefined;
    const h = keyHash(bytes, start + 1);
    if (!out.includes(h)) out.push(h);
  }
  return out;
}

/** Whether a 32-byte key is among a transaction record's keys (static or loaded). */
function hasKey(bytes: Buffer, key: Buffer): boolean {
  const f = scanFields(bytes);
  for (let i = 0; i < f.length; i += 3) {
    if ((f[i] === 8 || f[i] === 12 || f[i] === 13) && bytes.compare(key, 0, 32, f[i + 1]! + 1, f[i + 2]!) === 0) return true;
  }
  return false;
}

/** The position, first signature and error of a scanned transaction record; undefined when it has no 64-byte
 * signature or a key that is not 32 bytes (the projector dead-letters it: the views never hold it). */
export function heldTransaction(scan: TransactionScan): HeldTransaction | undefined {
  const sig = scan.signatures[0];
  if (sig === undefined || sig.length !== 64) return undefined;
  const keys = keyHashes(scan.bytes, scan.fields);
  if (keys === undefined) return undefined;
  let position = 0;
  let err: string | null = null;
  const f = scan.fields;
  for (let i = 0; i < f.length; i += 3) {
    if (f[i] === 2) position = Number(readVarint64(scan.bytes, f[i + 1]!, f[i + 2]!));
    else if (f[i] === 15) err = payload(scan.bytes, f[i + 1]!, f[i + 2]!).toString('utf8');
  }
  return { slot: scan.slot, position, signature: sig.toString('latin1'), err, bytes: scan.bytes, keys };
}

/**
 * Entries of one account or address in (slot, ...) order, oldest first, the evicted or settled ones before `start`:
 * appends and drops from the front cost O(1) (writes and transactions come mostly in order).
 */
class Run<T extends { readonly slot: bigint }> {
  items: T[] = [];
  start = 0;

  constructor(private readonly isBefore: (a: T, b: T) => boolean) {}

  /** Inserts in order; an entry equal to one held (`same`) replaces it. */
  add(t: T, same?: (a: T, b: T) => boolean): void {
    let i = this.items.length;
    while (i > this.start && this.isBefore(t, this.items[i - 1]!)) i--;
    if (same !== undefined && i > this.start && same(t, this.items[i - 1]!)) this.items[i - 1] = t;
    else this.items.splice(i, 0, t);
  }

  /** The newest entry at or below `slot`. */
  newestAtOrBelow(slot: bigint): T | undefined {
    for (let i = this.items.length - 1; i >= this.start; i--) if (this.items[i]!.slot <= slot) return this.items[i];
    return undefined;
  }

  /** Drops all but the newest of the entries at or below `slot` (amortized O(1): each entry is passed once). */
  settle(slot: bigint): void {
    while (this.start + 1 < this.items.length && this.items[this.start + 1]!.slot <= slot) this.start++;
    this.compact();
  }

  /** Drops the entries at or below `slot` (the oldest: slots are evicted in order); whether it is empty. */
  dropTo(slot: bigint): boolean {
    while (this.start < this.items.length && this.items[this.start]!.slot <= slot) this.start++;
    this.compact();
    return this.start === this.items.length;
  }

  private compact(): void {
    if (this.start > 64 && this.start * 2 > this.items.length) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
  }
}

const isBefore = (a: HeldTransaction, b: HeldTransaction): boolean => a.slot < b.slot || (a.slot === b.slot && a.position < b.position);
const writeBefore = (a: HeldWrite, b: HeldWrite): boolean => isAfter(b, a);
const sameWrite = (a: HeldWrite, b: HeldWrite): boolean => a.slot === b.slot && a.writeVersion === b.writeVersion;

export interface HeadCacheOptions {
  /** Slots whose transactions are held (at least MIN_HEAD_CACHE_SLOTS). */
  slots: number;
  /** The read started at the start of the topics (nothing came before the first record): coverage from slot 0. */
  fromStart: boolean;
  /** Hold account writes (`newestWrite`); default true. Off, every account read is the views'. */
  accounts?: boolean;
}

export class HeadCache {
  private readonly held = new Map<bigint, HeldSlot>();
  /** Held slots, ascending. */
  private readonly order: bigint[] = [];
  /** Newest slot per level (index: the level's slot status). */
  private readonly newest: (bigint | undefined)[] = [undefined, undefined, undefined];
  private readonly bySignature = new Map<string, HeldTransaction | HeldTransaction[]>();
  /** The address index: key hash -> bucket. */
  private readonly byKey = new Map<number, Run<HeldTransaction>>();
  private readonly byHash = new Map<string, bigint>();
  /** Per account (its 32 bytes as latin1): held writes in order. */
  private readonly writes = new Map<string, Run<HeldWrite>>();
  private readonly summarizers = new Map<string, (records: readonly Buffer[]) => unknown>();
  private floorSlot: bigint | undefined;
  private metaFloorSlot: bigint | undefined;

  constructor(private readonly o: HeadCacheOptions) {
    if (!Number.isInteger(o.slots) || o.slots < MIN_HEAD_CACHE_SLOTS) {
      throw new Error(`head cache: slots must be an integer of at least ${MIN_HEAD_CACHE_SLOTS}, got ${o.slots}`);
    }
    if (o.fromStart) this.floorSlot = this.metaFloorSlot = 0n;
  }

  /** Every transaction of a slot at or above it that the views could hold is held (undefined: nothing yet). */
  get floor(): bigint | undefined {
    return this.floorSlot;
  }

  /** Statuses and block metas of every slot at or above it are held. */
  get metaFloor(): bigint | undefined {
    return this.metaFloorSlot;
  }

  /** Slots held (with or without their transactions). */
  get size(): number {
    return this.order.length;
  }

  onEvent(e: HeadEvent): void {
    if (e.kind === 'transaction') this.onTransaction(e.scan);
    else if (e.kind === 'account') {
      if (e.scan !== undefined && this.o.accounts !== false) this.onAccount(e.scan);
    } else if (e.kind === 'slot') this.onSlot(e.event);
  }

  private start(slot: bigint): void {
    if (this.floorSlot !== undefined) return;
    this.floorSlot = this.metaFloorSlot = slot + LATE_START_MARGIN;
  }

  private onTransaction(scan: TransactionScan): void {
    this.start(scan.slot);
    if (scan.slot < this.floorSlot!) return;
    const t = heldTransaction(scan);
    if (t === undefined) return;
    const s = this.slotAt(t.slot);
    if (s === undefined || s.txs === undefined) return;
    // Read uncommitted, an aborted record comes again identical: the same position replaces it.
    const before = s.txs.get(t.position);
    if (before !== undefined) this.unindex(before);
    s.txs.set(t.position, t);
    const known = this.bySignature.get(t.signature);
    if (known === undefined) this.bySignature.set(t.signature, t);
    else if (Array.isArray(known)) known.push(t);
    else this.bySignature.set(t.signature, [known, t]);
    // A replaced record stays in its buckets until its slot goes: reads skip what its slot no longer holds.
    for (const h of t.keys) {
      let b = this.byKey.get(h);
      if (b === undefined) this.byKey.set(h, (b = new Run(isBefore)));
      b.add(t);
    }
  }

  private onAccount(scan: AccountScan): void {
    this.start(scan.slot);
    if (scan.slot < this.floorSlot!) return;
    const s = this.slotAt(scan.slot);
    if (s === undefined || s.written === undefined) return;
    s.accountsRead++;
    // The projector rejects a write without a 32-byte pubkey and owner: the views never hold it.
    if (scan.pubkey.length !== 32 || scan.owner.length !== 32) return;
    const key = scan.pubkey.toString('latin1');
    const w: HeldWrite = { slot: scan.slot, writeVersion: scan.writeVersion, bytes: scan.bytes };
    let run = this.writes.get(key);
    if (run === undefined) this.writes.set(key, (run = new Run(writeBefore)));
    run.add(w, sameWrite);
    s.written.push(key);
    // A read answers at a commitment's head, never below the finalized one: a write older than the newest at or
    // below it is read by nothing (hot accounts would otherwise keep every write of the held slots).
    const finalized = this.newest[slotStatusOf('finalized')];
    if (finalized !== undefined) run.settle(finalized);
  }

  private onSlot(ev: SlotEvent): void {
    if (ev.gap !== undefined) return;
    this.start(ev.slot);
    // Heads take every level record, as the views' heads do (max slot per level, never moving back).
    if (isLevel(ev.status)) {
      const level = ev.status;
      for (let l = 0; l <= level; l++) if (this.newest[l] === undefined || ev.slot > this.newest[l]!) this.newest[l] = ev.slot;
    }
    if (ev.slot < this.metaFloorSlot!) return;
    const s = this.slotAt(ev.slot);
    if (s === undefined) return;
    s.status = combineStatus(s.status, ev.status);
    if (ev.block !== undefined) {
      if (s.meta !== undefined) this.byHash.delete(Buffer.from(s.meta.blockhash).toString('latin1'));
      s.meta = ev.block;
      s.marker = ev;
      this.byHash.set(Buffer.from(ev.block.blockhash).toString('latin1'), ev.slot);
    }
  }

  /** The slot's entry, made when new (and the oldest evicted past the bounds); undefined below the floors. */
  private slotAt(slot: bigint): HeldSlot | undefined {
    const s = this.held.get(slot);
    if (s !== undefined) return s;
    if (slot < this.metaFloorSlot!) return undefined;
    const made = new HeldSlot(slot);
    if (slot < this.floorSlot!) made.txs = undefined;
    this.held.set(slot, made);
    insertSorted(this.order, slot);
    this.evict();
    return this.held.get(slot);
  }

  private evict(): void {
    const bodies = this.order.length - this.o.slots;
    // Transactions first: the oldest slots beyond `slots` keep only their meta and status.
    for (let i = 0; i < bodies; i++) {
      const s = this.held.get(this.order[i]!)!;
      if (s.txs === undefined) continue;
      this.dropTransactions(s);
      if (this.floorSlot! <= s.slot) this.floorSlot = s.slot + 1n;
    }
    const beyond = this.order.length - (this.o.slots + META_EXTRA_SLOTS);
    if (beyond <= 0) return;
    for (const slot of this.order.splice(0, beyond)) {
      const s = this.held.get(slot)!;
      this.held.delete(slot);
      if (s.txs !== undefined) this.dropTransactions(s);
      if (s.meta !== undefined) this.byHash.delete(Buffer.from(s.meta.blockhash).toString('latin1'));
      if (this.metaFloorSlot! <= slot) this.metaFloorSlot = slot + 1n;
      if (this.floorSlot! <= slot) this.floorSlot = slot + 1n;
    }
  }

  private dropTransactions(s: HeldSlot): void {
    if (s.complete && !s.dead) for (const [name, f] of this.summarizers) if (!s.summaries.has(name)) s.summaries.set(name, f(bodies(s)));
    for (const t of s.txs!.values()) {
      this.unindex(t);
      for (const h of t.keys) if (this.byKey.get(h)?.dropTo(s.slot) === true) this.byKey.delete(h);
    }
    s.txs = undefined;
    // Slots go oldest first: the account's writes at or below this one are its oldest.
    for (const key of s.written!) if (this.writes.get(key)?.dropTo(s.slot) === true) this.writes.delete(key);
    s.written = undefined;
  }

  private unindex(t: HeldTransaction): void {
    const known = this.bySignature.get(t.signature);
    if (known === t) this.bySignature.delete(t.signature);
    else if (Array.isArray(known)) {
      const rest = known.filter((k) => k !== t);
      if (rest.length === 1) this.bySignature.set(t.signature, rest[0]!);
      else this.bySignature.set(t.signature, rest);
    }
  }

  /** The newest slot that reached `level` (a stronger level implies the weaker ones); undefined before any. */
  head(level: Commitment): bigint | undefined {
    return this.newest[slotStatusOf(level)];
  }

  /** The newest block at or below `slot` (dead or not, as the views' `blocks`); undefined when none is held,
   * which proves nothing (it may be below the floor). */
  blockAtOrBelow(slot: bigint): HeadBlock | undefined {
    for (let i = upperIndex(this.order, slot); i >= 0; i--) {
      const s = this.held.get(this.order[i]!)!;
      if (s.meta !== undefined) return { slot: s.slot, meta: s.meta, dead: s.dead };
    }
    return undefined;
  }

  /** The block of a slot whose meta is held. */
  block(slot: bigint): HeadBlock | undefined {
    const s = this.held.get(slot);
    return s?.meta === undefined ? undefined : { slot, meta: s.meta, dead: s.dead };
  }

  /** Marked skipped or dead (the views' status 3: left out of transactions, statuses and blocks). */
  isDead(slot: bigint): boolean {
    return this.held.get(slot)?.dead === true;
  }

  /** The slot's status as combined so far (a level or terminal), undefined when none is held. */
  status(slot: bigint): number | undefined {
    return this.held.get(slot)?.status;
  }

  /** The slot of the block with this blockhash (32 bytes as latin1), if held. */
  blockhashSlot(hash: string): bigint | undefined {
    return this.byHash.get(hash);
  }

  /** The oldest held block, for proofs that a block older than it cannot matter. */
  oldestBlock(): HeadBlock | undefined {
    for (const slot of this.order) {
      const s = this.held.get(slot)!;
      if (s.meta !== undefined) return { slot, meta: s.meta, dead: s.dead };
    }
    return undefined;
  }

  /** Produced, not dead blocks in (after, upTo], ascending; undefined when that range is not all held. */
  blocksBetween(after: bigint, upTo: bigint): HeadBlock[] | undefined {
    if (this.metaFloorSlot === undefined || after + 1n < this.metaFloorSlot) return undefined;
    const out: HeadBlock[] = [];
    for (let i = lowerIndex(this.order, after + 1n); i < this.order.length && this.order[i]! <= upTo; i++) {
      const s = this.held.get(this.order[i]!)!;
      if (s.meta !== undefined && !s.dead) out.push({ slot: s.slot, meta: s.meta, dead: false });
    }
    return out;
  }

  /** The newest `n` produced, not dead blocks at or below `upTo`, ascending; fewer only when the cache holds
   * the chain from its start. Undefined when the held slots cannot tell. */
  newestBlocks(upTo: bigint, n: number): HeadBlock[] | undefined {
    const out: HeadBlock[] = [];
    for (let i = upperIndex(this.order, upTo); i >= 0 && out.length < n; i--) {
      const s = this.held.get(this.order[i]!)!;
      if (s.meta !== undefined && !s.dead) out.push({ slot: s.slot, meta: s.meta, dead: false });
    }
    if (out.length < n && this.metaFloorSlot !== 0n) return undefined;
    return out.reverse();
  }

  /** Every held landing of a signature (latin1 of its bytes), any order. */
  landings(signature: string): readonly HeldTransaction[] {
    const known = this.bySignature.get(signature);
    return known === undefined ? [] : Array.isArray(known) ? known : [known];
  }

  /**
   * Whether every landing there can be of the transaction `t` is held: its recent blockhash names a held block at
   * or above the floor, and a transaction lands only in the 150 blocks after its blockhash's (a durable-nonce
   * one names a nonce, no block: false).
   */
  allLandingsHeld(t: HeldTransaction): boolean {
    if (this.floorSlot === undefined) return false;
    const f = scanFields(t.bytes);
    for (let i = 0; i < f.length; i += 3) {
      if (f[i] !== 9) continue;
      const at = this.byHash.get(payload(t.bytes, f[i + 1]!, f[i + 2]!).toString('latin1'));
      return at !== undefined && at >= this.floorSlot;
    }
    return false;
  }

  /** The slot's transaction records in block order, when it is complete (marker and counted records held). */
  transactions(slot: bigint): readonly HeldTransaction[] | undefined {
    const s = this.held.get(slot);
    if (s === undefined || !s.complete) return undefined;
    return [...s.txs!.values()].sort((a, b) => a.position - b.position);
  }

  /**
   * The newest write of an account (its 32 bytes as latin1) at or below `slot`, when the cache can prove it is the
   * one the views hold: every account record of the slots from that write's up to `slot` is held (a slot whose
   * marker was read has all it counts; one whose marker is not read yet counts as held, as `holdsAll` does). A
   * write older than the finalized head's newest is not kept: `slot` is a commitment's head. Undefined when the
   * cache cannot tell (the account not written in the held slots, or a slot not complete).
   */
  newestWrite(account: string, slot: bigint): HeldWrite | undefined {
    const w = this.writes.get(account)?.newestAtOrBelow(slot);
    if (w === undefined || this.floorSlot === undefined || w.slot < this.floorSlot) return undefined;
    for (let i = lowerIndex(this.order, w.slot); i < this.order.length && this.order[i]! <= slot; i++) {
      const s = this.held.get(this.order[i]!)!;
      if (s.written === undefined) return undefined;
      if (s.marker === undefined) continue;
      const expected = expectedAccounts(s.marker);
      if (expected === undefined || s.accountsRead < expected) return undefined;
    }
    return w;
  }

  /**
   * The transactions with `address` (32 bytes) among their keys, static or loaded, at or below `maxSlot`, newest
   * first (slot, then position, descending), at most `limit`: the views' `signatures_by_address` rows, dead slots
   * included as there. Undefined when the cache cannot prove them the newest: fewer than `limit` while it does not
   * hold the chain from its start, or a slot from the oldest one returned up to `maxSlot` not whole (`holdsAll`).
   */
  transactionsWith(address: Buffer, maxSlot: bigint, limit: number): HeldTransaction[] | undefined {
    if (this.floorSlot === undefined) return undefined;
    const out: HeldTransaction[] = [];
    const b = this.byKey.get(keyHash(address));
    for (let i = (b?.items.length ?? 0) - 1; b !== undefined && i >= b.start && out.length < limit; i--) {
      const t = b.items[i]!;
      if (t.slot > maxSlot || this.held.get(t.slot)?.txs?.get(t.position) !== t || !hasKey(t.bytes, address)) continue;
      out.push(t);
    }
    if (out.length < limit && this.floorSlot !== 0n) return undefined;
    const from = out.length === limit ? out[out.length - 1]!.slot : this.floorSlot;
    return this.holdsAll(from, maxSlot) ? out : undefined;
  }

  /** Whether every transaction the views could hold for slots in [from, to] is held (slots with a meta complete). */
  holdsAll(from: bigint, to: bigint): boolean {
    if (this.floorSlot === undefined || from < this.floorSlot) return false;
    for (let i = lowerIndex(this.order, from); i < this.order.length && this.order[i]! <= to; i++) {
      const s = this.held.get(this.order[i]!)!;
      if (s.txs === undefined) return false;
      if (s.marker !== undefined && !s.complete && !s.dead) return false;
    }
    return true;
  }

  /**
   * A summary of a complete, not dead block's records (getRecentPrioritizationFees' fee summary): made once,
   * and, once asked for, made for every block before its transactions are dropped, so it outlives them.
   * Undefined when the block's records are not held (and no summary was made).
   */
  summary<T>(slot: bigint, name: string, f: (records: readonly Buffer[]) => T): T | undefined {
    if (!this.summarizers.has(name)) this.summarizers.set(name, f);
    const s = this.held.get(slot);
    if (s === undefined || s.dead) return undefined;
    if (s.summaries.has(name)) return s.summaries.get(name) as T;
    if (!s.complete) return undefined;
    const made = f(bodies(s));
    s.summaries.set(name, made);
    return made;
  }
}

const bodies = (s: HeldSlot): Buffer[] => [...s.txs!.values()].sort((a, b) => a.position - b.position).map((t) => t.bytes);

/** Inserts into an ascending array (slots come mostly in order: the scan from the end is short). */
function insertSorted(a: bigint[], v: bigint): void {
  let i = a.length;
  while (i > 0 && a[i - 1]! > v) i--;
  a.splice(i, 0, v);
}

/** The index of the last element <= v (-1 when none). */
function upperIndex(a: readonly bigint[], v: bigint): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** The index of the first element >= v (a.length when none). */
function lowerIndex(a: readonly bigint[], v: bigint): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

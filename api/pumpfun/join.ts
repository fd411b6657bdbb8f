// Joins each parsed pump.fun/PumpSwap transaction with the account updates it wrote that SubscribeParsed
// carries: the bonding curve (pump.fun) and the pool (PumpSwap). They travel on different topics (transactions
// keyed by slot, accounts by pubkey), read by one reader that may run far ahead in one topic (a backlog, a
// from_slot replay), so either may come first, seconds of wall time apart. The join's memory is therefore keyed
// to chain position, not to the clock:
// - a transaction waits for the writes it lacks until they come, or until every accounts partition the join
//   hears from has handed over a write of a LATER slot (a partition hands over its records in slot order, so
//   no write of the transaction's slot can follow);
// - a write that came before its transaction is remembered until every transactions partition has handed over
//   a transaction of a later slot (its transaction cannot come any more), or until its transaction takes it;
// - a partition that has been silent for `staleEvents` of the join's events no longer holds the others back
//   (a partition without pump traffic); with the topics' partition counts given, a frontier waits until every
//   partition spoke (or `staleEvents` passed), so one not read yet is not taken for one that is done;
// - memory is bounded: beyond `maxPending` waiting transactions or `maxWrites` remembered writes, the lowest
//   slot goes first (its transactions out without the missing writes, its writes forgotten);
// - wall time only decides when the feed is quiet: after `idleMs` without any event, waiting transactions go
//   out without what they lack (no later chain position would ever come to release them).
// A failed transaction writes none, so it does not wait. Transport-neutral: it is fed transactions (any subject
// carrying the transaction and its scan: the caller's handle, handed back on emit, e.g. one shared by every
// stream so the bytes are encoded once) and account writes, each with its slot and the partition it was read
// from (-1 when unknown), and calls `emit` once per transaction.
import type { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { keyId } from '../filters/index.js';
import type { ParsedScan } from '../../schemas/pumpfun/parsed-scan.js';

/** What the join is fed per transaction: the transaction and its parsed content (and whatever else the caller keeps). */
export interface JoinSubject {
  readonly tx: TransactionEvent;
  readonly scan: ParsedScan;
}

/** An account write as the join is fed it: its identity (slot, pubkey, txn signature) and the event, read only
 * when the write is joined (so a write nobody takes is never decoded in full). */
export interface JoinWrite {
  readonly slot: bigint;
  readonly pubkey: Uint8Array;
  readonly txnSignature: Uint8Array | undefined;
  readonly event: AccountEvent;
}

export type JoinedEmit<T extends JoinSubject = JoinSubject> = (
  subject: T,
  curve: AccountEvent | undefined,
  pool: AccountEvent | undefined,
) => void;

export interface JoinOptions {
  /** Most transactions waiting for their writes (default 50,000). */
  readonly maxPending?: number;
  /** Most writes remembered for transactions not seen yet (default 100,000). */
  readonly maxWrites?: number;
  /** Events after which a silent partition stops holding the others back (default 5,000). */
  readonly staleEvents?: number;
  /** Wall time without any event after which waiting transactions go out as they are (default 1 s). */
  readonly idleMs?: number;
  /** The topics' partition counts, when known: a frontier counts only once every partition was heard from (or
   * `staleEvents` passed since its first), so a partition not read yet cannot be taken for one that is done. */
  readonly transactionPartitions?: number;
  readonly accountPartitions?: number;
}

interface Pending<T> {
  readonly subject: T;
  readonly sig: string;
  readonly slot: bigint;
  readonly curveKey: string | undefined;
  readonly poolKey: string | undefined;
  curve: AccountEvent | undefined;
  pool: AccountEvent | undefined;
  done: boolean;
}

interface Remembered {
  readonly key: string;
  readonly write: JoinWrite;
}

/** Per partition of one topic: the newest slot handed over, and the join's event count when it last spoke. */
class Frontier {
  private readonly newest = new Map<number, { slot: bigint; at: number }>();
  private firstAt = -1;

  constructor(private readonly partitions: number) {}

  /** Records `slot` on `partition`; true when that partition's newest slot moved. */
  see(partition: number, slot: bigint, at: number): boolean {
    const p = this.newest.get(partition);
    if (p === undefined) {
      if (this.firstAt < 0) this.firstAt = at;
      this.newest.set(partition, { slot, at });
      return true;
    }
    p.at = at;
    if (slot <= p.slot) return false;
    p.slot = slot;
    return true;
  }

  /** The lowest newest slot over the partitions heard from within `stale` events (undefined: none). */
  low(now: number, stale: number): bigint | undefined {
    if (this.newest.size < this.partitions && now - this.firstAt <= stale) return undefined;
    let low: bigint | undefined;
    for (const p of this.newest.values()) if (now - p.at <= stale && (low === undefined || p.slot < low)) low = p.slot;
    return low;
  }
}

/** Entries grouped by slot, lowest slot first on demand. */
class BySlot<V> {
  private readonly slots = new Map<bigint, V[]>();
  size = 0;

  add(slot: bigint, v: V): void {
    const at = this.slots.get(slot);
    if (at === undefined) this.slots.set(slot, [v]);
    else at.push(v);
    this.size++;
  }

  /** Removes and returns the entries of every slot below `below` (all, when undefined), lowest slot first. */
  takeBelow(below: bigint | undefined): V[] {
    const keys: bigint[] = [];
    for (const s of this.slots.keys()) if (below === undefined || s < below) keys.push(s);
    keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return this.takeSlots(keys);
  }

  /** Removes and returns the entries of the lowest slot. */
  takeLowest(): V[] {
    let low: bigint | undefined;
    for (const s of this.slots.keys()) if (low === undefined || s < low) low = s;
    return low === undefined ? [] : this.takeSlots([low]);
  }

  private takeSlots(keys: readonly bigint[]): V[] {
    const out: V[] = [];
    for (const k of keys) {
      const vs = this.slots.get(k)!;
      this.slots.delete(k);
      this.size -= vs.length;
      for (const v of vs) out.push(v);
    }
    return out;
  }

  clear(): void {
    this.slots.clear();
    this.size = 0;
  }
}

export class PumpJoin<T extends JoinSubject = JoinSubject> {
  /** Transactions waiting, by signature; grouped by slot for release (entries already emitted are `done`). */
  private readonly pending = new Map<string, Pending<T>>();
  private readonly pendingBySlot = new BySlot<Pending<T>>();
  /** Writes seen before their transaction, by `txn signature + pubkey`; grouped by slot for forgetting. */
  private readonly writes = new Map<string, JoinWrite>();
  private readonly writesBySlot = new BySlot<Remembered>();
  private readonly txFrontier: Frontier;
  private readonly accFrontier: Frontier;
  private events = 0;
  private lastEventAt = Date.now();
  private readonly maxPending: number;
  private readonly maxWrites: number;
  private readonly staleEvents: number;
  private readonly idleMs: number;
  private readonly timer: NodeJS.Timeout;
  /** Transactions that went out without a write they named (released by position, bound or idle feed). */
  unjoined = 0;

  constructor(
    private readonly emit: JoinedEmit<T>,
    o: JoinOptions = {},
  ) {
    this.maxPending = o.maxPending ?? 50_000;
    this.maxWrites = o.maxWrites ?? 100_000;
    this.staleEvents = o.staleEvents ?? 5_000;
    this.idleMs = o.idleMs ?? 1_000;
    this.txFrontier = new Frontier(o.transactionPartitions ?? 0);
    this.accFrontier = new Frontier(o.accountPartitions ?? 0);
    this.timer = setInterval(() => this.onIdleCheck(), Math.max(20, Math.floor(this.idleMs / 4)));
    this.timer.unref();
  }

  /** Transactions waiting for writes, and writes waiting for transactions. */
  get sizes(): { pending: number; writes: number } {
    return { pending: this.pending.size, writes: this.writes.size };
  }

  /** A transaction the stream does not send (filtered out, nothing parsed): it moves the chain position only. */
  onOtherTransaction(slot: bigint, partition = -1): void {
    this.lastEventAt = Date.now();
    if (this.txFrontier.see(partition, slot, ++this.events)) this.forgetWrites();
  }

  onTransaction(subject: T, partition = -1): void {
    const { tx, scan } = subject;
    this.lastEventAt = Date.now();
    const at = ++this.events;
    if (this.txFrontier.see(partition, tx.slot, at)) this.forgetWrites();
    const sig = tx.signatures[0];
    if (sig === undefined || scan.failed || (scan.curve === undefined && scan.pool === undefined)) {
      this.emit(subject, undefined, undefined);
      return;
    }
    const s = keyId(sig);
    const curveKey = scan.curve && keyId(scan.curve);
    const poolKey = scan.pool && keyId(scan.pool);
    const p: Pending<T> = {
      subject,
      sig: s,
      slot: tx.slot,
      curveKey,
      poolKey,
      curve: curveKey === undefined ? undefined : this.take(s + curveKey),
      pool: poolKey === undefined ? undefined : this.take(s + poolKey),
      done: false,
    };
    if (this.complete(p)) {
      this.emit(subject, p.curve, p.pool);
      return;
    }
    // Its writes' partitions may all be past its slot already (the accounts topic read ahead): nothing to wait for.
    const low = this.accFrontier.low(at, this.staleEvents);
    if (low !== undefined && low > tx.slot) {
      this.release(p);
      return;
    }
    this.pending.set(s, p);
    this.pendingBySlot.add(tx.slot, p);
    while (this.pendingBySlot.size > this.maxPending) for (const q of this.pendingBySlot.takeLowest()) this.release(q);
  }

  onAccount(w: JoinWrite, partition = -1): void {
    this.lastEventAt = Date.now();
    const at = ++this.events;
    const moved = this.accFrontier.see(partition, w.slot, at);
    if (w.txnSignature !== undefined && w.txnSignature.length > 0) this.place(w);
    if (moved && this.pendingBySlot.size > 0) {
      const low = this.accFrontier.low(at, this.staleEvents);
      if (low !== undefined) for (const p of this.pendingBySlot.takeBelow(low)) this.release(p);
    }
  }

  private place(w: JoinWrite): void {
    const sig = keyId(w.txnSignature!);
    const pubkey = keyId(w.pubkey);
    const p = this.pending.get(sig);
    if (p && (p.curveKey === pubkey || p.poolKey === pubkey)) {
      if (p.curveKey === pubkey) p.curve = w.event;
      if (p.poolKey === pubkey) p.pool = w.event;
      if (this.complete(p)) {
        this.pending.delete(sig);
        p.done = true;
        this.emit(p.subject, p.curve, p.pool);
      }
      return;
    }
    const key = sig + pubkey;
    if (!this.writes.has(key)) this.writesBySlot.add(w.slot, { key, write: w });
    this.writes.set(key, w);
    while (this.writesBySlot.size > this.maxWrites) for (const r of this.writesBySlot.takeLowest()) this.writes.delete(r.key);
  }

  /** A remembered write, taken (each write joins one transaction: the one whose signature it carries). */
  private take(key: string): AccountEvent | undefined {
    const w = this.writes.get(key);
    if (w === undefined) return undefined;
    this.writes.delete(key);
    return w.event;
  }

  /** Forgets remembered writes whose transactions can no longer come (every transactions partition is past them). */
  private forgetWrites(): void {
    if (this.writesBySlot.size === 0) return;
    const low = this.txFrontier.low(this.events, this.staleEvents);
    if (low === undefined) return;
    for (const r of this.writesBySlot.takeBelow(low)) if (this.writes.get(r.key) === r.write) this.writes.delete(r.key);
  }

  private complete(p: Pending<T>): boolean {
    return (p.curveKey === undefined || p.curve !== undefined) && (p.poolKey === undefined || p.pool !== undefined);
  }

  /** Sends a waiting transaction with what it has (once). */
  private release(p: Pending<T>): void {
    if (p.done) return;
    p.done = true;
    this.pending.delete(p.sig);
    this.unjoined++;
    this.emit(p.subject, p.curve, p.pool);
  }

  private onIdleCheck(): void {
    if (this.pendingBySlot.size === 0 || Date.now() - this.lastEventAt < this.idleMs) return;
    for (const p of this.pendingBySlot.takeBelow(undefined)) this.release(p);
  }

  stop(): void {
    clearInterval(this.timer);
    this.pending.clear();
    this.pendingBySlot.clear();
    this.writes.clear();
    this.writesBySlot.clear();
  }
}

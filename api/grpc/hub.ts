// The stream hub of one api process: receives every live record from the live tail, matches it once
// against the filters of all Subscribe streams (FilterIndex: cost grows with the event's keys, not with
// the number of streams), builds its encoding once (SharedUpdate) and hands it to the matching streams.
// It also keeps the live slot statuses (for commitment), the server ping timer, and the SubscribeParsed
// feed, which joins each pump.fun transaction with the bonding-curve account update it wrote.
import { FilterIndex, keyId, type CompiledSubscription } from '../filters/index.js';
import { scanPumpTransaction } from '../pumpfun/parse-transaction.js';
import type { Instruction } from '../../proto/gen/stream.js';
import type { AccountEvent, SlotEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { encodeParsed, encodePing } from './encode.js';
import type { TailSink } from './live-tail.js';
import { SharedUpdate } from './shared-update.js';
import { combineStatus, takesPart } from './slot-status.js';

/** A Subscribe stream as the hub sees it. */
export interface LiveSubscriber {
  /** A live update matched `names` (sorted) of this stream's filters. */
  onLive(update: SharedUpdate, names: string[]): void;
  /** A live slot status change (only for streams that asked for a commitment above processed; levels and
   * terminal statuses only, see slot-status.ts). */
  onSlotStatus(slot: bigint, status: number): void;
  /** Server ping (bytes shared by all streams). */
  onPing(bytes: Buffer): void;
}

/** A SubscribeParsed stream as the hub sees it. */
export interface ParsedSubscriber {
  onParsed(slot: bigint, bytes: Buffer): void;
}

interface PendingParsed {
  tx: TransactionEvent;
  instructions: Instruction[];
  curve: string;
  deadline: number;
}

export interface HubOptions {
  pingIntervalMs: number;
  /** How long a parsed transaction waits for its bonding-curve account update (they travel on different topics). */
  parsedJoinMs?: number;
}

/** Live slot statuses kept this many slots behind the newest. */
const STATUS_WINDOW = 20_000n;

export class Hub implements TailSink {
  private readonly index = new FilterIndex<LiveSubscriber>();
  private readonly subscribers = new Set<LiveSubscriber>();
  private readonly gated = new Set<LiveSubscriber>();
  private readonly parsed = new Set<ParsedSubscriber>();
  private readonly statuses = new Map<bigint, number>();
  private newestStatusSlot = 0n;
  private readonly pendingParsed = new Map<string, PendingParsed>();
  /** Account writes by `txn signature + pubkey`, two generations, for accounts seen before their transaction. */
  private recentAccounts = new Map<string, AccountEvent>();
  private olderAccounts = new Map<string, AccountEvent>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly parsedJoinMs: number;

  constructor(o: HubOptions) {
    this.parsedJoinMs = o.parsedJoinMs ?? 1_000;
    this.timers.push(setInterval(() => this.ping(), o.pingIntervalMs));
    this.timers.push(
      setInterval(() => {
        this.expireParsed(Date.now());
        this.olderAccounts = this.recentAccounts;
        this.recentAccounts = new Map();
      }, Math.max(50, Math.floor(this.parsedJoinMs / 2))),
    );
    for (const t of this.timers) t.unref();
  }

  get streamCount(): number {
    return this.subscribers.size + this.parsed.size;
  }

  /** Status of a slot as the live tail knows it: a level or terminal (skipped, dead), combined by slot-status.ts. */
  statusOf = (slot: bigint): number | undefined => this.statuses.get(slot);

  /** Adds or replaces a stream's filters. Synchronous: callers snapshot the live positions right after. */
  register(s: LiveSubscriber, sub: CompiledSubscription): void {
    this.index.set(s, sub);
    this.subscribers.add(s);
    if (sub.commitment > 0) this.gated.add(s);
    else this.gated.delete(s);
  }

  /** A stream without filters still receives pings. */
  addIdle(s: LiveSubscriber): void {
    this.subscribers.add(s);
  }

  unregister(s: LiveSubscriber): void {
    this.index.delete(s);
    this.subscribers.delete(s);
    this.gated.delete(s);
  }

  addParsed(p: ParsedSubscriber): void {
    this.parsed.add(p);
  }

  removeParsed(p: ParsedSubscriber): void {
    this.parsed.delete(p);
    if (this.parsed.size === 0) {
      this.pendingParsed.clear();
      this.recentAccounts.clear();
      this.olderAccounts.clear();
    }
  }

  private ping(): void {
    if (this.subscribers.size === 0) return;
    const bytes = encodePing();
    for (const s of this.subscribers) s.onPing(bytes);
  }

  onTransaction(tx: TransactionEvent): void {
    if (this.index.size > 0) {
      const hits = this.index.matchTransaction(tx);
      if (hits.size > 0) {
        const u = new SharedUpdate({ kind: 'transaction', event: tx });
        for (const [s, names] of hits) s.onLive(u, names);
      }
    }
    if (this.parsed.size > 0) this.parseTransaction(tx);
  }

  onAccount(acc: AccountEvent): void {
    if (this.index.size > 0) {
      const hits = this.index.matchAccount(acc);
      if (hits.size > 0) {
        const u = new SharedUpdate({ kind: 'account', event: acc });
        for (const [s, names] of hits) s.onLive(u, names);
      }
    }
    if (this.parsed.size > 0 && acc.txnSignature) this.joinAccount(acc);
  }

  onSlot(ev: SlotEvent): void {
    // Progress statuses and gap records take part in no commitment (behaviour.md, "Slot statuses").
    if (!takesPart(ev.status)) return;
    const status = combineStatus(this.statuses.get(ev.slot), ev.status)!;
    this.statuses.set(ev.slot, status);
    if (ev.slot > this.newestStatusSlot) {
      this.newestStatusSlot = ev.slot;
      // Cheap amortized pruning: only when the map is well past its window.
      if (this.statuses.size > Number(STATUS_WINDOW) * 2) {
        const below = ev.slot - STATUS_WINDOW;
        for (const slot of this.statuses.keys()) if (slot < below) this.statuses.delete(slot);
      }
    }
    for (const s of this.gated) s.onSlotStatus(ev.slot, status);
  }

  // SubscribeParsed: a pump.fun transaction goes out once its bonding-curve write is known, or after
  // parsedJoinMs without it (a transaction may write no curve, e.g. when it failed).
  private parseTransaction(tx: TransactionEvent): void {
    const scan = scanPumpTransaction(tx);
    if (scan.instructions.length === 0) return;
    const curve = scan.bondingCurves[0];
    const sig = tx.signatures[0];
    if (curve === undefined || sig === undefined) {
      this.broadcastParsed(tx, scan.instructions, undefined);
      return;
    }
    const key = keyId(sig) + keyId(curve);
    const acc = this.recentAccounts.get(key) ?? this.olderAccounts.get(key);
    if (acc) {
      this.broadcastParsed(tx, scan.instructions, acc);
      return;
    }
    this.pendingParsed.set(keyId(sig), {
      tx,
      instructions: scan.instructions,
      curve: keyId(curve),
      deadline: Date.now() + this.parsedJoinMs,
    });
  }

  private joinAccount(acc: AccountEvent): void {
    const sig = keyId(acc.txnSignature!);
    const pubkey = keyId(acc.pubkey);
    const p = this.pendingParsed.get(sig);
    if (p && p.curve === pubkey) {
      this.pendingParsed.delete(sig);
      this.broadcastParsed(p.tx, p.instructions, acc);
      return;
    }
    this.recentAccounts.set(sig + pubkey, acc);
  }

  private expireParsed(now: number): void {
    for (const [sig, p] of this.pendingParsed) {
      if (p.deadline > now) continue;
      this.pendingParsed.delete(sig);
      this.broadcastParsed(p.tx, p.instructions, undefined);
    }
  }

  private broadcastParsed(tx: TransactionEvent, instructions: Instruction[], acc: AccountEvent | undefined): void {
    if (this.parsed.size === 0) return;
    const bytes = encodeParsed(tx, instructions, acc);
    for (const p of this.parsed) p.onParsed(tx.slot, bytes);
  }

  close(): void {
    for (const t of this.timers) clearInterval(t);
    this.subscribers.clear();
    this.gated.clear();
    this.parsed.clear();
  }
}

// Joins each parsed pump.fun/PumpSwap transaction with the account updates it wrote that SubscribeParsed
// carries: the bonding curve (pump.fun) and the pool (PumpSwap). They travel on different topics, so either
// may come first: a transaction waits up to `joinMs` for the writes it lacks, and writes carrying a
// signature are remembered for about as long for transactions that come second. Without a write (a failed
// transaction writes none, so it does not wait), the transaction goes out without it after `joinMs`.
// Transport-neutral: it is fed transactions (any subject carrying the transaction and its scan: the caller's
// handle, handed back on emit, e.g. one shared by every stream so the bytes are encoded once) and account
// writes, and calls `emit` once per transaction.
import type { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { keyId } from '../filters/index.js';
import type { ParsedScan } from './parsed-scan.js';

/** What the join is fed per transaction: the transaction and its parsed content (and whatever else the caller keeps). */
export interface JoinSubject {
  readonly tx: TransactionEvent;
  readonly scan: ParsedScan;
}

export type JoinedEmit<T extends JoinSubject = JoinSubject> = (
  subject: T,
  curve: AccountEvent | undefined,
  pool: AccountEvent | undefined,
) => void;

interface Pending<T> {
  subject: T;
  curveKey: string | undefined;
  poolKey: string | undefined;
  curve: AccountEvent | undefined;
  pool: AccountEvent | undefined;
  deadline: number;
}

export class PumpJoin<T extends JoinSubject = JoinSubject> {
  private readonly pending = new Map<string, Pending<T>>();
  /** Account writes by `txn signature + pubkey`, two generations, for accounts seen before their transaction. */
  private recent = new Map<string, AccountEvent>();
  private older = new Map<string, AccountEvent>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly emit: JoinedEmit<T>,
    private readonly joinMs = 1_000,
  ) {
    this.timer = setInterval(
      () => {
        this.expire(Date.now());
        this.older = this.recent;
        this.recent = new Map();
      },
      Math.max(50, Math.floor(joinMs / 2)),
    );
    this.timer.unref();
  }

  private seen(key: string): AccountEvent | undefined {
    return this.recent.get(key) ?? this.older.get(key);
  }

  onTransaction(subject: T): void {
    const { tx, scan } = subject;
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
      curveKey,
      poolKey,
      curve: curveKey === undefined ? undefined : this.seen(s + curveKey),
      pool: poolKey === undefined ? undefined : this.seen(s + poolKey),
      deadline: Date.now() + this.joinMs,
    };
    if (this.complete(p)) this.emit(subject, p.curve, p.pool);
    else this.pending.set(s, p);
  }

  onAccount(acc: AccountEvent): void {
    if (!acc.txnSignature) return;
    const sig = keyId(acc.txnSignature);
    const pubkey = keyId(acc.pubkey);
    const p = this.pending.get(sig);
    if (p && (p.curveKey === pubkey || p.poolKey === pubkey)) {
      if (p.curveKey === pubkey) p.curve = acc;
      if (p.poolKey === pubkey) p.pool = acc;
      if (this.complete(p)) {
        this.pending.delete(sig);
        this.emit(p.subject, p.curve, p.pool);
      }
      return;
    }
    this.recent.set(sig + pubkey, acc);
  }

  private complete(p: Pending<T>): boolean {
    return (p.curveKey === undefined || p.curve !== undefined) && (p.poolKey === undefined || p.pool !== undefined);
  }

  private expire(now: number): void {
    for (const [sig, p] of this.pending) {
      if (p.deadline > now) continue;
      this.pending.delete(sig);
      this.emit(p.subject, p.curve, p.pool);
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.pending.clear();
    this.recent.clear();
    this.older.clear();
  }
}

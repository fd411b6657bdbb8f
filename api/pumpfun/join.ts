// Joins each pump.fun transaction with the bonding-curve account update it wrote (SubscribeParsed's
// payload). They travel on different topics, so either may come first: a transaction waits up to
// `joinMs` for its curve's write, and writes carrying a signature are remembered for about as long for
// transactions that come second. Without the write (a failed transaction writes none), the transaction
// goes out alone after `joinMs`. Transport-neutral: it sees the live layer's decoded events and calls
// `emit` once per transaction.
import type { Instruction } from '../../proto/gen/stream.js';
import type { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { keyId } from '../filters/index.js';
import type { StreamEvent } from '../live/index.js';
import { scanPumpTransaction } from './parse-transaction.js';

export type JoinedEmit = (tx: TransactionEvent, instructions: Instruction[], curve: AccountEvent | undefined) => void;

interface Pending {
  tx: TransactionEvent;
  instructions: Instruction[];
  curve: string;
  deadline: number;
}

export class PumpJoin {
  private readonly pending = new Map<string, Pending>();
  /** Account writes by `txn signature + pubkey`, two generations, for accounts seen before their transaction. */
  private recent = new Map<string, AccountEvent>();
  private older = new Map<string, AccountEvent>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly emit: JoinedEmit,
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

  onEvent(e: StreamEvent): void {
    if (e.kind === 'transaction') this.onTransaction(e.event);
    else if (e.kind === 'account' && e.event.txnSignature) this.onAccount(e.event);
  }

  private onTransaction(tx: TransactionEvent): void {
    const scan = scanPumpTransaction(tx);
    if (scan.instructions.length === 0) return;
    const curve = scan.bondingCurves[0];
    const sig = tx.signatures[0];
    if (curve === undefined || sig === undefined) {
      this.emit(tx, scan.instructions, undefined);
      return;
    }
    const key = keyId(sig) + keyId(curve);
    const acc = this.recent.get(key) ?? this.older.get(key);
    if (acc) {
      this.emit(tx, scan.instructions, acc);
      return;
    }
    this.pending.set(keyId(sig), { tx, instructions: scan.instructions, curve: keyId(curve), deadline: Date.now() + this.joinMs });
  }

  private onAccount(acc: AccountEvent): void {
    const sig = keyId(acc.txnSignature!);
    const pubkey = keyId(acc.pubkey);
    const p = this.pending.get(sig);
    if (p && p.curve === pubkey) {
      this.pending.delete(sig);
      this.emit(p.tx, p.instructions, acc);
      return;
    }
    this.recent.set(sig + pubkey, acc);
  }

  private expire(now: number): void {
    for (const [sig, p] of this.pending) {
      if (p.deadline > now) continue;
      this.pending.delete(sig);
      this.emit(p.tx, p.instructions, undefined);
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.pending.clear();
    this.recent.clear();
    this.older.clear();
  }
}

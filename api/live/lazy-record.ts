// Transaction and account records as the live tail hands them on: scanned (schemas/scan.ts: slot, keys,
// flags, field positions) and decoded in full only when something asks for `event` (an adapter that
// needs the meta, an observer, a filter kind the scan does not serve). Matching and stream.Stream's
// re-framing work from the scan alone.
import type { Logger } from 'pino';
import { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { scanAccount, scanTransaction, type AccountScan, type TransactionScan } from '../../schemas/scan.js';
import { undecodableRecords } from './metrics.js';

export interface ScannedTransaction {
  readonly kind: 'transactions';
  readonly scan: TransactionScan;
  readonly event: TransactionEvent;
}

export interface ScannedAccount {
  readonly kind: 'accounts';
  readonly scan: AccountScan;
  readonly event: AccountEvent;
}

/**
 * A scan that passed can still hide a malformed nested message; the full decode then falls back to the
 * fields the scan read (counted and logged once per record), so one bad record cannot stop the feed.
 */
function decodeOr<T>(topic: string, log: Logger, decode: () => T, fallback: () => T): T {
  try {
    return decode();
  } catch (err) {
    undecodableRecords.inc({ topic });
    log.warn({ topic, reason: (err as Error).message }, 'record scanned but not decodable in full; using its scanned fields');
    return fallback();
  }
}

/** How one kind of record decodes in full, and what it falls back to from its scan. */
interface FullDecode<S, E> {
  decode(bytes: Buffer): E;
  fromScan(scan: S): E;
}

const TRANSACTION: FullDecode<TransactionScan, TransactionEvent> = {
  decode: (bytes) => TransactionEvent.decode(bytes),
  fromScan: (scan) =>
    TransactionEvent.fromPartial({
      slot: scan.slot,
      signatures: [...scan.signatures],
      accountKeys: [...scan.accountKeys],
      loadedWritable: [...scan.loadedWritable],
      loadedReadonly: [...scan.loadedReadonly],
      isVote: scan.isVote,
    }),
};

const ACCOUNT: FullDecode<AccountScan, AccountEvent> = {
  decode: (bytes) => AccountEvent.decode(bytes),
  fromScan: (scan) =>
    AccountEvent.fromPartial({
      slot: scan.slot,
      pubkey: scan.pubkey,
      owner: scan.owner,
      lamports: scan.lamports,
      data: scan.data,
      txnSignature: scan.txnSignature,
    }),
};

// A class rather than an object literal with a getter: one is made for every record the tail reads, and a
// literal's getter is a new closure per record (measurable in the tail's garbage collection).
class LazyRecord<K extends 'transactions' | 'accounts', S extends { readonly bytes: Buffer }, E> {
  private decoded: E | undefined;

  constructor(
    readonly kind: K,
    readonly scan: S,
    private readonly topic: string,
    private readonly log: Logger,
    private readonly full: FullDecode<S, E>,
  ) {}

  get event(): E {
    return (this.decoded ??= decodeOr(
      this.topic,
      this.log,
      () => this.full.decode(this.scan.bytes),
      () => this.full.fromScan(this.scan),
    ));
  }
}

export function scannedTransaction(bytes: Buffer, topic: string, log: Logger): ScannedTransaction {
  return new LazyRecord('transactions', scanTransaction(bytes), topic, log, TRANSACTION);
}

export function scannedAccount(bytes: Buffer, topic: string, log: Logger): ScannedAccount {
  return new LazyRecord('accounts', scanAccount(bytes), topic, log, ACCOUNT);
}

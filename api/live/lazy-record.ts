// Transaction and account records as the live tail and a from_slot replay hand them on: scanned
// (schemas/scan.ts: slot, keys, flags, field positions) and decoded in full only when something asks for
// `event` (an adapter that needs the meta, an observer, a filter kind the scan does not serve). Matching and
// stream.Stream's re-framing work from the scan alone. The record is also the update sessions get
// (shared-event.ts): its kind is the update's kind, so nothing wraps it on the way.
import type { Logger } from 'pino';
import { AccountEvent, TransactionEvent } from '../../schemas/gen/events.js';
import { scanAccount, scanTransaction, type AccountScan, type TransactionScan } from '../../schemas/scan.js';
import { undecodableRecords } from './metrics.js';

/** Where a record was read: its topic (for logs and metrics) and partition. */
export interface ReadFrom {
  readonly topic: string;
  readonly partition: number;
}

export interface TransactionRecord {
  readonly kind: 'transaction';
  readonly partition: number;
  readonly slot: bigint;
  readonly scan: TransactionScan;
  readonly event: TransactionEvent;
}

export interface AccountRecord {
  readonly kind: 'account';
  readonly partition: number;
  readonly slot: bigint;
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
class LazyRecord<K extends 'transaction' | 'account', S extends { readonly bytes: Buffer; readonly slot: bigint }, E> {
  private decoded: E | undefined;
  readonly partition: number;
  /** Copied, not `from` kept: the Kafka record (key, headers) need not live as long as this does. */
  private readonly topic: string;

  constructor(
    readonly kind: K,
    readonly scan: S,
    from: ReadFrom,
    private readonly log: Logger,
    private readonly full: FullDecode<S, E>,
  ) {
    this.topic = from.topic;
    this.partition = from.partition;
  }

  get slot(): bigint {
    return this.scan.slot;
  }

  get event(): E {
    return (this.decoded ??= decodeOr(
      this.topic,
      this.log,
      () => this.full.decode(this.scan.bytes),
      () => this.full.fromScan(this.scan),
    ));
  }
}

/** A transaction record read from `from` (a Kafka record: its topic and partition); throws when it does not scan. */
export function scannedTransaction(bytes: Buffer, from: ReadFrom, log: Logger): TransactionRecord {
  return new LazyRecord('transaction', scanTransaction(bytes), from, log, TRANSACTION);
}

/** An account record read from `from`; throws when it does not scan. */
export function scannedAccount(bytes: Buffer, from: ReadFrom, log: Logger): AccountRecord {
  return new LazyRecord('account', scanAccount(bytes), from, log, ACCOUNT);
}

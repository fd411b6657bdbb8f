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

// Classes rather than object literals with getters: one of each is made for every record the tail reads,
// and a literal's getter is a new closure per record (measurable in the tail's garbage collection).
class LazyTransaction implements ScannedTransaction {
  readonly kind = 'transactions' as const;
  private decoded: TransactionEvent | undefined;

  constructor(
    readonly scan: TransactionScan,
    private readonly topic: string,
    private readonly log: Logger,
  ) {}

  get event(): TransactionEvent {
    const scan = this.scan;
    return (this.decoded ??= decodeOr(
      this.topic,
      this.log,
      () => TransactionEvent.decode(scan.bytes),
      () =>
        TransactionEvent.fromPartial({
          slot: scan.slot,
          signatures: [...scan.signatures],
          accountKeys: [...scan.accountKeys],
          loadedWritable: [...scan.loadedWritable],
          loadedReadonly: [...scan.loadedReadonly],
          isVote: scan.isVote,
        }),
    ));
  }
}

class LazyAccount implements ScannedAccount {
  readonly kind = 'accounts' as const;
  private decoded: AccountEvent | undefined;

  constructor(
    readonly scan: AccountScan,
    private readonly topic: string,
    private readonly log: Logger,
  ) {}

  get event(): AccountEvent {
    const scan = this.scan;
    return (this.decoded ??= decodeOr(
      this.topic,
      this.log,
      () => AccountEvent.decode(scan.bytes),
      () =>
        AccountEvent.fromPartial({
          slot: scan.slot,
          pubkey: scan.pubkey,
          owner: scan.owner,
          lamports: scan.lamports,
          data: scan.data,
          txnSignature: scan.txnSignature,
        }),
    ));
  }
}

export function scannedTransaction(bytes: Buffer, topic: string, log: Logger): ScannedTransaction {
  return new LazyTransaction(scanTransaction(bytes), topic, log);
}

export function scannedAccount(bytes: Buffer, topic: string, log: Logger): ScannedAccount {
  return new LazyAccount(scanAccount(bytes), topic, log);
}

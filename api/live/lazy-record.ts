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

export function scannedTransaction(bytes: Buffer, topic: string, log: Logger): ScannedTransaction {
  const scan = scanTransaction(bytes);
  let event: TransactionEvent | undefined;
  return {
    kind: 'transactions',
    scan,
    get event(): TransactionEvent {
      return (event ??= decodeOr(
        topic,
        log,
        () => TransactionEvent.decode(bytes),
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
    },
  };
}

export function scannedAccount(bytes: Buffer, topic: string, log: Logger): ScannedAccount {
  const scan = scanAccount(bytes);
  let event: AccountEvent | undefined;
  return {
    kind: 'accounts',
    scan,
    get event(): AccountEvent {
      return (event ??= decodeOr(
        topic,
        log,
        () => AccountEvent.decode(bytes),
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
    },
  };
}

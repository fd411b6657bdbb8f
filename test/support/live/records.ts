// Test helpers: the records the live tail and a replay hand on (api/live/stream-event.ts), built from events as
// a reader would read them (transactions and accounts encoded, then scanned), from partition 0 unless told
// (slot and entry records: slotRecord and entryRecord in api/live/stream-event.ts).
import { silentLogger, type Logger } from '../../../platform/log.js';
import { AccountEvent, TransactionEvent } from '../../../schemas/gen/events.js';
import { scannedAccount, scannedTransaction } from '../../../api/live/lazy-record.js';
import type { AccountRecord, TransactionRecord } from '../../../api/live/stream-event.js';

export function txRecord(event: TransactionEvent, partition = 0, log: Logger = silentLogger): TransactionRecord {
  const bytes = Buffer.from(TransactionEvent.encode(event).finish());
  return scannedTransaction(bytes, { topic: 'transactions', partition }, log);
}

export function accountRecord(event: AccountEvent, partition = 0, log: Logger = silentLogger): AccountRecord {
  const bytes = Buffer.from(AccountEvent.encode(event).finish());
  return scannedAccount(bytes, { topic: 'accounts', partition }, log);
}

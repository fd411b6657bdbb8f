// The transaction as SubscribeParsed reads it, decoded from the record's bytes without the fields it never
// reads. A transaction record carries its meta's bulk (log messages, lamport and token balances, memos,
// return data, rewards, the lookup tables, a v1 config); decoding all of it in full cost more than the pump
// decode, the proto messages and the encoding together (a profile of one SubscribeParsed stream, issue 20).
// The record's top-level fields (schemas/scan.ts's field table) are copied without those, then decoded by
// the generated decoder: every field SubscribeParsed reads decodes exactly as in the full event.
import { TransactionEvent } from '../../../schemas/gen/events.js';
import type { TransactionScan } from '../../../schemas/scan.js';

// schemas/events.proto TransactionEvent: address_table_lookups 11, memos 17, pre/post balances 19-20,
// pre/post token balances 21-22, log_messages 24, return_data 26, rewards 29, transaction_config 32.
const SKIP: readonly boolean[] = (() => {
  const s = new Array<boolean>(64).fill(false);
  for (const f of [11, 17, 19, 20, 21, 22, 24, 26, 29, 32]) s[f] = true;
  return s;
})();

/** The transaction without the fields SubscribeParsed never reads (they decode as empty/absent). */
export function parsedTransactionOf(scan: TransactionScan): TransactionEvent {
  const bytes = scan.bytes;
  const f = scan.fields;
  // A field's tag starts where the field before it ends: the table's ranges tile the record.
  let keep = 0;
  let prev = 0;
  for (let i = 0; i < f.length; i += 3) {
    const end = f[i + 2]!;
    if (!SKIP[f[i]!]) keep += end - prev;
    prev = end;
  }
  if (keep === bytes.length) return TransactionEvent.decode(bytes);
  const out = Buffer.allocUnsafe(keep);
  let at = 0;
  prev = 0;
  for (let i = 0; i < f.length; i += 3) {
    const end = f[i + 2]!;
    if (!SKIP[f[i]!]) at += bytes.copy(out, at, prev, end);
    prev = end;
  }
  return TransactionEvent.decode(out);
}

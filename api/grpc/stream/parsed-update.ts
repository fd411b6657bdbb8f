// One parsed transaction as every SubscribeParsed stream sees it: decoded once (its ParsedScan) and encoded
// once per join outcome, shared through the transaction's SharedEvent (api/live/shared-event.ts), the way
// Subscribe shares one body per update (stream-body.ts). The bytes depend on which curve and pool writes a
// stream joined; streams of one live feed see the same account writes (the same objects, from the same
// shared account update), so almost always there is one outcome and one encoding for all of them. A stream
// whose join differs (a write it did not see, a replay's own copies) gets its own, cached beside.
import type { AccountEvent, TransactionEvent } from '../../../schemas/gen/events.js';
import type { TransactionScan } from '../../../schemas/scan.js';
import type { SharedEvent } from '../../live/index.js';
import { scanParsedTransaction, type ParsedScan } from '../../../schemas/pumpfun/parsed-scan.js';
import type { JoinSubject } from '../../pumpfun/join.js';
import { encodeParsed } from '../../../schemas/pumpfun/encode-parsed.js';
import { parsedTransactionOf } from './parsed-transaction.js';

interface Encoding {
  readonly curve: AccountEvent | undefined;
  readonly pool: AccountEvent | undefined;
  readonly bytes: Buffer;
}

export class ParsedUpdate implements JoinSubject {
  readonly scan: ParsedScan;
  /** Encodings by join outcome (compared by identity); usually one. */
  private encodings: Encoding[] = [];

  constructor(readonly tx: TransactionEvent) {
    this.scan = scanParsedTransaction(tx);
  }

  /** Whether the transaction holds anything SubscribeParsed can send (a decoded instruction or event). */
  get hasContent(): boolean {
    return this.scan.instructions.length > 0 || this.scan.events.length > 0;
  }

  /** The complete SubscribeUpdateParsedTransaction with these joined writes, encoded on first use. */
  bytes(curve: AccountEvent | undefined, pool: AccountEvent | undefined): Buffer {
    for (const e of this.encodings) if (e.curve === curve && e.pool === pool) return e.bytes;
    const bytes = encodeParsed(this.tx, this.scan, curve, pool);
    this.encodings.push({ curve, pool, bytes });
    return bytes;
  }
}

const KEY = 'parsed';

/** The transaction SubscribeParsed reads: from the record's bytes without the meta's bulk (parsed-transaction.ts)
 * when there is a record, else the event. A record that scanned but does not decode falls back to its full
 * decode path (the lazy record's, which counts and logs it). */
function transactionOf(live: TransactionUpdate): TransactionEvent {
  if (live.scan === undefined) return live.event;
  try {
    return parsedTransactionOf(live.scan);
  } catch {
    return live.event;
  }
}

/** A transaction update as the live layer hands it (`SharedEvent.live` of kind `transaction`). */
export interface TransactionUpdate {
  readonly event: TransactionEvent;
  readonly scan?: TransactionScan;
}

/** The shared parsed form of a transaction update `live` (`u.live`), built by the first stream that asks. */
export function parsedUpdateOf(u: SharedEvent, live: TransactionUpdate): ParsedUpdate {
  return u.encoded(KEY, () => new ParsedUpdate(transactionOf(live)));
}

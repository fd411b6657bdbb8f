// The records the live layer reads from the stream topics, as the live tail and a from_slot replay both hand
// them on (one reading, one shape: live-tail.ts, replay.ts): each with its kind, the partition it was read
// from and its slot. The kinds are the update kinds sessions get (shared-event.ts), so a transaction,
// account or entry record IS its live update, and a slot record is its own slot status update. Transactions
// and accounts come scanned and decode in full only on demand (lazy-record.ts); parsed records are read with
// their bytes left in the record (scanParsedRecord); slot records and entries are small and decoded at once.
import type { Logger } from 'pino';
import type { InRecord } from '../../platform/kafka/index.js';
import { EntryEvent, SlotEvent, type ParsedTransactionEvent } from '../../schemas/gen/events.js';
import { scanParsedRecord } from '../../schemas/scan.js';
import type { TopicKind, TopicNames } from '../../schemas/topics.js';
import { scannedAccount, scannedTransaction, type AccountRecord, type TransactionRecord } from './lazy-record.js';
import { undecodableRecords } from './metrics.js';

export type { AccountRecord, TransactionRecord } from './lazy-record.js';

/** A decoded slot or entry record (a class: one is made per record read). */
export class ChainRecord<K extends 'slot' | 'entry' | 'parsed', E extends { readonly slot: bigint }> {
  constructor(
    readonly kind: K,
    readonly event: E,
    readonly partition: number,
  ) {}

  get slot(): bigint {
    return this.event.slot;
  }
}

export type SlotRecord = ChainRecord<'slot', SlotEvent>;
export type EntryRecord = ChainRecord<'entry', EntryEvent>;
/** A SubscribeParsed update the ingest built (the parsed topic, ingest/publish/parsed-slot.ts). */
export type ParsedRecord = ChainRecord<'parsed', ParsedTransactionEvent>;

/** What the live layer streams (epoch records are read by nobody here). */
export type StreamEvent = TransactionRecord | AccountRecord | SlotRecord | EntryRecord | ParsedRecord;
/** The records that are updates as they are (everything but slot records, whose statuses the readers rank first). */
export type DataRecord = Exclude<StreamEvent, SlotRecord>;

export function slotRecord(event: SlotEvent, partition: number): SlotRecord {
  return new ChainRecord('slot', event, partition);
}

export function entryRecord(event: EntryEvent, partition: number): EntryRecord {
  return new ChainRecord('entry', event, partition);
}

export const STREAM_KINDS: readonly TopicKind[] = ['transactions', 'accounts', 'slots', 'entries', 'parsed'];

/** Topic name -> kind, for `kinds` (default: every stream kind). */
export function streamTopics(topics: TopicNames, kinds: readonly TopicKind[] = STREAM_KINDS): Map<string, TopicKind> {
  return new Map(kinds.map((k) => [topics[k], k]));
}

/** The topic kind a record was read from (what a slot's end marker counts, frame-gate.ts). */
export const TOPIC_KIND: { readonly [K in StreamEvent['kind']]: TopicKind } = {
  transaction: 'transactions',
  account: 'accounts',
  slot: 'slots',
  entry: 'entries',
  parsed: 'parsed',
};

/**
 * The record `r` of a topic of `kind` (transactions and accounts: scanned; slots and entries: decoded). An
 * unreadable one is logged (its message starting with `who`) and counted, never fatal: undefined.
 */
export function readRecord(kind: TopicKind, r: InRecord, log: Logger, who = ''): StreamEvent | undefined {
  const value = r.value;
  if (value === null) return skip(r, log, who, 'record has no value (tombstone)');
  try {
    switch (kind) {
      case 'transactions':
        return scannedTransaction(value, r, log);
      case 'accounts':
        return scannedAccount(value, r, log);
      case 'slots':
        return slotRecord(SlotEvent.decode(value), r.partition);
      case 'entries':
        return entryRecord(EntryEvent.decode(value), r.partition);
      case 'parsed':
        return new ChainRecord('parsed', scanParsedRecord(value), r.partition);
      default:
        return undefined;
    }
  } catch (err) {
    const scanned = kind === 'transactions' || kind === 'accounts';
    return skip(r, log, who, scanned ? (err as Error).message : `undecodable ${kind} record: ${(err as Error).message}`, scanned);
  }
}

function skip(r: InRecord, log: Logger, who: string, reason: string, scanned = false): undefined {
  undecodableRecords.inc({ topic: r.topic });
  log.warn(
    { topic: r.topic, partition: r.partition, offset: r.offset.toString(), reason },
    `${who}skipping ${scanned ? 'unscannable' : 'undecodable'} record`,
  );
  return undefined;
}

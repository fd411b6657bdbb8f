// Record codecs: the event model (generated from events.proto) to Kafka key and value bytes and back.
// Consumers decode through `decodeRecord`, which never throws: a poison record becomes a typed error
// the caller can dead-letter.
import {
  AccountEvent,
  EntryEvent,
  EpochEvent,
  ParsedTransactionEvent,
  SlotEvent,
  TransactionEvent,
  UpstreamVersion,
} from './gen/events.js';
import { encodeMessage } from './proto-writer.js';
import { pubkeyKey, u64Key, type TopicKind } from './topics.js';

export { AccountEvent, EntryEvent, EpochEvent, ParsedTransactionEvent, SlotEvent, TransactionEvent, UpstreamVersion };
export {
  SlotStatus,
  BlockMeta,
  CompiledInstruction,
  AddressTableLookup,
  TokenBalance,
  InnerInstructions,
  InnerInstruction,
  ReturnData,
  Reward,
  RewardType,
  SlotGap,
  SlotEnd,
  PartitionCount,
  TransactionConfig,
} from './gen/events.js';

export type ChainEvent =
  | { kind: 'transactions'; event: TransactionEvent }
  | { kind: 'accounts'; event: AccountEvent }
  | { kind: 'slots'; event: SlotEvent }
  | { kind: 'entries'; event: EntryEvent }
  | { kind: 'epochs'; event: EpochEvent };

/** What a topic record holds: a chain event, or a SubscribeParsed update the ingest derives from them once a
 * slot is whole (ingest/publish/parsed-slot.ts). Sources emit chain events only. */
export type RecordEvent = ChainEvent | { kind: 'parsed'; event: ParsedTransactionEvent };

export type EventOf<K extends ChainEvent['kind']> = Extract<ChainEvent, { kind: K }>['event'];

export interface EncodedRecord {
  key: Buffer;
  value: Buffer;
}

export function encodeRecord(e: RecordEvent): EncodedRecord {
  switch (e.kind) {
    case 'transactions':
      return { key: u64Key(e.event.slot), value: encodeMessage(TransactionEvent, e.event) };
    case 'accounts':
      return { key: pubkeyKey(e.event.pubkey), value: encodeMessage(AccountEvent, e.event) };
    case 'slots':
      return { key: u64Key(e.event.slot), value: encodeMessage(SlotEvent, e.event) };
    case 'entries':
      return { key: u64Key(e.event.slot), value: encodeMessage(EntryEvent, e.event) };
    case 'epochs':
      return { key: u64Key(e.event.epoch), value: encodeMessage(EpochEvent, e.event) };
    case 'parsed':
      return { key: u64Key(e.event.slot), value: encodeMessage(ParsedTransactionEvent, e.event) };
  }
}

export type DecodeResult<E = RecordEvent> = { ok: true; value: E } | { ok: false; reason: string };

/** Decodes a record value of the given topic kind; never throws. */
export function decodeRecord(kind: ChainEvent['kind'], value: Buffer | null): DecodeResult<ChainEvent>;
export function decodeRecord(kind: TopicKind, value: Buffer | null): DecodeResult;
export function decodeRecord(kind: TopicKind, value: Buffer | null): DecodeResult {
  if (value === null) return { ok: false, reason: 'record has no value (tombstone)' };
  try {
    switch (kind) {
      case 'transactions':
        return { ok: true, value: { kind, event: TransactionEvent.decode(value) } };
      case 'accounts':
        return { ok: true, value: { kind, event: AccountEvent.decode(value) } };
      case 'slots':
        return { ok: true, value: { kind, event: SlotEvent.decode(value) } };
      case 'entries':
        return { ok: true, value: { kind, event: EntryEvent.decode(value) } };
      case 'epochs':
        return { ok: true, value: { kind, event: EpochEvent.decode(value) } };
      case 'parsed':
        return { ok: true, value: { kind, event: ParsedTransactionEvent.decode(value) } };
      default:
        return { ok: false, reason: `no decoder for topic kind ${kind}` };
    }
  } catch (err) {
    return { ok: false, reason: `undecodable ${kind} record: ${(err as Error).message}` };
  }
}

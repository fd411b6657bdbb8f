// Topic names and record keys: the one place that knows how events map onto Kafka.
// Keys give per-slot order for transactions, slots and entries, per-account order for accounts.
import { asBuffer } from './bytes.js';

export type TopicKind = 'transactions' | 'accounts' | 'slots' | 'entries' | 'epochs' | 'parsed' | 'deadletter';

/** A topic of chain records: every one but the dead letters. */
export type RecordKind = Exclude<TopicKind, 'deadletter'>;

/** Every topic the ingest publishes records to, and so every one the projector reads. Entries and parsed feed no
 * view; the projector reads them for the replay index alone (slot_offsets), so a from_slot replay starts at its slot
 * in them too. */
export const RECORD_KINDS: readonly RecordKind[] = ['transactions', 'accounts', 'slots', 'entries', 'epochs', 'parsed'];

/** Full topic names for a prefix (default `solana`): `<prefix>.<kind>.v1`. */
export type TopicNames = Readonly<Record<TopicKind, string>>;

export function topicNames(prefix = 'solana'): TopicNames {
  return {
    transactions: `${prefix}.transactions.v1`,
    accounts: `${prefix}.accounts.v1`,
    slots: `${prefix}.slots.v1`,
    entries: `${prefix}.entries.v1`,
    epochs: `${prefix}.epochs.v1`,
    parsed: `${prefix}.parsed.v1`,
    deadletter: `${prefix}.deadletter.v1`,
  };
}

/**
 * The api's durable stream cursors (compacted: key = cursor name, value = cursor-record.ts, no value = deleted),
 * beside the chain topics under the same prefix: `<prefix>.cursors.v1`. Not a TopicKind: no chain data, no
 * projector, one partition, compacted instead of time-retained.
 */
export function cursorsTopic(topics: TopicNames): string {
  return topics.slots.replace(/slots\.v1$/, 'cursors.v1');
}

/** u64 as 8 bytes big-endian, so keys sort like the numbers (slot, epoch). */
export function u64Key(value: bigint): Buffer {
  const key = Buffer.allocUnsafe(8);
  key.writeBigUInt64BE(value);
  return key;
}

export function readU64Key(key: Buffer): bigint {
  if (key.length !== 8) throw new Error(`expected an 8-byte u64 key, got ${key.length} bytes`);
  return key.readBigUInt64BE(0);
}

/** Account records are keyed by the raw 32-byte pubkey. */
export function pubkeyKey(pubkey: Uint8Array): Buffer {
  if (pubkey.length !== 32) throw new Error(`expected a 32-byte pubkey key, got ${pubkey.length} bytes`);
  return asBuffer(pubkey);
}

/** The key of one partition of one kind's topic (`kind:partition`): the framer counts a slot's records by it, and the
 * api's readers match those counts and note where they started late under the same key. */
export const kindPartitionKey = (kind: string, partition: number): string => `${kind}:${partition}`;

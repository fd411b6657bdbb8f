// Records the topics cannot take go to the dead-letter topic instead, with the reason, so one
// oversized upstream record (an account over the topic limit, a huge transaction) never stops the
// ingest and is never dropped silently. Pure: decides, the publisher sends.
import { MAX_MESSAGE_BYTES, RECORD_OVERHEAD_BYTES } from '../../platform/kafka/topics.js';
import { u64Key, type TopicKind } from '../../schemas/topics.js';

export interface DeadLetterRecord {
  key: Buffer;
  value: Buffer;
  headers: Record<string, string>;
}

/** The largest key + value a topic of this kind accepts. */
export const recordLimit = (kind: TopicKind): number => MAX_MESSAGE_BYTES[kind] - RECORD_OVERHEAD_BYTES;

/** Undefined when the record fits its topic; otherwise the dead letter to publish in its place. A value
 * too large for the dead-letter topic too is cut to what fits, and the header says how large it was. */
export function oversizedRecord(kind: TopicKind, topic: string, slot: bigint, key: Buffer, value: Buffer): DeadLetterRecord | undefined {
  const size = key.length + value.length;
  const limit = recordLimit(kind);
  if (size <= limit) return undefined;
  const room = recordLimit('deadletter') - key.length - 1024;
  const kept = value.length > room ? value.subarray(0, Math.max(0, room)) : value;
  return {
    key,
    value: kept,
    headers: {
      'slotstream-reason': `record of ${size} bytes is over the ${limit}-byte limit of ${topic}`,
      'slotstream-topic': topic,
      'slotstream-slot': slot.toString(),
      ...(kept.length < value.length ? { 'slotstream-truncated-from': String(value.length) } : {}),
    },
  };
}

export interface Unconvertible {
  /** Where the record would have gone (the topic's full name). */
  topic: string;
  slot: bigint | undefined;
  reason: string;
  /** base58, for a transaction (or an account write's transaction). */
  signature?: string | undefined;
  /** The upstream's data as it came (a Yellowstone SubscribeUpdate's bytes, a getBlock transaction's JSON). */
  value: Buffer;
  /** What `value` is, for whoever reads the dead letters back. */
  format: string;
}

/** The dead letter of upstream data the source could not convert: the data as it came, keyed by slot, with
 * the reason and where it was going. Cut to what the dead-letter topic takes, like an oversized record. */
export function unconvertibleRecord(u: Unconvertible): DeadLetterRecord {
  // No slot (an update too broken to name one): the zero key, so such letters still share a partition key.
  const key = u64Key(u.slot ?? 0n);
  const room = recordLimit('deadletter') - key.length - 1024 - u.reason.length;
  const kept = u.value.length > room ? u.value.subarray(0, Math.max(0, room)) : u.value;
  return {
    key,
    value: kept,
    headers: {
      'slotstream-reason': `unconvertible: ${u.reason}`,
      'slotstream-topic': u.topic,
      'slotstream-slot': u.slot === undefined ? '' : u.slot.toString(),
      'slotstream-format': u.format,
      ...(u.signature !== undefined ? { 'slotstream-signature': u.signature } : {}),
      ...(kept.length < u.value.length ? { 'slotstream-truncated-from': String(u.value.length) } : {}),
    },
  };
}

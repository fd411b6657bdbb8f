// Records the topics cannot take go to the dead-letter topic instead, with the reason, so one
// oversized upstream record (an account over the topic limit, a huge transaction) never stops the
// ingest and is never dropped silently. Pure: decides, the publisher sends.
import { MAX_MESSAGE_BYTES, RECORD_OVERHEAD_BYTES } from '../platform/kafka/index.js';
import type { TopicKind } from '../schemas/topics.js';

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

// Dead letters: records that cannot be projected go to `<prefix>.deadletter.v1` unchanged (same key
// and value), with headers naming where they came from and why, so they can be inspected and replayed.
import type { Kafka, PlainRecord } from '../platform/kafka/index.js';
import type { DeadLetter } from './slice.js';

/** Pure: the dead-letter record of a rejected record. */
export function deadLetterMessage(topic: string, d: DeadLetter): PlainRecord {
  return {
    topic,
    key: d.key,
    value: d.value,
    headers: {
      'slotstream-reason': d.reason,
      'slotstream-topic': d.topic,
      'slotstream-partition': String(d.partition),
      'slotstream-offset': d.offset,
    },
  };
}

export interface DeadLetterSink {
  /** Resolves once the broker acknowledged every record (acks from all in-sync replicas). */
  send(letters: readonly DeadLetter[]): Promise<void>;
  close(): Promise<void>;
}

export async function createDeadLetterSink(kafka: Kafka, topic: string): Promise<DeadLetterSink> {
  // Idempotent: a retried send after a lost acknowledgement does not write the letter twice.
  const producer = await kafka.producer();
  return {
    send: (letters) => producer.send(letters.map((d) => deadLetterMessage(topic, d))),
    close: () => producer.close(),
  };
}

// "The same records" as behaviour.md ("Equality in tests") defines it: per partition, the sequences of
// (key, value) are equal (offsets, timestamps and transaction markers ignored); epoch records compare
// by their schedules, not by their bytes.
import { EpochEvent } from '../../../schemas/codec.js';
import type { TopicKind, TopicNames } from '../../../schemas/topics.js';
import type { Kafka } from '../../../platform/kafka/index.js';
import { firstDifference, readTopics, type ReadRecord } from './read-topics.js';

export type RecordsByKind = Partial<Record<TopicKind, ReadRecord[][]>>;

/** Every committed record of the named kinds' topics, per partition in offset order. */
export async function readKinds(kafka: Kafka, topics: TopicNames, kinds: readonly TopicKind[]): Promise<RecordsByKind> {
  const contents = await readTopics(
    kafka,
    kinds.map((k) => topics[k]),
  );
  return Object.fromEntries(kinds.map((k) => [k, contents.get(topics[k])!]));
}

/** An epoch record's schedule as comparable bytes: epoch, first slot, lengths, identities, leader slots. */
function scheduleOf(r: ReadRecord): ReadRecord {
  const e = EpochEvent.decode(r.value);
  const schedule = JSON.stringify([
    String(e.epoch),
    String(e.firstSlot),
    String(e.slotsPerEpoch),
    String(e.slotsPerLeader),
    e.identities.map((k) => Buffer.from(k).toString('hex')),
    e.schedule,
  ]);
  return { offset: r.offset, key: r.key, value: Buffer.from(schedule) };
}

/** Where two topic sets first differ under that equality, or undefined when they hold the same records. */
export function recordsDifference(got: RecordsByKind, want: RecordsByKind): string | undefined {
  const norm = (c: RecordsByKind): Record<string, ReadRecord[][]> =>
    Object.fromEntries(Object.entries(c).map(([kind, parts]) => [kind, kind === 'epochs' ? parts.map((p) => p.map(scheduleOf)) : parts]));
  return firstDifference(norm(got), norm(want));
}

export const recordCount = (c: RecordsByKind): number =>
  Object.values(c).reduce((n, parts) => n + parts.reduce((m, p) => m + p.length, 0), 0);

// A snapshot of topics that keep moving: every committed record below end offsets listed once, with
// no wait for the ends to stand still (read-topics.ts waits for that, which never happens while a
// producer publishes). Topics are listed in the order given: a record below the end listed for an
// earlier topic was committed before the later topics were listed, so whatever was committed with it
// or before it (in one transaction, or earlier) is in the snapshot too. List the slots topic first and
// a slot whose end marker is in the snapshot is whole in it.
import { OffsetMap, type Kafka } from '../../../platform/kafka/index.js';
import type { ReadRecord, TopicContents } from './read-topics.js';

export async function snapshotTopics(kafka: Kafka, topicsInOrder: readonly string[], timeoutMs = 120_000): Promise<TopicContents> {
  const out: TopicContents = new Map();
  const start = new OffsetMap();
  const ends = new OffsetMap();
  for (const topic of topicsInOrder) {
    const ranges = await kafka.admin().offsetRanges(topic);
    const parts: ReadRecord[][] = [];
    for (const [partition, r] of ranges) {
      parts[partition] = [];
      start.set(topic, partition, r.low);
      if (r.high > r.low) ends.set(topic, partition, r.high);
    }
    out.set(topic, parts);
  }
  if (ends.size === 0) return out;
  const pending = ends.copy();
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const reader = await kafka.partitionReader({
    topics: topicsInOrder,
    start,
    purpose: 'test-snapshot',
    onRecords(records) {
      for (const r of records) {
        const end = ends.get(r.topic, r.partition);
        if (end === undefined || r.offset >= end) continue;
        out.get(r.topic)![r.partition]!.push({ offset: r.offset, key: r.key ?? Buffer.alloc(0), value: r.value ?? Buffer.alloc(0) });
      }
    },
    // The end may be a transaction marker, which only the position passes.
    onPosition(topic, partition, next) {
      const end = pending.get(topic, partition);
      if (end !== undefined && next >= end) {
        pending.delete(topic, partition);
        if (pending.size === 0) finish();
      }
    },
  });
  const timer = setTimeout(
    () =>
      fail(
        new Error(
          `snapshot of ${topicsInOrder.join(', ')}: ${[...pending].map(([t, p]) => `${t}:${p}`).join(', ')} not read to the listed end in ${timeoutMs} ms`,
        ),
      ),
    timeoutMs,
  );
  try {
    await finished;
  } finally {
    clearTimeout(timer);
    await reader.stop();
  }
  return out;
}

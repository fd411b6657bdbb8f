// Reads whole topics back for tests: every committed record, per partition in offset order, through
// the seam's partition reader (manual assignment from each partition's log start).
import { OffsetMap, type Kafka } from '../../../platform/kafka/index.js';

export interface ReadRecord {
  offset: bigint;
  key: Buffer;
  value: Buffer;
  headers?: Record<string, string>;
}

/** Records per topic, and per partition (index = partition). */
export type TopicContents = Map<string, ReadRecord[][]>;

// The end a read_committed listing reports is the last stable offset, which trails a transaction the
// producer has already committed until the coordinator has written the commit markers (just after the
// commit returned). A snapshot taken right after a producer finished could miss its last transaction,
// so the end is polled until it has not moved for SETTLE_MS x SETTLE_ROUNDS. A transaction left open
// by a killed producer keeps it still: reading stops there.
const SETTLE_MS = 150;
const SETTLE_ROUNDS = 2;

/** Low and stable end offset per topic and partition (index = partition); see above. */
export async function stableEnds(kafka: Kafka, topics: readonly string[]): Promise<Map<string, { low: bigint; high: bigint }[]>> {
  const snapshot = async () => {
    const m = new Map<string, { low: bigint; high: bigint }[]>();
    for (const topic of topics) {
      const parts: { low: bigint; high: bigint }[] = [];
      for (const [p, r] of await kafka.admin().offsetRanges(topic)) parts[p] = r;
      m.set(topic, parts);
    }
    return m;
  };
  const key = (m: Map<string, { low: bigint; high: bigint }[]>) =>
    JSON.stringify([...m].map(([t, ps]) => [t, ps.map((p) => String(p.high))]));
  let last = await snapshot();
  for (let still = 0; still < SETTLE_ROUNDS;) {
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const now = await snapshot();
    still = key(now) === key(last) ? still + 1 : 0;
    last = now;
  }
  return last;
}

/** All committed records of the topics as of the call (see stableEnds). */
export async function readTopics(kafka: Kafka, topics: readonly string[], timeoutMs = 60_000): Promise<TopicContents> {
  const out: TopicContents = new Map();
  const start = new OffsetMap();
  // Per topic/partition still being read: the stable end to read up to.
  const pending = new OffsetMap();
  for (const [topic, parts] of await stableEnds(kafka, topics)) {
    out.set(
      topic,
      parts.map(() => []),
    );
    parts.forEach((p, partition) => {
      start.set(topic, partition, p.low);
      if (p.high > p.low) pending.set(topic, partition, p.high);
    });
  }
  if (pending.size === 0) return out;
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const reader = await kafka.partitionReader({
    topics,
    start,
    purpose: 'test-read',
    onRecords(records) {
      for (const r of records) {
        const high = pending.get(r.topic, r.partition);
        // Records past the snapshot's end belong to a later state; leave them out.
        if (high === undefined || r.offset >= high) continue;
        const partitions = out.get(r.topic)!;
        partitions[r.partition]!.push({
          offset: r.offset,
          key: r.key ?? Buffer.alloc(0),
          value: r.value ?? Buffer.alloc(0),
          ...(r.headers ? { headers: r.headers } : {}),
        });
      }
    },
    // The log end is often a transaction marker, which only the position reaches.
    onPosition(topic, partition, next) {
      const high = pending.get(topic, partition);
      if (high !== undefined && next >= high) {
        pending.delete(topic, partition);
        if (pending.size === 0) finish();
      }
    },
  });
  const timer = setTimeout(
    () =>
      fail(
        new Error(
          `reading ${topics.join(', ')}: ${[...pending].map(([t, p]) => `${t}:${p}`).join(', ')} not read to the end in ${timeoutMs} ms`,
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

/** Where two topic contents differ first (topic, partition, index, and what), or undefined when equal. */
export function firstDifference(got: Record<string, ReadRecord[][]>, want: Record<string, ReadRecord[][]>): string | undefined {
  const names = [...new Set([...Object.keys(got), ...Object.keys(want)])];
  for (const name of names) {
    const g = got[name] ?? [];
    const w = want[name] ?? [];
    if (g.length !== w.length) return `${name}: ${g.length} partitions, expected ${w.length}`;
    for (let p = 0; p < w.length; p++) {
      const gp = g[p]!;
      const wp = w[p]!;
      for (let i = 0; i < Math.max(gp.length, wp.length); i++) {
        const a = gp[i];
        const b = wp[i];
        if (!a || !b) return `${name}[${p}]: ${gp.length} records, expected ${wp.length} (first missing or extra at index ${i})`;
        if (!a.key.equals(b.key) || !a.value.equals(b.value)) {
          return `${name}[${p}] index ${i} (offsets ${a.offset} / ${b.offset}): key ${a.key.toString('hex')} value ${a.value.length} B, expected key ${b.key.toString('hex')} value ${b.value.length} B`;
        }
      }
    }
  }
  return undefined;
}

// The highest slot Kafka holds in COMMITTED records: what tests and the fault test watch to see an
// ingest progress. The ingest itself resumes through resume-point.ts: under slot framing a slot may span
// several Kafka transactions, so the highest slot here may be one whose end marker is not in Kafka yet.
//
// Records of the slots, transactions and accounts topics are published in slot order, so the
// newest committed records of each partition carry its highest slot. The tail of a partition may
// be a run of aborted records (a crashed transaction) and control markers, which a read_committed
// reader never shows; the window walks back until it finds a committed record.
import type { Kafka } from '../platform/kafka/index.js';
import { AccountEvent } from '../schemas/codec.js';
import { readU64Key, type TopicNames } from '../schemas/topics.js';

const FIRST_WINDOW = 64n;
const WINDOW_GROWTH = 16n;

interface PartitionScan {
  topic: string;
  partition: number;
  low: bigint;
  high: bigint;
  start: bigint;
  best: bigint | undefined;
  done: boolean;
}

const tp = (topic: string, partition: number): string => `${topic}/${partition}`;

export interface ResumeOptions {
  timeoutMs?: number;
  log?: (msg: string, extra?: object) => void;
}

/** The highest slot in committed records of the topics, or undefined when they are empty. Call it
 * after the transactional producer fenced earlier instances, so no transaction is still open. */
export async function lastPublishedSlot(kafka: Kafka, topics: TopicNames, opts: ResumeOptions = {}): Promise<bigint | undefined> {
  const names = [topics.slots, topics.transactions, topics.accounts];
  const scans = new Map<string, PartitionScan>();
  for (const topic of names) {
    for (const [partition, { low, high }] of await kafka.admin().offsetRanges(topic)) {
      if (high <= low) continue;
      const start = high - FIRST_WINDOW > low ? high - FIRST_WINDOW : low;
      scans.set(tp(topic, partition), { topic, partition, low, high, start, best: undefined, done: false });
    }
  }
  if (scans.size === 0) return undefined;
  await scanTails(kafka, scans, names, opts);
  let best: bigint | undefined;
  for (const s of scans.values()) if (s.best !== undefined && (best === undefined || s.best > best)) best = s.best;
  return best;
}

function slotOf(accountsTopic: string, topic: string, key: Buffer | null, value: Buffer | null): bigint | undefined {
  // Transactions and slots are keyed by slot; account records carry it inside.
  if (topic !== accountsTopic) return key && key.length === 8 ? readU64Key(key) : undefined;
  if (value === null) return undefined;
  try {
    return AccountEvent.decode(value).slot;
  } catch {
    return undefined;
  }
}

async function scanTails(kafka: Kafka, scans: Map<string, PartitionScan>, names: string[], opts: ResumeOptions): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  let finish!: () => void;
  let fail!: (err: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  finished.catch(() => {});
  const start = new Map<string, Map<number, bigint>>();
  for (const s of scans.values()) {
    if (!start.has(s.topic)) start.set(s.topic, new Map());
    start.get(s.topic)!.set(s.partition, s.start);
  }
  const reader = await kafka.partitionReader({
    topics: names,
    start,
    purpose: 'ingest-resume',
    isolation: 'read_committed',
    onRecords(records) {
      for (const r of records) {
        const s = scans.get(tp(r.topic, r.partition));
        if (!s || s.done || r.offset < s.start) continue;
        const slot = slotOf(names[2]!, r.topic, r.key, r.value);
        if (slot !== undefined && (s.best === undefined || slot > s.best)) s.best = slot;
      }
    },
    onPosition(topic, partition, next) {
      const s = scans.get(tp(topic, partition));
      if (!s || s.done || next < s.high) return;
      if (s.best !== undefined || s.start <= s.low) {
        s.done = true;
        if ([...scans.values()].every((x) => x.done)) finish();
        return;
      }
      // Only aborted records in the window: look further back.
      const width = (s.high - s.start) * WINDOW_GROWTH;
      s.start = s.high - width > s.low ? s.high - width : s.low;
      reader.seek(topic, partition, s.start).catch((err: Error) => fail(err));
    },
    onError: (err) => fail(new Error(`resume scan failed: ${err.message}`)),
  });
  const timer = setTimeout(() => {
    const pending = [...scans.values()].filter((s) => !s.done).map((s) => tp(s.topic, s.partition));
    fail(new Error(`resume scan: no answer from Kafka within ${timeoutMs} ms for ${pending.join(', ')}`));
  }, timeoutMs);
  try {
    // Partitions already at their end before any fetch (all scanned ranges start below high) are
    // reported through onPosition once the reader reaches them.
    await finished;
  } finally {
    clearTimeout(timer);
    await reader.stop();
  }
  opts.log?.('resume scan done', { partitions: scans.size });
}

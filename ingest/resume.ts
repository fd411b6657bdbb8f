// Where ingest resumes: the highest slot Kafka holds in COMMITTED records. Ingest publishes whole
// slot batches per Kafka transaction, so a crash leaves either all of a batch or none of it, and
// the source can continue with `afterSlot` = this slot without gap or duplicate.
//
// Records of the slots, transactions and accounts topics are published in slot order, so the
// newest committed records of each partition carry its highest slot. The tail of a partition may
// be a run of aborted records (a crashed transaction) and control markers, which a read_committed
// consumer never shows; the window walks back until it finds a committed record.
import { randomBytes } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { AccountEvent } from '../schemas/codec.js';
import { readU64Key, type TopicNames } from '../schemas/topics.js';

const FIRST_WINDOW = 64;
const WINDOW_GROWTH = 16;

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
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (const topic of names) {
      for (const p of await admin.fetchTopicOffsets(topic)) {
        const low = BigInt(p.low);
        const high = BigInt(p.high);
        if (high <= low) continue;
        const start = high - BigInt(FIRST_WINDOW) > low ? high - BigInt(FIRST_WINDOW) : low;
        scans.set(tp(topic, p.partition), { topic, partition: p.partition, low, high, start, best: undefined, done: false });
      }
    }
  } finally {
    await admin.disconnect();
  }
  if (scans.size === 0) return undefined;
  await scanTails(kafka, scans, names, opts);
  let best: bigint | undefined;
  for (const s of scans.values()) if (s.best !== undefined && (best === undefined || s.best > best)) best = s.best;
  return best;
}

function slotOf(topic: string, topics: string[], key: Buffer | null, value: Buffer | null): bigint | undefined {
  // Transactions and slots are keyed by slot; account records carry it inside.
  if (topic !== topics[2]) return key && key.length === 8 ? readU64Key(key) : undefined;
  if (value === null) return undefined;
  try {
    return AccountEvent.decode(value).slot;
  } catch {
    return undefined;
  }
}

async function scanTails(kafka: Kafka, scans: Map<string, PartitionScan>, names: string[], opts: ResumeOptions): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const consumer = kafka.consumer({
    groupId: `slotstream-ingest-resume-${randomBytes(6).toString('hex')}`,
    readUncommitted: false,
    maxWaitTimeInMs: 100,
    allowAutoTopicCreation: false,
  });
  let finish!: () => void;
  let fail!: (err: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  // A failure can come before anything awaits `finished` (while connect/run still run): mark it
  // handled here, the await below still throws it.
  finished.catch(() => {});
  const checkDone = () => {
    if ([...scans.values()].every((s) => s.done)) finish();
  };
  // Called for every fetched batch, also those with only aborted records or markers (no eachBatch then).
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    const s = scans.get(tp(payload.topic, payload.partition));
    if (!s || s.done) return;
    if (BigInt(payload.lastOffset) < s.high - 1n) return;
    if (s.best !== undefined || s.start <= s.low) {
      s.done = true;
      checkDone();
      return;
    }
    // Only aborted records in the window: look further back.
    const width = (s.high - s.start) * BigInt(WINDOW_GROWTH);
    s.start = s.high - width > s.low ? s.high - width : s.low;
    consumer.seek({ topic: s.topic, partition: s.partition, offset: s.start.toString() });
  });
  // Any crash ends the scan at once (even one kafkajs would restart from, such as the coordinator still
  // loading after a broker start): the caller retries the whole scan with a fresh group, which is quicker
  // than waiting for the restarted consumer, whose seeks are gone.
  consumer.on(consumer.events.CRASH, ({ payload }) => fail(new Error(`resume scan failed: ${payload.error.message}`)));
  const timer = setTimeout(() => {
    const pending = [...scans.values()].filter((s) => !s.done).map((s) => tp(s.topic, s.partition));
    fail(new Error(`resume scan: no answer from Kafka within ${timeoutMs} ms for ${pending.join(', ')}`));
  }, timeoutMs);
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: names, fromBeginning: false });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const s = scans.get(tp(batch.topic, batch.partition));
        if (!s) return;
        for (const m of batch.messages) {
          if (BigInt(m.offset) < s.start) continue;
          const slot = slotOf(batch.topic, names, m.key, m.value);
          if (slot !== undefined && (s.best === undefined || slot > s.best)) s.best = slot;
        }
      },
    });
    for (const s of scans.values()) consumer.seek({ topic: s.topic, partition: s.partition, offset: s.start.toString() });
    await finished;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect().catch(() => {});
  }
  opts.log?.('resume scan done', { partitions: scans.size });
}

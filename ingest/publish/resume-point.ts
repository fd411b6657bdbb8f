// Where a framed ingest resumes (spec/behaviour.md, "Slot framing"): after the newest slot whose end
// marker Kafka holds, skipping by identity whatever Kafka already holds of the slot that follows it.
// A slot's records may span several Kafka transactions, so a crash can leave the first part of a slot
// committed; the restarted source yields that slot again from its start, and the publisher drops the
// records listed here. Positions within the slot are not used: an upstream may order a slot's records
// differently after a reconnect.
//
// Two scans of the committed records, each walking every partition back from its end in growing
// windows: first the slots topic for the newest end marker (markers of one partition are in slot
// order), then every topic for what was published after it. A record is after the newest complete
// slot P when it belongs to a later slot (transactions, accounts, entries; epochs by first slot), or,
// on the slots topic, when it follows the partition's last marker of a slot up to P. That rule takes
// in a few status records published before P's marker on other partitions too: harmless, because
// identities are unique and the source never yields those records again.
import { OffsetMap, tpKey, type InRecord, type Kafka } from '../../platform/kafka/index.js';
import { decodeRecord, type ChainEvent } from '../../schemas/codec.js';
import type { TopicNames } from '../../schemas/topics.js';
import { endsSlot } from './framer.js';
import { identityOf, ownSlotOf } from './identity.js';

export interface ResumePoint {
  /** The newest slot with its end marker in Kafka: the source restarts after it (undefined: from genesis). */
  afterSlot: bigint | undefined;
  /** The slot after it that has records but no marker yet, if any. */
  openSlot: bigint | undefined;
  /** Identities (ingest/publish/identity.ts) of every record published after that marker. */
  held: Set<string>;
}

export interface ResumePointOptions {
  timeoutMs?: number;
}

const FIRST_WINDOW = 256n;
const WINDOW_GROWTH = 16n;
// Not the parsed topic: its records share the Kafka transaction of their slot's end marker, so none is ever
// published after the newest whole slot.
const KINDS: readonly ChainEvent['kind'][] = ['transactions', 'accounts', 'slots', 'entries', 'epochs'];

/**
 * The newest slot whose end marker Kafka holds in committed records (undefined: none). A resume point is never
 * before it, as committed records stay; called while another copy publishes, it waits (up to `timeoutMs`) for the
 * transactions open when it starts to end, and is a lower bound of the resume point (a standby's sim source
 * fast-forwards to it: ingest/run.ts).
 */
export async function newestCompleteSlot(kafka: Kafka, topics: TopicNames, opts: ResumePointOptions = {}): Promise<bigint | undefined> {
  const decode = (r: InRecord): ChainEvent | undefined => {
    const d = decodeRecord('slots', r.value);
    return d.ok ? d.value : undefined;
  };
  const markers = await scanBack(
    kafka,
    [topics.slots],
    (r) => {
      const e = decode(r);
      return e?.kind === 'slots' && endsSlot(e.event);
    },
    opts,
  );
  let afterSlot: bigint | undefined;
  for (const p of markers) {
    const e = p.boundary ? decode(p.boundary) : undefined;
    if (e?.kind === 'slots' && (afterSlot === undefined || e.event.slot > afterSlot)) afterSlot = e.event.slot;
  }
  return afterSlot;
}

/** Call after the transactional producer fenced earlier instances, so no transaction is still open. */
export async function resumePoint(kafka: Kafka, topics: TopicNames, opts: ResumePointOptions = {}): Promise<ResumePoint> {
  const kindOf = new Map<string, ChainEvent['kind']>(KINDS.map((k) => [topics[k], k]));
  const decode = (r: InRecord): ChainEvent | undefined => {
    const d = decodeRecord(kindOf.get(r.topic)!, r.value);
    return d.ok ? d.value : undefined;
  };
  // 1. The newest complete slot.
  const afterSlot = await newestCompleteSlot(kafka, topics, opts);
  // 2. Everything published after it.
  const before = (e: ChainEvent | undefined): boolean => {
    if (e === undefined || afterSlot === undefined) return false;
    switch (e.kind) {
      case 'slots':
        return endsSlot(e.event) && e.event.slot <= afterSlot;
      case 'epochs':
        return e.event.firstSlot <= afterSlot;
      default:
        return ownSlotOf(e)! <= afterSlot;
    }
  };
  const tails = await scanBack(
    kafka,
    KINDS.map((k) => topics[k]),
    (r) => before(decode(r)),
    opts,
  );
  const held = new Set<string>();
  let openSlot: bigint | undefined;
  for (const p of tails) {
    for (const r of p.after) {
      const e = decode(r);
      // An undecodable record is no record the source yields again; the projector dead-letters it.
      if (e === undefined) continue;
      held.add(identityOf(e));
      const own = ownSlotOf(e);
      if (own !== undefined && (afterSlot === undefined || own > afterSlot) && (openSlot === undefined || own > openSlot)) openSlot = own;
    }
  }
  return { afterSlot, openSlot, held };
}

interface PartitionTail {
  topic: string;
  partition: number;
  /** The last record of the partition that satisfied the boundary test (undefined: none, read from the start). */
  boundary: InRecord | undefined;
  /** The committed records after it, in offset order. */
  after: InRecord[];
}

interface Scan extends PartitionTail {
  low: bigint;
  high: bigint;
  start: bigint;
  window: InRecord[];
  done: boolean;
}

/** Per partition, the committed records after the last one that passes `isBoundary`, found by reading
 * growing windows back from the end until a window holds such a record or starts at the log start. */
export async function scanBack(
  kafka: Kafka,
  names: readonly string[],
  isBoundary: (r: InRecord) => boolean,
  opts: ResumePointOptions,
): Promise<PartitionTail[]> {
  const scans = await openScans(kafka, names);
  if (scans.size === 0) return [];
  let finish!: () => void;
  let fail!: (err: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  finished.catch(() => {});
  const reader = await kafka.partitionReader({
    topics: names,
    start: OffsetMap.of([...scans.values()].map((s) => [s.topic, s.partition, s.start] as const)),
    purpose: 'ingest-resume',
    isolation: 'read_committed',
    onRecords: (records) => collect(scans, records),
    onPosition(topic, partition, next) {
      const s = scans.get(tpKey(topic, partition));
      // Only once the reader has passed the window's end is the window whole.
      if (!s || s.done || next < s.high) return;
      if (settle(s, isBoundary)) {
        if ([...scans.values()].every((x) => x.done)) finish();
        return;
      }
      widen(s);
      reader.seek(topic, partition, s.start).catch((err: Error) => fail(err));
    },
    onError: (err) => fail(new Error(`resume scan failed: ${err.message}`)),
  });
  const timer = failAfter(scans, opts.timeoutMs ?? 60_000, fail);
  try {
    await finished;
  } finally {
    clearTimeout(timer);
    await reader.stop();
  }
  return [...scans.values()].map(({ topic, partition, boundary, after }) => ({ topic, partition, boundary, after }));
}

/** A scan per non-empty partition, its first window the last FIRST_WINDOW records (or all, when fewer). */
async function openScans(kafka: Kafka, names: readonly string[]): Promise<Map<string, Scan>> {
  const scans = new Map<string, Scan>();
  for (const topic of names) {
    for (const [partition, { low, high }] of await kafka.admin().offsetRanges(topic)) {
      if (high <= low) continue;
      const start = high - FIRST_WINDOW > low ? high - FIRST_WINDOW : low;
      scans.set(tpKey(topic, partition), { topic, partition, low, high, start, window: [], boundary: undefined, after: [], done: false });
    }
  }
  return scans;
}

/** Keeps the records inside an open scan's window: records past the end measured at the start, or of a settled
 * partition, are no part of the scan. */
function collect(scans: ReadonlyMap<string, Scan>, records: readonly InRecord[]): void {
  for (const r of records) {
    const s = scans.get(tpKey(r.topic, r.partition));
    if (!s || s.done || r.offset < s.start || r.offset >= s.high) continue;
    s.window.push(r);
  }
}

/** Finishes the scan when its whole window holds a boundary or reaches the log start; false: read a larger one. */
function settle(s: Scan, isBoundary: (r: InRecord) => boolean): boolean {
  let last = -1;
  for (let i = s.window.length - 1; i >= 0; i--) {
    if (isBoundary(s.window[i]!)) {
      last = i;
      break;
    }
  }
  if (last < 0 && s.start > s.low) return false;
  s.boundary = last >= 0 ? s.window[last] : undefined;
  s.after = s.window.slice(last + 1);
  s.done = true;
  return true;
}

/** No boundary in the window: the next one is WINDOW_GROWTH times as wide, back from the same end. */
function widen(s: Scan): void {
  const width = (s.high - s.start) * WINDOW_GROWTH;
  s.start = s.high - width > s.low ? s.high - width : s.low;
  s.window = [];
}

/** Fails the scan, naming the partitions still open, when Kafka has not answered for them in time. */
function failAfter(scans: ReadonlyMap<string, Scan>, timeoutMs: number, fail: (err: Error) => void): NodeJS.Timeout {
  return setTimeout(() => {
    const pending = [...scans.values()].filter((s) => !s.done).map((s) => `${s.topic}/${s.partition}`);
    fail(new Error(`resume scan: no answer from Kafka within ${timeoutMs} ms for ${pending.join(', ')}`));
  }, timeoutMs);
}

// SubscribeReplayInfo's first_available: the oldest slot whose records Kafka still holds in full, the slot a
// from_slot replay can start at. When retention deleted records and the projector's slot_offsets index is
// there, the live layer's own rule answers (api/live/replay.ts, the one OUT_OF_RANGE names). Otherwise it is
// read from the topics themselves (the first retained record of each partition of the stream topics): a
// partition whose log start moved may have lost the start of its first slot, so the slot after it is the
// first it holds in full; when no partition lost anything the whole history is there and the oldest slot of
// any partition is the answer. Nothing held: undefined (the field stays unset, as Yellowstone leaves it when
// it cannot replay).
import { OffsetMap, tpKey, type InRecord, type Kafka } from '../../../platform/kafka/index.js';
import { decodeRecord } from '../../../schemas/codec.js';
import type { TopicNames } from '../../../schemas/topics.js';
import { streamTopics, type StreamViews } from '../../live/index.js';
import { firstAvailableSlot as indexedFirstAvailable, logRanges } from '../../live/replay.js';

interface FirstRecord {
  slot: bigint;
  trimmed: boolean;
}

/** The combination rule, apart from the reading (unit tested). */
export function firstAvailableOf(firsts: readonly FirstRecord[]): bigint | undefined {
  if (firsts.length === 0) return undefined;
  const trimmed = firsts.filter((f) => f.trimmed);
  if (trimmed.length === 0) return firsts.reduce((m, f) => (f.slot < m ? f.slot : m), firsts[0]!.slot);
  return trimmed.reduce((m, f) => (f.slot + 1n > m ? f.slot + 1n : m), 0n);
}

export async function firstAvailableSlot(
  kafka: Kafka,
  topics: TopicNames,
  views: StreamViews | undefined,
  timeoutMs = 10_000,
): Promise<bigint | undefined> {
  const kinds = streamTopics(topics);
  if (views) {
    const exact = await indexedFirstAvailable(views, await logRanges(kafka, [...kinds.keys()]));
    if (exact !== undefined) return exact;
  }
  const start = new OffsetMap();
  const waiting = new Map<string, { low: bigint }>();
  for (const topic of kinds.keys()) {
    for (const [p, r] of await kafka.admin().offsetRanges(topic)) {
      start.set(topic, p, r.low);
      if (r.high > r.low) waiting.set(tpKey(topic, p), { low: r.low });
    }
  }
  const firsts: FirstRecord[] = [];
  if (waiting.size === 0) return undefined;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const reader = await kafka.partitionReader({
    topics: [...kinds.keys()],
    start,
    purpose: 'geyser-replay-info',
    onRecords: (records: InRecord[]) => {
      for (const r of records) {
        const k = tpKey(r.topic, r.partition);
        const w = waiting.get(k);
        if (!w) continue;
        waiting.delete(k);
        const d = decodeRecord(kinds.get(r.topic)!, r.value);
        if (d.ok && d.value.kind !== 'epochs') firsts.push({ slot: d.value.event.slot, trimmed: w.low > 0n });
      }
      if (waiting.size === 0) done();
    },
  });
  const timer = setTimeout(done, timeoutMs);
  try {
    await finished;
  } finally {
    clearTimeout(timer);
    await reader.stop();
  }
  // Partitions whose remaining records were all aborted or markers hold nothing: they do not count.
  return firstAvailableOf(firsts);
}

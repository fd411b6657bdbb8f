// Which (slot, status) records Kafka already holds for the recent slots, read back from the tail of the
// slots topic when the yellowstone source resumes after a restart. The source replays the slots before
// where history stops to collect the confirmed and finalized statuses that arrived while it was down; with
// this list it publishes only those, not again what the previous run already published.
import { OffsetMap, type Kafka } from '../../../platform/kafka/index.js';
import { decodeRecord, SlotStatus } from '../../../schemas/codec.js';
import { readU64Key, type TopicNames } from '../../../schemas/topics.js';

export type PublishedStatuses = Map<bigint, Set<SlotStatus>>;

/** Records read back per partition at most: the slots of a minute of mainnet carry ~10 status records
 * each, spread over the partitions; this is many times that. */
const TAIL = 20_000n;

/** The statuses of slots `fromSlot` and later in the slots topic (gap records left out). */
export async function publishedStatuses(
  kafka: Kafka,
  topics: TopicNames,
  fromSlot: bigint,
  timeoutMs = 30_000,
): Promise<PublishedStatuses> {
  const out: PublishedStatuses = new Map();
  const ends = new Map<number, bigint>();
  const start = new OffsetMap();
  for (const [partition, { low, high }] of await kafka.admin().offsetRanges(topics.slots)) {
    if (high <= low) continue;
    ends.set(partition, high);
    start.set(topics.slots, partition, high - TAIL > low ? high - TAIL : low);
  }
  if (ends.size === 0) return out;
  const left = new Set(ends.keys());
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const reader = await kafka.partitionReader({
    topics: [topics.slots],
    start,
    purpose: 'ingest-yellowstone-statuses',
    isolation: 'read_committed',
    onRecords(records) {
      for (const r of records) {
        if (r.key === null || r.value === null || r.offset >= ends.get(r.partition)!) continue;
        const slot = readU64Key(r.key);
        if (slot < fromSlot) continue;
        const d = decodeRecord('slots', r.value);
        if (!d.ok || d.value.kind !== 'slots' || d.value.event.status === SlotStatus.SLOT_STATUS_GAP) continue;
        let set = out.get(d.value.event.slot);
        if (!set) out.set(d.value.event.slot, (set = new Set()));
        set.add(d.value.event.status);
      }
    },
    onPosition(_topic, partition, next) {
      if (next >= (ends.get(partition) ?? 0n)) left.delete(partition);
      if (left.size === 0) done();
    },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      finished,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`yellowstone source: reading back the statuses in ${topics.slots} took over ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await reader.stop();
  }
  return out;
}

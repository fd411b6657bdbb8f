// The highest slot Kafka holds in COMMITTED records: what tests and the fault test watch to see an
// ingest progress (test-only: nothing in the product reads it). The ingest itself resumes through
// ingest/publish/resume-point.ts: under slot framing a slot may span
// several Kafka transactions, so the highest slot here may be one whose end marker is not in Kafka yet.
//
// Records of the slots, transactions and accounts topics are published in slot order, so the newest
// committed record of each partition carries its highest slot; resume-point.ts's scanBack walks back past
// aborted records and control markers until it finds one.
import { AccountEvent } from '../../../schemas/codec.js';
import { readU64Key, type TopicNames } from '../../../schemas/topics.js';
import type { InRecord, Kafka } from '../../../platform/kafka/index.js';
import { scanBack, type ResumePointOptions } from '../../../ingest/publish/resume-point.js';

/** The highest slot in committed records of the topics, or undefined when they are empty. Call it
 * after the transactional producer fenced earlier instances, so no transaction is still open. */
export async function lastPublishedSlot(kafka: Kafka, topics: TopicNames, opts: ResumePointOptions = {}): Promise<bigint | undefined> {
  const slotOf = (r: InRecord): bigint | undefined => {
    // Transactions and slots are keyed by slot; account records carry it inside.
    if (r.topic !== topics.accounts) return r.key && r.key.length === 8 ? readU64Key(r.key) : undefined;
    if (r.value === null) return undefined;
    try {
      return AccountEvent.decode(r.value).slot;
    } catch {
      return undefined;
    }
  };
  const tails = await scanBack(kafka, [topics.slots, topics.transactions, topics.accounts], (r) => slotOf(r) !== undefined, opts);
  let best: bigint | undefined;
  for (const t of tails) {
    const slot = t.boundary && slotOf(t.boundary);
    if (slot !== undefined && (best === undefined || slot > best)) best = slot;
  }
  return best;
}

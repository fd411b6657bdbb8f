// Freshness rules, pure. A commitment's head may only move to slot S once every record of S is
// stored: the tracker reads the candidate heads from slot_status, then takes the end offsets of every
// partition, and publishes the candidates only once the group's committed offsets reached those ends.
// All of S's records lie below those ends because the ingest publishes a slot's status, transactions
// and account writes in one Kafka transaction (ingest/publisher.ts), and a status record the
// projector could read was committed, so its whole transaction was.

export type Commitment = 'processed' | 'confirmed' | 'finalized';
export const COMMITMENTS: readonly Commitment[] = ['processed', 'confirmed', 'finalized'];

export type Heads = Partial<Record<Commitment, bigint>>;

/** `topic:partition` -> offset. */
export type OffsetMap = ReadonlyMap<string, bigint>;

export const partitionKey = (topic: string, partition: number): string => `${topic}:${partition}`;

/** Whether the group has committed at least to `ends` on every partition (missing commit = 0). */
export function caughtUp(ends: OffsetMap, committed: OffsetMap): boolean {
  for (const [key, end] of ends) {
    if ((committed.get(key) ?? 0n) < end) return false;
  }
  return true;
}

/** Records the group still has to read: the sum over partitions of end minus committed. */
export function lagOf(ends: OffsetMap, committed: OffsetMap): bigint {
  let lag = 0n;
  for (const [key, end] of ends) {
    const c = committed.get(key) ?? 0n;
    if (end > c) lag += end - c;
  }
  return lag;
}

/** Heads only move forward: the larger of what is stored and what was found, per commitment. */
export function advanceHeads(stored: Heads, found: Heads): Heads {
  const out: Heads = {};
  for (const c of COMMITMENTS) {
    const a = stored[c];
    const b = found[c];
    if (b !== undefined && (a === undefined || b > a)) out[c] = b;
  }
  return out;
}

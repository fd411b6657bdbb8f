// Group progress as seen by the broker: end offsets of every partition and the group's commits.
import type { Admin } from 'kafkajs';
import { partitionKey, type OffsetMap } from './heads.js';

export async function endOffsets(admin: Admin, topics: readonly string[]): Promise<OffsetMap> {
  const out = new Map<string, bigint>();
  for (const topic of topics) {
    for (const p of await retriable(() => admin.fetchTopicOffsets(topic))) out.set(partitionKey(topic, p.partition), BigInt(p.high));
  }
  return out;
}

/** Retries what the broker calls retriable (a coordinator moving or loading) for a few seconds. */
async function retriable<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 30 || !(err as { retriable?: boolean }).retriable) throw err;
      await new Promise((r) => setTimeout(r, Math.min(1_000, 50 * 2 ** attempt)));
    }
  }
}

export async function committedOffsets(admin: Admin, groupId: string, topics: readonly string[]): Promise<OffsetMap> {
  const out = new Map<string, bigint>();
  for (const t of await retriable(() => admin.fetchOffsets({ groupId, topics: [...topics] }))) {
    for (const p of t.partitions) {
      const off = BigInt(p.offset);
      out.set(partitionKey(t.topic, p.partition), off < 0n ? 0n : off);
    }
  }
  return out;
}


// Kafka's default key partitioning (the Java client's murmur2), computed with 32-bit integer math.
// The publisher picks partitions itself (not librdkafka's partitioner) because a slot's end marker
// names its record counts per partition, so the ingest must know each record's partition.
const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** Java `Utils.murmur2(byte[])`, as a signed 32-bit integer. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = (SEED ^ length) | 0;
  const length4 = length >> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = data[i4]! | (data[i4 + 1]! << 8) | (data[i4 + 2]! << 16) | (data[i4 + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The last 1-3 bytes (Java's switch falls through from case 3 to case 1).
  const tail = length & ~3;
  const rest = length % 4;
  if (rest > 0) {
    if (rest === 3) h ^= data[tail + 2]! << 16;
    if (rest >= 2) h ^= data[tail + 1]! << 8;
    h ^= data[tail]!;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition Kafka's default partitioner picks for a key. */
export function partitionForKey(key: Uint8Array, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions;
}

// The one topic-partition key and the one map of offsets per partition. Every map or set keyed by a
// topic-partition uses `tpKey`; every "offset per partition" (reader positions, replay starts and stops, log
// ends, a group's commits) is an OffsetMap.

/** A topic-partition as a map or set key. NUL cannot occur in a Kafka topic name (legal characters are
 * ASCII letters, digits, '.', '_' and '-'), so no two topic-partitions share a key. */
export const tpKey = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/**
 * An offset per topic-partition (what it means, next to read, end, committed, is the holder's to say).
 * Nested maps inside rather than string keys: the partition reader and the live tail look offsets up per
 * record, and a lookup builds no string.
 */
export class OffsetMap implements Iterable<[topic: string, partition: number, offset: bigint]> {
  private readonly byTopic = new Map<string, Map<number, bigint>>();

  /** From `[topic, partition, offset]` triples. */
  static of(entries: Iterable<readonly [string, number, bigint]>): OffsetMap {
    const m = new OffsetMap();
    for (const [topic, partition, offset] of entries) m.set(topic, partition, offset);
    return m;
  }

  get(topic: string, partition: number): bigint | undefined {
    return this.byTopic.get(topic)?.get(partition);
  }

  has(topic: string, partition: number): boolean {
    return this.byTopic.get(topic)?.has(partition) ?? false;
  }

  set(topic: string, partition: number, offset: bigint): this {
    let m = this.byTopic.get(topic);
    if (!m) this.byTopic.set(topic, (m = new Map()));
    m.set(partition, offset);
    return this;
  }

  /** Whether it held the topic-partition. */
  delete(topic: string, partition: number): boolean {
    const m = this.byTopic.get(topic);
    if (!m?.delete(partition)) return false;
    if (m.size === 0) this.byTopic.delete(topic);
    return true;
  }

  /** The topic's partitions and their offsets (empty for a topic not held). */
  partitions(topic: string): ReadonlyMap<number, bigint> {
    return this.byTopic.get(topic) ?? EMPTY;
  }

  topics(): IterableIterator<string> {
    return this.byTopic.keys();
  }

  /** Number of topic-partitions held. */
  get size(): number {
    let n = 0;
    for (const m of this.byTopic.values()) n += m.size;
    return n;
  }

  /** The offsets, topic by topic in insertion order. */
  *values(): IterableIterator<bigint> {
    for (const m of this.byTopic.values()) yield* m.values();
  }

  *[Symbol.iterator](): Iterator<[topic: string, partition: number, offset: bigint]> {
    for (const [topic, m] of this.byTopic) for (const [partition, offset] of m) yield [topic, partition, offset];
  }

  copy(): OffsetMap {
    return OffsetMap.of(this);
  }
}

const EMPTY: ReadonlyMap<number, bigint> = new Map();

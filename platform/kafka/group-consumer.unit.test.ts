import type { Message } from '@confluentinc/kafka-javascript';
import { describe, expect, it } from 'vitest';
import { partitionBatches } from './group-consumer.js';

const msg = (topic: string, partition: number, offset: number): Message =>
  ({ topic, partition, offset, key: Buffer.from('k'), value: Buffer.from(`v${offset}`), size: 2, timestamp: 0, headers: [] }) as Message;

describe('partitionBatches', () => {
  it('groups a fetch by partition in fetch order, each batch ending past its last record', () => {
    const handed = new Map<string, bigint>();
    const batches = partitionBatches([msg('a', 0, 5), msg('a', 0, 6), msg('b', 1, 2), msg('a', 0, 7)], [], handed);
    expect(batches.map((b) => [b.topic, b.partition, b.records.map((r) => r.offset), b.nextOffset])).toEqual([
      ['a', 0, [5n, 6n, 7n], 8n],
      ['b', 1, [2n], 3n],
    ]);
    expect([...handed.values()]).toEqual([8n, 3n]);
  });

  it('moves a batch past the transaction markers an end of partition reports', () => {
    const batches = partitionBatches([msg('a', 0, 5)], [{ topic: 'a', partition: 0, offset: 9 }], new Map());
    expect(batches.map((b) => b.nextOffset)).toEqual([9n]);
  });

  it('gives an end of partition with no records an empty batch only when its position moved', () => {
    const handed = new Map<string, bigint>();
    const eof = { topic: 'a', partition: 0, offset: 4 };
    expect(partitionBatches([], [eof], handed).map((b) => [b.records.length, b.nextOffset])).toEqual([[0, 4n]]);
    expect(partitionBatches([], [eof], handed)).toEqual([]); // the same position again: nothing to hand over
    expect(partitionBatches([], [{ ...eof, offset: -1 }], handed)).toEqual([]); // no position known
    expect(partitionBatches([], [{ ...eof, offset: 6 }], handed).map((b) => b.nextOffset)).toEqual([6n]);
  });
});

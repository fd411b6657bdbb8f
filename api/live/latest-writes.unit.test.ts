// The cases of Yellowstone's block_reconstruction.rs tests (processing_slot_into_block_keeps_only_highest_
// write_version, ..._deduplicates_independently_per_pubkey, ..._keeps_all_transactions), on the pure function.
import { describe, expect, it } from 'vitest';
import { latestWritesOnly, type Write } from './latest-writes.js';

type Item = { tx: string } | { pubkey: string; wv: bigint };
const writeOf = (i: Item): Write | undefined => ('pubkey' in i ? { key: i.pubkey, version: i.wv } : undefined);
const acc = (pubkey: string, wv: bigint): Item => ({ pubkey, wv });

describe('latestWritesOnly', () => {
  it('keeps only the highest write version of an account', () => {
    expect(latestWritesOnly([acc('P', 1n), acc('P', 5n)], writeOf)).toEqual([acc('P', 5n)]);
    // The winner stays where it was, whatever the order the writes came in.
    expect(latestWritesOnly([acc('P', 7n), acc('P', 3n), acc('P', 2n)], writeOf)).toEqual([acc('P', 7n)]);
  });

  it('deduplicates independently per account, keeping the order of the survivors', () => {
    const got = latestWritesOnly([acc('A', 1n), acc('B', 9n), acc('A', 4n), acc('C', 2n)], writeOf);
    expect(got).toEqual([acc('B', 9n), acc('A', 4n), acc('C', 2n)]);
  });

  it('keeps every update that is not a write, in place', () => {
    const items: Item[] = [{ tx: 'x' }, acc('A', 1360n), { tx: 'y' }, acc('A', 1361n), { tx: 'z' }];
    expect(latestWritesOnly(items, writeOf)).toEqual([{ tx: 'x' }, { tx: 'y' }, acc('A', 1361n), { tx: 'z' }]);
  });

  it('two copies of one write: one goes', () => {
    expect(latestWritesOnly([acc('A', 3n), acc('A', 3n)], writeOf)).toHaveLength(1);
  });

  it('nothing to drop: the items unchanged', () => {
    const items: Item[] = [acc('A', 1n), { tx: 'x' }, acc('B', 1n)];
    expect(latestWritesOnly(items, writeOf)).toEqual(items);
    expect(latestWritesOnly([], writeOf)).toEqual([]);
  });

  // Yellowstone deduplicates before its filters: a write superseded by one the stream did not match goes too.
  it('drops a write superseded by a later write outside the list', () => {
    const newer = (key: string): bigint | undefined => (key === 'A' ? 5n : undefined);
    expect(latestWritesOnly([acc('A', 4n), acc('B', 1n)], writeOf, newer)).toEqual([acc('B', 1n)]);
    expect(latestWritesOnly([acc('A', 5n), acc('B', 1n)], writeOf, newer)).toEqual([acc('A', 5n), acc('B', 1n)]);
  });
});

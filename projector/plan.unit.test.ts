import { describe, expect, it } from 'vitest';
import { encodeRecord } from '../schemas/codec.js';
import { dedupToken, planBatch, rangesKey } from './plan.js';
import { markerSlice, projectSlice } from './slice.js';
import { account, tx } from '../test/support/projector/events.js';

const sliceOf = (partition: number, from: number, count: number) =>
  projectSlice(
    'transactions',
    'p.tx',
    partition,
    Array.from({ length: count }, (_, i) => {
      const r = encodeRecord({
        kind: 'transactions',
        event: tx({ slot: from + i, index: 0, sig: `s${partition}-${from + i}`, keys: ['k'] }),
      });
      return { offset: String(from + i), key: r.key, value: r.value };
    }),
    String(from + count - 1),
  );

describe('planBatch', () => {
  it('given slices of two partitions, when planned, then one insert per table with the same token whatever the slice order', () => {
    const a = sliceOf(0, 10, 2);
    const b = sliceOf(1, 20, 3);
    const p1 = planBatch([a, b]);
    const p2 = planBatch([b, a]);
    expect(p1.inserts.map((i) => i.table)).toEqual([
      'transactions',
      'signatures_by_address',
      'slot_offsets',
      'transaction_index',
      'transaction_records',
    ]);
    expect(p1.inserts[0]!.rows).toHaveLength(5);
    expect(p1.inserts[0]!.token).toBe('transactions:p.tx:0:10-11,p.tx:1:20-22');
    expect(p1.inserts.map((i) => i.token)).toEqual(p2.inserts.map((i) => i.token));
    expect(p1.commits).toEqual([
      { topic: 'p.tx', partition: 0, offset: '12' },
      { topic: 'p.tx', partition: 1, offset: '23' },
    ]);
    expect(p1.events).toBe(5);
  });

  it('given different ranges, when planned, then different tokens; marker slices only move commits', () => {
    const t1 = planBatch([sliceOf(0, 10, 2)]).inserts[0]!.token;
    const t2 = planBatch([sliceOf(0, 10, 3)]).inserts[0]!.token;
    expect(t1).not.toBe(t2);
    const p = planBatch([sliceOf(0, 10, 2), markerSlice('p.tx', 0, '12')]);
    expect(p.commits).toEqual([{ topic: 'p.tx', partition: 0, offset: '13' }]);
    expect(p.inserts[0]!.token).toBe(t1);
  });

  it('given the same account written twice under one owner, when planned, then one owner row', () => {
    const p = planBatch([
      projectSlice(
        'accounts',
        'p.acc',
        0,
        [1, 2].map((v) => {
          const r = encodeRecord({ kind: 'accounts', event: account({ pubkey: 'a', owner: 'o', slot: v, writeVersion: v, lamports: 1 }) });
          return { offset: String(v), key: r.key, value: r.value };
        }),
        '2',
      ),
    ]);
    expect(p.inserts.find((i) => i.table === 'account_writes')!.rows).toHaveLength(2);
    expect(p.inserts.find((i) => i.table === 'owner_writes')!.rows).toHaveLength(2);
  });

  it('hashes long range lists into short tokens', () => {
    const long = 'x'.repeat(500);
    expect(dedupToken('blocks', long)).toMatch(/^blocks:sha256:[0-9a-f]{64}$/);
    expect(rangesKey([])).toBe('');
  });
});

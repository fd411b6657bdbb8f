import { describe, expect, it } from 'vitest';
import { AccountEvent, encodeRecord } from '../schemas/codec.js';
import { account, tx } from '../test/support/projector/events.js';
import { projectSlice } from './slice.js';

describe('projectSlice', () => {
  it('given good records and a poison one, when sliced, then rows for the good, a dead letter for the poison, offsets past the marker', () => {
    const a = encodeRecord({ kind: 'transactions', event: tx({ slot: 5, index: 0, sig: 'a', keys: ['k'] }) });
    const b = encodeRecord({ kind: 'transactions', event: tx({ slot: 6, index: 0, sig: 'b', keys: ['k'] }) });
    const poison = Buffer.from([0xff, 0xff, 0xff]);
    const s = projectSlice(
      'transactions',
      'p.transactions.v1',
      1,
      [
        { offset: '100', key: a.key, value: a.value },
        { offset: '101', key: null, value: poison },
        { offset: '102', key: b.key, value: b.value },
      ],
      '103',
    );
    expect(s).toMatchObject({ firstOffset: 100n, lastOffset: 102n, nextOffset: 104n, events: 3 });
    expect(s.rows.transactions.map((r) => r.slot)).toEqual(['5', '6']);
    // The records are the values as read, copied into one block for the slice (not the client's buffers).
    const records = s.rows.transaction_records.map((r) => r.record);
    expect(records).toEqual([a.value, b.value]);
    expect(records[0]!.buffer).toBe(records[1]!.buffer);
    expect(records[0]!.buffer).not.toBe(a.value.buffer);
    expect(s.rows.slot_offsets).toEqual([
      { topic: 'p.transactions.v1', partition: 1, slot: '5', first_offset: '100', last_offset: '100' },
      { topic: 'p.transactions.v1', partition: 1, slot: '6', first_offset: '102', last_offset: '102' },
    ]);
    expect(s.deadLetters).toHaveLength(1);
    expect(s.deadLetters[0]).toMatchObject({ topic: 'p.transactions.v1', partition: 1, offset: '101', value: poison });
    expect(s.deadLetters[0]!.reason).toMatch(/undecodable transactions record/);
  });

  it('given a record that decodes but is invalid, when sliced, then it is dead-lettered with the projection reason', () => {
    const e = account({ pubkey: 'x', owner: 'o', slot: 1, writeVersion: 1, lamports: 1 });
    e.pubkey = Buffer.alloc(3);
    const value = Buffer.from(AccountEvent.encode(e).finish());
    const s = projectSlice('accounts', 'p.accounts.v1', 0, [{ offset: '0', key: null, value }], '0');
    expect(s.deadLetters.map((d) => d.reason)).toEqual(['account write at slot 1: pubkey must be 32 bytes, got 3']);
    expect(s.rows.account_writes).toEqual([]);
  });
});

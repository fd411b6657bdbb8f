import { describe, expect, it } from 'vitest';
import { readU64Key } from '../../schemas/topics.js';
import { oversizedRecord, recordLimit, unconvertibleRecord } from './dead-letter.js';

describe('oversizedRecord', () => {
  const key = Buffer.alloc(8, 1);

  it('lets a record that fits its topic through', () => {
    expect(oversizedRecord('transactions', 't', 5n, key, Buffer.alloc(recordLimit('transactions') - key.length))).toBeUndefined();
  });

  it('dead-letters a record one byte over, whole, naming size, limit, topic and slot', () => {
    const value = Buffer.alloc(recordLimit('transactions') - key.length + 1, 7);
    const d = oversizedRecord('transactions', 'p.transactions.v1', 42n, key, value)!;
    expect(d.key).toBe(key);
    expect(d.value.equals(value)).toBe(true);
    expect(d.headers).toEqual({
      'slotstream-reason': `record of ${key.length + value.length} bytes is over the ${recordLimit('transactions')}-byte limit of p.transactions.v1`,
      'slotstream-topic': 'p.transactions.v1',
      'slotstream-slot': '42',
    });
  });

  it('cuts a value the dead-letter topic cannot hold either, and says how large it was', () => {
    const value = Buffer.alloc(recordLimit('deadletter') + 10, 3);
    const d = oversizedRecord('accounts', 'p.accounts.v1', 1n, key, value)!;
    expect(d.key.length + d.value.length).toBeLessThanOrEqual(recordLimit('deadletter'));
    expect(d.headers['slotstream-truncated-from']).toBe(String(value.length));
    expect(d.value.equals(value.subarray(0, d.value.length))).toBe(true);
  });
});

describe('unconvertibleRecord', () => {
  it('keeps the upstream data as it came, keyed by slot, with reason, topic, slot, format and signature', () => {
    const d = unconvertibleRecord({
      topic: 'p.transactions.v1',
      slot: 300n,
      reason: 'transaction 300/4: no meta',
      signature: 'Sig1',
      value: Buffer.from([1, 2, 3]),
      format: 'yellowstone.SubscribeUpdate',
    });
    expect(readU64Key(d.key)).toBe(300n);
    expect(d.value).toEqual(Buffer.from([1, 2, 3]));
    expect(d.headers).toEqual({
      'slotstream-reason': 'unconvertible: transaction 300/4: no meta',
      'slotstream-topic': 'p.transactions.v1',
      'slotstream-slot': '300',
      'slotstream-format': 'yellowstone.SubscribeUpdate',
      'slotstream-signature': 'Sig1',
    });
  });

  it('cuts data larger than the dead-letter topic takes and says how large it was; no slot gives an empty slot header', () => {
    const big = Buffer.alloc(recordLimit('deadletter') + 10, 9);
    const d = unconvertibleRecord({ topic: 't', slot: undefined, reason: 'r', value: big, format: 'f' });
    expect(d.key.length + d.value.length).toBeLessThan(recordLimit('deadletter'));
    expect(d.headers['slotstream-truncated-from']).toBe(String(big.length));
    expect(d.headers['slotstream-slot']).toBe('');
    expect(d.headers['slotstream-signature']).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { oversizedRecord, recordLimit } from './dead-letter.js';

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

import { describe, expect, it } from 'vitest';
import { deadLetterMessage } from './deadletter.js';

describe('deadLetterMessage', () => {
  it('keeps key and value and names origin and reason in headers', () => {
    const m = deadLetterMessage('p.deadletter.v1', {
      topic: 'p.accounts.v1',
      partition: 3,
      offset: '77',
      key: Buffer.from('k'),
      value: Buffer.from([1]),
      reason: 'bad',
    });
    expect(m).toEqual({
      topic: 'p.deadletter.v1',
      key: Buffer.from('k'),
      value: Buffer.from([1]),
      headers: { 'slotstream-reason': 'bad', 'slotstream-topic': 'p.accounts.v1', 'slotstream-partition': '3', 'slotstream-offset': '77' },
    });
  });
});

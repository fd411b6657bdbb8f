import { describe, expect, it } from 'vitest';
import { projectSlotOffsets } from './offsets.js';

describe('projectSlotOffsets', () => {
  it('given records of several slots in a partition, when projected, then first and last offset per slot', () => {
    const rows = projectSlotOffsets('t', 2, [
      { offset: 10n, slot: 5n },
      { offset: 11n, slot: 5n },
      { offset: 12n, slot: 6n },
      { offset: 14n, slot: 5n },
    ]);
    expect(rows).toEqual([
      { topic: 't', partition: 2, slot: '5', first_offset: '10', last_offset: '14' },
      { topic: 't', partition: 2, slot: '6', first_offset: '12', last_offset: '12' },
    ]);
  });
});

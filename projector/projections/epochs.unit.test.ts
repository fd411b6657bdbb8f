import { describe, expect, it } from 'vitest';
import { b58, epoch } from '../../test/support/projector/events.js';
import { projectEpoch } from './epochs.js';

describe('projectEpoch', () => {
  it('given an epoch record, when projected, then the compact schedule with base58 identities', () => {
    const p = projectEpoch(epoch(3, 96, ['v1', 'v2'], [1, 0, 1]));
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows.epochs).toEqual([
      {
        epoch: '3',
        first_slot: '96',
        slots_per_epoch: '12',
        slots_per_leader: 4,
        identities: [b58('v1'), b58('v2')],
        schedule: [1, 0, 1],
      },
    ]);
  });

  it('given a schedule naming a missing identity, when projected, then rejected', () => {
    expect(projectEpoch(epoch(3, 96, ['v1'], [0, 1]))).toEqual({ ok: false, reason: 'epoch 3: schedule run 1 names identity 1 of 1' });
  });
});

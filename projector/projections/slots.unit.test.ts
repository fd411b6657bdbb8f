import { describe, expect, it } from 'vitest';
import { SlotStatus } from '../../schemas/codec.js';
import { b58, slotStatus } from '../../test/support/projector/events.js';
import { projectSlot } from './slots.js';

describe('projectSlot', () => {
  it('given a processed record with block meta, when projected, then a status row and a block row', () => {
    const p = projectSlot(slotStatus(12, SlotStatus.SLOT_STATUS_PROCESSED, { parent: 10, height: 11, time: 1700000001, txs: 5, votes: 2 }));
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows.slot_status).toEqual([{ slot: '12', status: 0 }]);
    expect(p.rows.blocks).toEqual([
      {
        slot: '12',
        parent_slot: '10',
        blockhash: b58('blockhash-12'),
        block_height: '11',
        block_time: '1700000001',
        leader: b58('leader-0'),
        transaction_count: 5,
        vote_transaction_count: 2,
      },
    ]);
  });

  it('given block meta without a leader (a yellowstone source without --rpc-url), when projected, then the block row has an empty leader', () => {
    const e = slotStatus(12, SlotStatus.SLOT_STATUS_PROCESSED, { parent: 10, height: 11, txs: 5, votes: 2 });
    e.block!.leader = Buffer.alloc(0);
    const p = projectSlot(e);
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows.blocks).toEqual([expect.objectContaining({ slot: '12', leader: '', transaction_count: 5 })]);
    e.block!.leader = Buffer.alloc(5);
    expect(projectSlot(e)).toEqual({ ok: false, reason: 'slot 12: leader must be 32 bytes or empty, got 5' });
  });

  it('given confirmed, finalized and skipped records, when projected, then only status rows with the proto numbers', () => {
    for (const [s, n] of [
      [SlotStatus.SLOT_STATUS_CONFIRMED, 1],
      [SlotStatus.SLOT_STATUS_FINALIZED, 2],
      [SlotStatus.SLOT_STATUS_SKIPPED, 3],
    ] as const) {
      const p = projectSlot(slotStatus(5, s));
      if (!p.ok) throw new Error(p.reason);
      expect(p.rows).toEqual({ slot_status: [{ slot: '5', status: n }], blocks: [] });
    }
  });

  it('given a dead fork, when projected, then stored as 3 (no block on the rooted chain), never as a commitment', () => {
    const p = projectSlot(slotStatus(7, SlotStatus.SLOT_STATUS_DEAD));
    if (!p.ok) throw new Error(p.reason);
    expect(p.rows).toEqual({ slot_status: [{ slot: '7', status: 3 }], blocks: [] });
    expect(projectSlot(slotStatus(7, SlotStatus.SLOT_STATUS_DEAD, { parent: 6, height: 6 })).ok).toBe(false);
  });

  it("given Yellowstone's progress statuses or a gap record, when projected, then accepted without rows", () => {
    for (const s of [
      SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED,
      SlotStatus.SLOT_STATUS_CREATED_BANK,
      SlotStatus.SLOT_STATUS_COMPLETED,
      SlotStatus.SLOT_STATUS_GAP,
    ]) {
      expect(projectSlot(slotStatus(9, s))).toEqual({ ok: true, rows: { slot_status: [], blocks: [] } });
    }
  });

  it('given an unknown status or a skipped slot with meta, when projected, then rejected', () => {
    expect(projectSlot(slotStatus(5, 9 as SlotStatus))).toEqual({ ok: false, reason: 'slot 5: unknown status 9' });
    expect(projectSlot(slotStatus(5, SlotStatus.SLOT_STATUS_SKIPPED, { parent: 4, height: 4 })).ok).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { SlotStatus } from '../../../schemas/codec.js';
import { CONFIRM_DELAYS, FINALIZE_DELAY, GENESIS_UNIX } from './chain.js';
import { collect } from '../../../test/support/sim/checks.js';
import { leaderSchedule, validatorStakes } from './validators.js';

describe('slots, blocks and commitment', async () => {
  // No transactions: only slot structure, so thousands of slots stay cheap.
  const SLOTS = 4000;
  const batches = await collect({ tps: 0, maxSlots: SLOTS, slotsPerEpoch: 1024, skipRate: 0.05, seed: 11 });
  const statuses = batches.flatMap((b) => b.events.flatMap((e) => (e.kind === 'slots' ? [{ at: Number(b.slot), e: e.event }] : [])));
  const processed = statuses.filter((s) => s.e.status === SlotStatus.SLOT_STATUS_PROCESSED);
  const skipped = statuses.filter((s) => s.e.status === SlotStatus.SLOT_STATUS_SKIPPED);
  const dead = statuses.filter((s) => s.e.status === SlotStatus.SLOT_STATUS_DEAD);

  it('every slot is processed, skipped or dead (default dead-fork rate), once, in its own batch', () => {
    expect(processed.length + skipped.length + dead.length).toBe(SLOTS);
    expect(new Set([...processed, ...skipped, ...dead].map((s) => s.e.slot)).size).toBe(SLOTS);
    for (const s of [...processed, ...skipped, ...dead]) expect(Number(s.e.slot)).toBe(s.at);
  });

  it('the dead share is near the default deadRate of the slots not skipped (1% +- 0.5%)', () => {
    const share = dead.length / (SLOTS - skipped.length);
    expect(share).toBeGreaterThan(0.005);
    expect(share).toBeLessThan(0.015);
  });

  it('the skipped share is near skipRate (5% +- 1.5%)', () => {
    const share = skipped.length / SLOTS;
    expect(share).toBeGreaterThan(0.035);
    expect(share).toBeLessThan(0.065);
  });

  it('confirms 1-2 slots and finalizes 32 slots after processed; skipped slots never', () => {
    const when = (status: SlotStatus) => new Map(statuses.filter((s) => s.e.status === status).map((s) => [Number(s.e.slot), s.at]));
    const confirmed = when(SlotStatus.SLOT_STATUS_CONFIRMED);
    const finalized = when(SlotStatus.SLOT_STATUS_FINALIZED);
    const delays = new Set<number>();
    for (const p of processed) {
      const slot = Number(p.e.slot);
      if (slot + 2 < SLOTS) {
        const d = confirmed.get(slot)! - slot;
        delays.add(d);
        expect(CONFIRM_DELAYS).toContain(d);
      }
      if (slot + FINALIZE_DELAY < SLOTS) expect(finalized.get(slot)! - slot).toBe(FINALIZE_DELAY);
    }
    expect([...delays].sort()).toEqual([1, 2]);
    for (const s of skipped) {
      expect(confirmed.has(Number(s.e.slot))).toBe(false);
      expect(finalized.has(Number(s.e.slot))).toBe(false);
    }
  });

  it('block meta chains parents, counts block height, advances block time 400 ms per slot', () => {
    let prev: { slot: bigint; height: bigint } | undefined;
    for (const p of processed) {
      const b = p.e.block!;
      expect(b.blockhash.length).toBe(32);
      expect(b.blockTime).toBe(BigInt(GENESIS_UNIX + Math.floor((Number(p.e.slot) * 400) / 1000)));
      if (prev) {
        expect(b.parentSlot).toBe(prev.slot);
        expect(b.blockHeight).toBe(prev.height + 1n);
      }
      prev = { slot: p.e.slot, height: b.blockHeight };
    }
  });

  it('publishes each epoch record first in its first slot, with the stake-weighted schedule, and leaders follow it', () => {
    const epochs = batches.flatMap((b) => b.events.flatMap((e) => (e.kind === 'epochs' ? [{ at: b.slot, e: e.event }] : [])));
    expect(epochs.map((x) => x.e.epoch)).toEqual([0n, 1n, 2n, 3n]);
    const stakes = validatorStakes(11, 50);
    for (const { at, e } of epochs) {
      expect(e.firstSlot).toBe(at);
      expect(e.slotsPerLeader).toBe(4);
      const schedule = leaderSchedule(11, Number(e.epoch), stakes, 1024);
      expect(e.schedule.length).toBe(schedule.length);
      // The record's compact schedule names the same leader wherever leaderSchedule does.
      const identityOf = new Map<number, number>();
      schedule.forEach((v, i) => {
        const idx = e.schedule[i]!;
        if (!identityOf.has(v)) identityOf.set(v, idx);
        expect(idx).toBe(identityOf.get(v));
      });
      expect(new Set(identityOf.values()).size).toBe(identityOf.size);
      const batch = batches[Number(at)]!;
      const firstNonGenesis = batch.events.find((x) => !(x.kind === 'accounts' && x.event.isStartup));
      expect(firstNonGenesis?.kind).toBe('epochs');
    }
    for (const p of processed) {
      const ep = epochs[Math.floor(Number(p.e.slot) / 1024)]!.e;
      const run = Math.floor((Number(p.e.slot) - Number(ep.firstSlot)) / 4);
      expect(p.e.block!.leader.equals(ep.identities[ep.schedule[run]!]!)).toBe(true);
    }
  });
});

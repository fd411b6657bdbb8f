// A simulated chain with dead forks, through the projections: dead slots end up as "no block on the
// rooted chain" (3) in slot_status, never confirmed or finalized, and hold no block, transaction or
// account row, so no view answers with their data at any commitment.
import { describe, expect, it } from 'vitest';
import { SlotStatus } from '../schemas/codec.js';
import { collect } from './support/sim/checks.js';
import { project } from '../projector/projections/index.js';

describe('dead forks through the projections', () => {
  it('are stored as lost forks and leave no data behind', async () => {
    const batches = await collect({ maxSlots: 120, seed: 4, tps: 60, fast: true, deadRate: 0.1, entries: true });
    const events = batches.flatMap((b) => b.events);
    const dead = new Set(
      events.flatMap((e) => (e.kind === 'slots' && e.event.status === SlotStatus.SLOT_STATUS_DEAD ? [e.event.slot.toString()] : [])),
    );
    expect(dead.size).toBeGreaterThanOrEqual(5);
    const status = new Map<string, number>();
    const rowSlots = new Set<string>();
    for (const e of events) {
      const p = project(e);
      if (!p.ok) throw new Error(p.reason);
      for (const r of p.rows.slot_status ?? []) status.set(r.slot, Math.max(status.get(r.slot) ?? -1, r.status));
      for (const r of p.rows.blocks ?? []) rowSlots.add(r.slot);
      for (const r of p.rows.transactions ?? []) rowSlots.add(String(r.slot));
      for (const r of p.rows.account_writes ?? []) rowSlots.add(String(r.slot));
    }
    for (const s of dead) {
      expect(status.get(s)).toBe(3);
      expect(rowSlots.has(s)).toBe(false);
    }
    // Live slots still reach finalized (those 32 slots before the end).
    expect([...status.values()].filter((v) => v === 2).length).toBeGreaterThan(50);
  });
});

import { describe, expect, it } from 'vitest';
import type { FramedRecord } from './framer.js';
import { PumpState } from './pump-state.js';

/** A record of `bytes` key+value bytes from batch `slot`. */
const rec = (slot: number, bytes = 10): FramedRecord => ({
  kind: 'slots',
  partition: 0,
  key: Buffer.alloc(2),
  value: Buffer.alloc(bytes - 2),
  batchSlot: BigInt(slot),
});
const recs = (n: number, bytes = 10): FramedRecord[] => Array.from({ length: n }, (_, i) => rec(i, bytes));
/** Slot `slot`'s end marker. */
const marker = (slot: number): FramedRecord => ({ ...rec(slot), ends: BigInt(slot) });

describe('PumpState', () => {
  it('starts with nothing waiting and no open transaction', () => {
    const s = new PumpState({ maxEvents: 5, maxBytes: 1_000, intervalMs: 50, openLimitMs: 1_000 });
    expect([s.hasWaiting, s.hasOpen, s.full, s.backlogged]).toEqual([false, false, false, false]);
    expect(s.takeForOpen(0)).toEqual([]);
  });

  it('moves waiting records into the open transaction up to its record bound, in order', () => {
    const s = new PumpState({ maxEvents: 4, maxBytes: 1_000, intervalMs: 50, openLimitMs: 1_000 });
    const r = recs(6);
    s.enqueue(r);
    expect(s.takeForOpen(0)).toEqual(r.slice(0, 4));
    expect([s.hasOpen, s.full, s.hasWaiting]).toEqual([true, true, true]);
    // Full: nothing more fits until a commit begins.
    expect(s.takeForOpen(1)).toEqual([]);
    s.commitStarted();
    expect([s.hasOpen, s.full]).toEqual([false, false]);
    expect(s.takeForOpen(2)).toEqual(r.slice(4));
    expect(s.hasWaiting).toBe(false);
  });

  it('bounds a transaction by bytes: records are taken while the bytes so far are below the bound', () => {
    const s = new PumpState({ maxEvents: 100, maxBytes: 25, intervalMs: 50, openLimitMs: 1_000 });
    s.enqueue(recs(5));
    // 0 and 10 and 20 bytes are below 25: three records (30 bytes) go in, and the transaction is full.
    expect(s.takeForOpen(0)).toHaveLength(3);
    expect(s.full).toBe(true);
  });

  it('is due the interval after its first record, not after later ones, once it holds an end marker', () => {
    const s = new PumpState({ maxEvents: 100, maxBytes: 1_000, intervalMs: 50, openLimitMs: 1_000 });
    s.enqueue(recs(1));
    s.takeForOpen(1_000);
    s.enqueue([marker(0)]);
    s.takeForOpen(1_030);
    expect(s.dueAt).toBe(1_050);
    s.commitStarted();
    s.enqueue([marker(1)]);
    s.takeForOpen(1_070);
    expect(s.dueAt).toBe(1_120);
  });

  it('holds only pieces of a slot under way (no end marker) until the open limit, and the marker brings it forward', () => {
    const s = new PumpState({ maxEvents: 100, maxBytes: 1_000, intervalMs: 50, openLimitMs: 1_000 });
    s.enqueue(recs(3));
    s.takeForOpen(1_000);
    expect(s.dueAt).toBe(2_000);
    s.enqueue(recs(2));
    s.takeForOpen(1_200);
    expect(s.dueAt).toBe(2_000);
    s.enqueue([marker(0)]);
    s.takeForOpen(1_390);
    expect(s.dueAt).toBe(1_050);
    // The next transaction starts without one again.
    s.commitStarted();
    s.enqueue(recs(1));
    s.takeForOpen(1_400);
    expect(s.dueAt).toBe(2_400);
  });

  it('is backlogged once a transaction’s worth waits (records or bytes), until it is taken', () => {
    const byCount = new PumpState({ maxEvents: 3, maxBytes: 1_000, intervalMs: 50, openLimitMs: 1_000 });
    byCount.enqueue(recs(2));
    expect(byCount.backlogged).toBe(false);
    byCount.enqueue(recs(1));
    expect(byCount.backlogged).toBe(true);
    byCount.takeForOpen(0);
    expect(byCount.backlogged).toBe(false);

    const byBytes = new PumpState({ maxEvents: 100, maxBytes: 30, intervalMs: 50, openLimitMs: 1_000 });
    byBytes.enqueue([rec(0, 31)]);
    expect(byBytes.backlogged).toBe(true);
  });

  it('takes one oversized record alone into an empty transaction', () => {
    const s = new PumpState({ maxEvents: 100, maxBytes: 30, intervalMs: 50, openLimitMs: 1_000 });
    s.enqueue([rec(0, 100), rec(1)]);
    expect(s.takeForOpen(0)).toHaveLength(1);
    expect(s.full).toBe(true);
  });
});

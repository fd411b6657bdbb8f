import { describe, expect, it } from 'vitest';
import { SlotStatus, type ChainEvent } from '../schemas/codec.js';
import type { EncodedBatch } from './publisher.js';
import { pump } from './pump.js';
import type { SlotBatch } from './source.js';

const batch = (slot: number, events = 3): SlotBatch => ({
  slot: BigInt(slot),
  events: Array.from({ length: events }, (): ChainEvent => ({ kind: 'slots', event: { slot: BigInt(slot), status: SlotStatus.SLOT_STATUS_PROCESSED, block: undefined } })),
});

async function* fastSource(n: number): AsyncIterable<SlotBatch> {
  for (let i = 0; i < n; i++) yield batch(i);
}

async function* pacedSource(n: number, ms: number): AsyncIterable<SlotBatch> {
  for (let i = 0; i < n; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, ms));
    yield batch(i);
  }
}

/** Records the groups and checks that never two publishes run at once. */
function recorder(delayMs = 0) {
  const groups: bigint[][] = [];
  let running = 0;
  let overlap = false;
  const publish = async (g: EncodedBatch[]) => {
    running++;
    if (running > 1) overlap = true;
    await new Promise((r) => setTimeout(r, delayMs));
    groups.push(g.map((b) => b.slot));
    running--;
  };
  return { groups, publish, overlapped: () => overlap };
}

describe('pump', () => {
  it('groups a fast source up to maxGroupEvents, in order, one publish at a time', async () => {
    const rec = recorder(2);
    const r = await pump(fastSource(10), rec.publish, { maxGroupEvents: 9, lingerMs: 1000, maxGroupMs: 10_000 });
    expect(rec.groups).toEqual([[0n, 1n, 2n], [3n, 4n, 5n], [6n, 7n, 8n], [9n]]);
    expect(rec.overlapped()).toBe(false);
    expect(r).toEqual({ batches: 10, events: 30, lastSlot: 9n });
  });

  it('publishes each slot of a paced source on its own, without waiting for the next', async () => {
    const rec = recorder();
    await pump(pacedSource(4, 60), rec.publish, { maxGroupEvents: 1000, lingerMs: 5 });
    expect(rec.groups).toEqual([[0n], [1n], [2n], [3n]]);
  });

  it('keeps filling the next group while a publish runs, past its age limit, up to the size limit', async () => {
    // A source with a slot every 10 ms and publishes taking 120 ms: with a 20 ms age limit alone
    // every group would hold 2-3 slots; while a publish runs the next group keeps growing instead.
    const rec = recorder(120);
    await pump(pacedSource(40, 10), rec.publish, { maxGroupEvents: 3 * 30, lingerMs: 50, maxGroupMs: 20 });
    expect(rec.overlapped()).toBe(false);
    expect(rec.groups.flat()).toEqual(Array.from({ length: 40 }, (_, i) => BigInt(i)));
    expect(Math.max(...rec.groups.map((g) => g.length))).toBeGreaterThanOrEqual(6);
    expect(rec.groups.length).toBeLessThanOrEqual(8);
  });

  it('bounds a group by bytes too', async () => {
    const rec = recorder();
    // Slot 1000's PROCESSED record: 8 bytes of key, 3 of value; 33 bytes per batch of 3.
    async function* from1000(): AsyncIterable<SlotBatch> {
      for (let i = 1000; i < 1004; i++) yield batch(i);
    }
    await pump(from1000(), rec.publish, { maxGroupBytes: 60, lingerMs: 1000, maxGroupMs: 10_000 });
    expect(rec.groups).toEqual([[1000n, 1001n], [1002n, 1003n]]);
  });

  it('fails with the publish error and stops pulling the source', async () => {
    let pulled = 0;
    async function* counting(): AsyncIterable<SlotBatch> {
      for (let i = 0; ; i++) {
        pulled++;
        yield batch(i);
      }
    }
    const publish = async () => {
      throw new Error('fenced');
    };
    await expect(pump(counting(), publish, { maxGroupEvents: 3 })).rejects.toThrow('fenced');
    expect(pulled).toBeLessThan(10);
  });

  it('on abort publishes the group in hand and ends', async () => {
    const rec = recorder();
    const ctl = new AbortController();
    async function* endless(): AsyncIterable<SlotBatch> {
      for (let i = 0; ; i++) {
        if (i === 5) ctl.abort();
        yield batch(i);
      }
    }
    const r = await pump(endless(), rec.publish, { maxGroupEvents: 1000, lingerMs: 1000, maxGroupMs: 10_000, signal: ctl.signal });
    expect(rec.groups.flat()).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    expect(r.lastSlot).toBe(5n);
  });
});

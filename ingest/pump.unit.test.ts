import { describe, expect, it } from 'vitest';
import { SlotStatus, type ChainEvent } from '../schemas/codec.js';
import type { FramedRecord } from './framer.js';
import { pump } from './pump.js';
import type { SlotBatch } from './source.js';

const batch = (slot: number, events = 3): SlotBatch => ({
  slot: BigInt(slot),
  events: Array.from({ length: events }, (): ChainEvent => ({ kind: 'slots', event: { slot: BigInt(slot), status: SlotStatus.SLOT_STATUS_CONFIRMED, block: undefined } })),
});

/** One record per event, 8 bytes of key and 3 of value (the framing itself is framer.ts's business). */
const frame = (b: SlotBatch): FramedRecord[] =>
  b.events.map(() => ({ kind: 'slots', partition: 0, key: Buffer.alloc(8), value: Buffer.alloc(3), batchSlot: b.slot }));

async function* fastSource(n: number, events = 3): AsyncIterable<SlotBatch> {
  for (let i = 0; i < n; i++) yield batch(i, events);
}

async function* pacedSource(n: number, ms: number): AsyncIterable<SlotBatch> {
  for (let i = 0; i < n; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, ms));
    yield batch(i);
  }
}

/** Records the transactions (as the batch slot of each record) and checks that never two publishes run at once. */
function recorder(delayMs = 0) {
  const groups: bigint[][] = [];
  const startedAt: number[] = [];
  let running = 0;
  let overlap = false;
  const publish = async (g: FramedRecord[]) => {
    running++;
    startedAt.push(performance.now());
    if (running > 1) overlap = true;
    await new Promise((r) => setTimeout(r, delayMs));
    groups.push(g.map((r) => r.batchSlot));
    running--;
  };
  return { groups, startedAt, publish, overlapped: () => overlap };
}

describe('pump', () => {
  it('starts a transaction at once, then takes whatever came meanwhile, bounded by maxGroupEvents, in order', async () => {
    const rec = recorder(2);
    const r = await pump(fastSource(10), frame, rec.publish, { maxGroupEvents: 9 });
    expect(rec.groups[0]).toEqual([0n, 0n, 0n]);
    expect(rec.groups.flat()).toEqual(Array.from({ length: 10 }, (_, i) => [BigInt(i), BigInt(i), BigInt(i)]).flat());
    expect(Math.max(...rec.groups.map((g) => g.length))).toBe(9);
    expect(rec.overlapped()).toBe(false);
    expect(r).toEqual({ batches: 10, events: 30, lastSlot: 9n });
  });

  it('splits a batch larger than a transaction may be', async () => {
    const rec = recorder();
    await pump(fastSource(1, 25), frame, rec.publish, { maxGroupEvents: 10 });
    expect(rec.groups.map((g) => g.length)).toEqual([10, 10, 5]);
  });

  it('publishes each batch of a paced source as soon as it arrives, with no timer', async () => {
    const rec = recorder();
    const t0 = performance.now();
    await pump(pacedSource(4, 60), frame, rec.publish, { maxGroupEvents: 1000 });
    expect(rec.groups).toEqual([[0n, 0n, 0n], [1n, 1n, 1n], [2n, 2n, 2n], [3n, 3n, 3n]]);
    // The batch at 60 ms went out right away (a timer would add its period).
    expect(rec.startedAt[1]! - t0).toBeLessThan(60 + 25);
  });

  it('while a commit runs, the next transaction collects everything that arrives, and starts when it returns', async () => {
    // A batch every 10 ms and commits taking 60 ms: each transaction after the first holds about six batches.
    const rec = recorder(60);
    await pump(pacedSource(40, 10), frame, rec.publish, { maxGroupEvents: 10_000 });
    expect(rec.overlapped()).toBe(false);
    expect(rec.groups.flat()).toEqual(Array.from({ length: 40 }, (_, i) => [BigInt(i), BigInt(i), BigInt(i)]).flat());
    expect(rec.groups[0]).toEqual([0n, 0n, 0n]);
    expect(Math.max(...rec.groups.map((g) => g.length / 3))).toBeGreaterThanOrEqual(4);
    expect(rec.groups.length).toBeLessThanOrEqual(12);
  });

  it('bounds a transaction by bytes too', async () => {
    const rec = recorder(5);
    // 11 bytes per record: a 40-byte bound closes a transaction after 4 records.
    await pump(fastSource(4), frame, rec.publish, { maxGroupBytes: 40 });
    expect(Math.max(...rec.groups.map((g) => g.length))).toBe(4);
    expect(rec.groups.flat()).toHaveLength(12);
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
    await expect(pump(counting(), frame, publish, { maxGroupEvents: 3 })).rejects.toThrow('fenced');
    expect(pulled).toBeLessThan(10);
  });

  it('on abort publishes what it holds and ends', async () => {
    const rec = recorder(20);
    const ctl = new AbortController();
    async function* endless(): AsyncIterable<SlotBatch> {
      for (let i = 0; ; i++) {
        if (i === 5) ctl.abort();
        yield batch(i);
      }
    }
    const r = await pump(endless(), frame, rec.publish, { maxGroupEvents: 1000, signal: ctl.signal });
    expect(rec.groups.flat()).toEqual([0n, 1n, 2n, 3n, 4n, 5n].flatMap((s) => [s, s, s]));
    expect(r.lastSlot).toBe(5n);
  });
});

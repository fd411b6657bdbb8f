import { describe, expect, it, vi } from 'vitest';
import { SlotStatus, type ChainEvent } from '../../schemas/codec.js';
import type { FramedRecord } from './framer.js';
import { pump, type PumpSink } from './pump.js';
import type { SlotBatch } from '../source.js';

const batch = (slot: number, events = 3): SlotBatch => ({
  slot: BigInt(slot),
  events: Array.from({ length: events }, (): ChainEvent => ({
    kind: 'slots',
    event: { slot: BigInt(slot), status: SlotStatus.SLOT_STATUS_CONFIRMED, block: undefined },
  })),
});

/** One record per event, 8 bytes of key and 3 of value, the last of a batch its slot's end marker unless the batch is
 * a piece (the framing itself is framer.ts's business). */
const frame = (b: SlotBatch): FramedRecord[] =>
  b.events.map((_, i) => ({
    kind: 'slots',
    partition: 0,
    key: Buffer.alloc(8),
    value: Buffer.alloc(3),
    batchSlot: b.slot,
    ...(i === b.events.length - 1 && !b.partial ? { ends: b.slot } : {}),
  }));

async function* fastSource(n: number, events = 3): AsyncIterable<SlotBatch> {
  for (let i = 0; i < n; i++) yield batch(i, events);
}

/** A batch every `ms`; `yieldedAt` (if given) gets when each was handed over. */
async function* pacedSource(n: number, ms: number, yieldedAt: number[] = []): AsyncIterable<SlotBatch> {
  for (let i = 0; i < n; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, ms));
    yieldedAt.push(performance.now());
    yield batch(i);
  }
}

/**
 * A sink that records each transaction (the batch slot of each record added between commits), when each
 * record was added, and whether anything was added or committed while a commit ran (never allowed).
 */
function recorder(commitMs = 0) {
  const groups: bigint[][] = [];
  const addedAt: number[] = [];
  const committedAt: number[] = [];
  let open: bigint[] = [];
  let committing = false;
  let overlap = false;
  const sink: PumpSink = {
    add: async (records: FramedRecord[]) => {
      if (committing) overlap = true;
      for (const r of records) {
        open.push(r.batchSlot);
        addedAt.push(performance.now());
      }
    },
    commit: async () => {
      if (committing) overlap = true;
      committing = true;
      await new Promise((r) => setTimeout(r, commitMs));
      groups.push(open);
      open = [];
      committedAt.push(performance.now());
      committing = false;
    },
  };
  return { groups, addedAt, committedAt, sink, overlapped: () => overlap, uncommitted: () => open.length };
}

const slots = (n: number, per = 3): bigint[] => Array.from({ length: n }, (_, i) => Array.from({ length: per }, () => BigInt(i))).flat();

/** Runs `run` on virtual time (vitest's fake timers, performance.now included) to its end. The paced tests check when
 * the pump sends and commits relative to the source and the interval, which a busy machine must not move: beside a
 * running `npm start`, 79 ms of real time passed between a hand-over and its send (the bound was 30). */
async function onVirtualTime<T>(run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers();
  try {
    const done = run();
    await vi.runAllTimersAsync();
    return await done;
  } finally {
    vi.useRealTimers();
  }
}

describe('pump', () => {
  it('sends every record in order into transactions bounded by maxGroupEvents, one commit at a time', async () => {
    const rec = recorder(2);
    const r = await pump(fastSource(10), frame, rec.sink, { maxGroupEvents: 9 });
    expect(rec.groups.flat()).toEqual(slots(10));
    expect(Math.max(...rec.groups.map((g) => g.length))).toBe(9);
    expect(rec.overlapped()).toBe(false);
    expect(rec.uncommitted()).toBe(0);
    expect(r).toEqual({ batches: 10, events: 30, lastSlot: 9n });
  });

  it('stamps each record with when its batch arrived, unless the source stamped it (a framing thread)', async () => {
    const added: FramedRecord[] = [];
    const sink: PumpSink = { add: async (records) => void added.push(...records), commit: async () => {} };
    const before = Date.now();
    const stamped = (b: SlotBatch): FramedRecord[] => frame(b).map((r) => (b.slot === 1n ? { ...r, handedAt: 42 } : r));
    await pump(fastSource(3), stamped, sink);
    expect(added.map((r) => r.handedAt === 42)).toEqual([false, false, false, true, true, true, false, false, false]);
    expect(added.filter((r) => r.batchSlot !== 1n).every((r) => r.handedAt! >= before && r.handedAt! <= Date.now())).toBe(true);
  });

  it('splits a batch larger than a transaction may be', async () => {
    const rec = recorder();
    await pump(fastSource(1, 25), frame, rec.sink, { maxGroupEvents: 10 });
    expect(rec.groups.map((g) => g.length)).toEqual([10, 10, 5]);
  });

  it('sends each batch of a paced source the moment it arrives, and commits it within the commit interval', async () => {
    const rec = recorder();
    const yielded: number[] = [];
    await onVirtualTime(() => pump(pacedSource(4, 100, yielded), frame, rec.sink, { maxGroupEvents: 1000, commitIntervalMs: 40 }));
    expect(rec.groups.flat()).toEqual(slots(4));
    // The second batch was sent as the source handed it over, not after a commit or a timer (40 ms) ...
    expect(rec.addedAt[3]! - yielded[1]!).toBe(0);
    // ... and its transaction committed once the interval had passed, before the next batch came.
    expect(rec.committedAt[1]! - rec.addedAt[3]!).toBeGreaterThanOrEqual(40);
    expect(rec.committedAt[1]!).toBeLessThan(yielded[2]!);
    expect(rec.groups[1]).toEqual([1n, 1n, 1n]);
  });

  it('commits a slot handed over in pieces once its end marker is in, not a piece at a time', async () => {
    // Four slots of five pieces 20 ms apart (the simulator's and a yellowstone source's pieces): the pieces go out on
    // arrival, and each slot's transaction is committed after its last piece (its marker), within the interval.
    async function* pieces(): AsyncIterable<SlotBatch> {
      for (let slot = 0; slot < 4; slot++)
        for (let i = 0; i < 5; i++) {
          await new Promise((r) => setTimeout(r, 20));
          yield { ...batch(slot, 1), ...(i < 4 ? { partial: true } : {}) };
        }
    }
    const rec = recorder();
    await onVirtualTime(() => pump(pieces(), frame, rec.sink, { maxGroupEvents: 1000, commitIntervalMs: 40, openLimitMs: 1_000 }));
    expect(rec.groups).toEqual([0, 1, 2, 3].map((s) => Array.from({ length: 5 }, () => BigInt(s))));
    // A slot that outlasts the open limit is committed in parts (read_committed readers are never more than that behind).
    const slow = recorder();
    await onVirtualTime(() => pump(pieces(), frame, slow.sink, { maxGroupEvents: 1000, commitIntervalMs: 40, openLimitMs: 50 }));
    expect(slow.groups.length).toBeGreaterThan(4);
    expect(slow.groups.flat()).toEqual(rec.groups.flat());
  });

  it('keeps a transaction open for the interval, taking every batch that arrives in it', async () => {
    // A batch every 10 ms and a 45 ms interval: each transaction holds several batches, all sent on arrival.
    const rec = recorder(1);
    await onVirtualTime(() => pump(pacedSource(20, 10), frame, rec.sink, { maxGroupEvents: 10_000, commitIntervalMs: 45 }));
    expect(rec.groups.flat()).toEqual(slots(20));
    expect(Math.max(...rec.groups.map((g) => g.length / 3))).toBeGreaterThanOrEqual(3);
    expect(rec.groups.length).toBeLessThanOrEqual(10);
    expect(rec.overlapped()).toBe(false);
  });

  it('while a commit runs, arrivals wait and go into the next transaction when it returns', async () => {
    // A batch every 10 ms and commits taking 60 ms: what arrives during one is sent right after it.
    const rec = recorder(60);
    await onVirtualTime(() => pump(pacedSource(30, 10), frame, rec.sink, { maxGroupEvents: 10_000, commitIntervalMs: 1 }));
    expect(rec.overlapped()).toBe(false);
    expect(rec.groups.flat()).toEqual(slots(30));
    expect(Math.max(...rec.groups.map((g) => g.length / 3))).toBeGreaterThanOrEqual(4);
    expect(rec.groups.length).toBeLessThanOrEqual(12);
  });

  it('bounds a transaction by bytes too', async () => {
    const rec = recorder(5);
    // 11 bytes per record: a 40-byte bound closes a transaction after 4 records.
    await pump(fastSource(4), frame, rec.sink, { maxGroupBytes: 40 });
    expect(Math.max(...rec.groups.map((g) => g.length))).toBe(4);
    expect(rec.groups.flat()).toHaveLength(12);
  });

  it('fails with the commit error and stops pulling the source', async () => {
    let pulled = 0;
    async function* counting(): AsyncIterable<SlotBatch> {
      for (let i = 0; ; i++) {
        pulled++;
        yield batch(i);
      }
    }
    const sink: PumpSink = {
      add: async () => undefined,
      commit: async () => {
        throw new Error('fenced');
      },
    };
    await expect(pump(counting(), frame, sink, { maxGroupEvents: 3 })).rejects.toThrow('fenced');
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
    const r = await pump(endless(), frame, rec.sink, { maxGroupEvents: 1000, signal: ctl.signal });
    expect(rec.groups.flat()).toEqual(slots(6));
    expect(rec.uncommitted()).toBe(0);
    expect(r.lastSlot).toBe(5n);
  });
});

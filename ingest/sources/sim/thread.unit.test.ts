import { describe, expect, it } from 'vitest';
import { topicNames, type RecordKind } from '../../../schemas/topics.js';
import { SlotFramer } from '../../publish/framer.js';
import { createSimSource } from './createSimSource.js';
import { DEFAULT_SIM_OPTIONS, type SimOptions } from './options.js';
import { simFramedBatches, SimThreadError } from './thread.js';
import { expectEqual } from '../../../test/support/harness/expect-equal.js';

const topics = topicNames('thread-test');
const partitions = new Map<RecordKind, number>([
  ['transactions', 4],
  ['accounts', 8],
  ['slots', 2],
  ['entries', 2],
  ['epochs', 1],
]);
const sim: SimOptions = { ...DEFAULT_SIM_OPTIONS, seed: 11, tps: 200, slotMs: 0, fast: true, maxSlots: 30, deadRate: 0.05 };

// A worker thread compiles its modules through tsx when it starts: the tests allow seconds for that.
describe('the simulator in a worker thread', () => {
  it('hands over the records the same simulator framed on this thread gives, from where it is told', async () => {
    for (const afterSlot of [undefined, 17n]) {
      const framer = new SlotFramer(partitions, topics);
      const here = [];
      for await (const b of createSimSource(sim).batches({ afterSlot })) here.push(...framer.frame(b));
      const there = [];
      const started = Date.now();
      for await (const b of simFramedBatches({ sim, afterSlot, partitions, topics })) {
        expect(b.records.every((r) => r.batchSlot === b.slot)).toBe(true);
        // Stamped in the thread when the simulator handed the batch over, before framing and the hand-off.
        expect(b.records.every((r) => r.handedAt !== undefined && r.handedAt >= started && r.handedAt <= Date.now())).toBe(true);
        there.push(...b.records.map(({ handedAt: _, ...r }) => r));
      }
      expect(there.length).toBeGreaterThan(1_000);
      expectEqual(there, here);
      expect(there.filter((r) => r.ends !== undefined).length).toBeGreaterThan(10);
    }
  });

  it('stops the thread when the caller stops early, and names a failure in it', async () => {
    let n = 0;
    for await (const b of simFramedBatches({ sim: { ...sim, maxSlots: 0 }, afterSlot: undefined, partitions, topics })) {
      expect(b.records.length).toBeGreaterThan(0);
      if (++n === 3) break;
    }
    const bad = simFramedBatches({ sim, afterSlot: -5n, partitions, topics }).next();
    await expect(bad).rejects.toThrow(SimThreadError);
    await expect(bad).rejects.toThrow(/afterSlot out of range/);
  });
});

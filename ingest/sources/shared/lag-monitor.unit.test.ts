import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../../platform/log.js';
import { health } from '../../../platform/metrics.js';
import { lagMonitor } from './lag-monitor.js';
import type { ChainSource, SlotBatch } from '../../source.js';

/** The warn and info lines a monitor logs. */
function lines(): { log: Logger; got: string[] } {
  const got: string[] = [];
  const log = { warn: (_o: unknown, msg: string) => got.push(msg), info: (_o: unknown, msg: string) => got.push(msg) } as unknown as Logger;
  return { log, got };
}

describe('lagMonitor', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("counts the upstream's silence from when the source is first asked for batches, not from when the monitor was made", async () => {
    vi.useFakeTimers({ now: 0 });
    const { log, got } = lines();
    const m = lagMonitor({ stallMs: 3_000, maxLagSlots: 5, log, what: 'test source' });
    // The ingest takes 10 s to start (its name claim, its producer) before it asks the source for anything.
    vi.setSystemTime(10_000);
    let release: () => void = () => undefined;
    const source: ChainSource = {
      notes: [],
      async *batches(): AsyncGenerator<SlotBatch> {
        // The upstream answers 2 s after it was asked.
        await new Promise<void>((r) => (release = r));
        m.tracker.upstream(7n, Date.now());
        yield { slot: 7n, events: [] };
      },
    };
    const it = m.wrap(source).batches({})[Symbol.asyncIterator]();
    const first = it.next();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await health()).toBe('ok');
    release();
    expect((await first).value?.slot).toBe(7n);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(got).toEqual([]);
    // Silent for longer than the limit from then on: behind, naming the tip.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(got).toEqual([
      expect.stringMatching(/^test source: behind: the upstream's tip \(slot 7\) has not advanced for \d+ ms \(limit 3000 ms\)$/),
    ]);
    await it.return?.(undefined);
  });
});

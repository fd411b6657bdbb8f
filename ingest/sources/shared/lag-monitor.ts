// Puts a source's lag (lag.ts) where operators see it: the lag gauges, a `behind` health check on
// /health for as long as the source runs, and a log line when the ingest turns behind or recovers. The
// source reports the upstream's tip through the tracker; every batch it yields counts as handed over.
import type { Logger } from '../../../platform/log.js';
import { addHealthCheck } from '../../../platform/metrics.js';
import { LagTracker, type LagOptions } from './lag.js';
import { ingestMetrics } from '../../metrics.js';
import type { ChainSource, SlotBatch } from '../../source.js';

/** How often the gauges follow the clock: lag in ms grows while nothing happens. */
const REFRESH_MS = 1_000;

export interface LagMonitor {
  readonly tracker: LagTracker;
  /** The source with its batches counted as handed over, and the health check live while they run. */
  wrap(source: ChainSource): ChainSource;
}

export function lagMonitor(o: LagOptions & { log: Logger; what: string }): LagMonitor {
  const m = ingestMetrics();
  const tracker = new LagTracker(o, Date.now());
  let behind = false;
  const refresh = () => {
    const s = tracker.state(Date.now());
    m.lagSlots.set(s.slots);
    m.lagMs.set(s.ms);
    m.behind.set(s.health === 'behind' ? 1 : 0);
    if ((s.health === 'behind') !== behind) {
      behind = !behind;
      if (behind) o.log.warn({ lagSlots: s.slots, lagMs: s.ms, sinceTipMs: s.sinceTipMs }, `${o.what}: behind: ${s.reason}`);
      else o.log.info({ lagSlots: s.slots, lagMs: s.ms }, `${o.what}: caught up with the upstream again`);
    }
    return s;
  };
  async function* monitored(batches: AsyncIterable<SlotBatch>, afterSlot: bigint | undefined): AsyncGenerator<SlotBatch> {
    if (afterSlot !== undefined) tracker.handedOver(afterSlot);
    // The upstream's silence counts from here, when the source is first asked for batches (lag.ts `begin`).
    tracker.begin(Date.now());
    const remove = addHealthCheck(() => refresh().health);
    const timer = setInterval(refresh, REFRESH_MS);
    timer.unref();
    try {
      for await (const b of batches) {
        tracker.handedOver(b.slot);
        yield b;
      }
    } finally {
      clearInterval(timer);
      remove();
    }
  }
  return {
    tracker,
    wrap: (source) => ({ notes: source.notes, batches: (opts) => monitored(source.batches(opts), opts.afterSlot) }),
  };
}

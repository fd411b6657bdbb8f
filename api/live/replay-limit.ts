// How many `from_slot` replays one api process runs at once. Each replay is its own Kafka partition reader
// (a librdkafka consumer: about 4 threads and a prefetch queue of up to 256 MiB) that reads history as fast as
// the broker serves it, so they compete with the live tail for CPU, memory and broker bandwidth. A replay over
// the bound is refused at once (the transport answers RESOURCE_EXHAUSTED naming the limit) rather than queued:
// a client that retries later, or subscribes live, is better served than one that waits without knowing why.
// No I/O: it counts permits (and keeps the metrics); the session holds one from the moment it starts a replay
// until its last reader stopped.
import { replaysRefused, replaysRunning } from './metrics.js';

/** Default of `--max-replays`. */
export const DEFAULT_MAX_REPLAYS = 8;

export class ReplayLimit {
  private inUse = 0;

  constructor(
    /** Replays allowed at once (at least 1). */
    readonly max: number,
  ) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`max replays must be a whole number >= 1, got ${max}`);
  }

  get running(): number {
    return this.inUse;
  }

  /** Takes a permit; false when `max` replays already run. */
  tryAcquire(): boolean {
    if (this.inUse >= this.max) {
      replaysRefused.inc();
      return false;
    }
    this.inUse++;
    replaysRunning.inc();
    return true;
  }

  /** Gives a permit back (once per successful tryAcquire). */
  release(): void {
    if (this.inUse === 0) throw new Error('ReplayLimit.release without a permit');
    this.inUse--;
    replaysRunning.dec();
  }

  /** What a refused client is told. */
  refusal(): string {
    return `too many concurrent from_slot replays: at most ${this.max} per api process (--max-replays ${this.max}); retry later, or subscribe without from_slot`;
  }
}

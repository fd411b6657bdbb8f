// Rates of counters for the status page (pure: the clock is passed in). Each snapshot adds a sample of the counters;
// a rate is the change since the oldest sample kept (at most `windowMs` old, at least the previous one), per second.
// A counter that went down (a process restarted the count) gives no rate until two samples agree again.

export class RateTracker {
  private samples: { at: number; values: ReadonlyMap<string, number> }[] = [];

  constructor(private readonly windowMs = 5_000) {}

  /** Adds a sample taken at `at` (ms) and returns the rate per second of each key present in both it and the oldest
   * sample of the window; undefined for a key seen for the first time, or before a second sample. */
  sample(at: number, values: ReadonlyMap<string, number>): Map<string, number | undefined> {
    while (this.samples.length > 1 && at - this.samples[1]!.at >= this.windowMs) this.samples.shift();
    const oldest = this.samples[0];
    this.samples.push({ at, values });
    const out = new Map<string, number | undefined>();
    for (const [key, v] of values) {
      const before = oldest?.values.get(key);
      const seconds = oldest === undefined ? 0 : (at - oldest.at) / 1000;
      out.set(key, before === undefined || seconds <= 0 || v < before ? undefined : (v - before) / seconds);
    }
    return out;
  }
}

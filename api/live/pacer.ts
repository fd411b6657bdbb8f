// Replay pace (issue 23 item 3): when a replayed record may go on, so that a replay takes the recorded time
// divided by the pace. Recorded time is the records' Kafka timestamps (when the ingest produced them, ms):
// Solana's block times are whole seconds, too coarse for 400 ms slots (and for a simulated chain's 20 ms
// ones); a backfill ingested faster than the chain ran replays at its ingest speed (said in the README).
// Pure: the clock is a parameter. The first record sets the origin; records come per partition, so a
// timestamp older than one already passed goes on at once (the replay's clock never runs backwards).

export class Pacer {
  private originWall: number | undefined;
  private originTs = 0;
  private newestTs = 0;

  constructor(
    /** N times the recorded speed (> 0). */
    private readonly pace: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(pace > 0) || !Number.isFinite(pace)) throw new Error(`pace must be a finite number > 0, got ${pace}`);
  }

  /** Milliseconds to wait before handing on a record stamped `timestampMs` (0: now). */
  delayFor(timestampMs: number): number {
    if (this.originWall === undefined) {
      this.originWall = this.now();
      this.originTs = timestampMs;
      this.newestTs = timestampMs;
      return 0;
    }
    if (timestampMs > this.newestTs) this.newestTs = timestampMs;
    const due = this.originWall + (this.newestTs - this.originTs) / this.pace;
    return Math.max(0, due - this.now());
  }
}

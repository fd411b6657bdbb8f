// Replay pace (issue 23 item 3): when a replayed record may go on, so that a replay takes the recorded time
// divided by the pace. Recorded time is the records' Kafka timestamps (when the ingest produced them, ms):
// Solana's block times are whole seconds, too coarse for 400 ms slots (and for a simulated chain's 20 ms
// ones); a backfill ingested faster than the chain ran replays at its ingest speed (said in the README).
// Pure: the clock is a parameter. The first record sets the origin; each record is due at
// origin + (its timestamp - the origin's) / pace, so records of several partitions, each held until it is due
// (replay.ts `PacedQueue`), go on in timestamp order whatever order the reader fetched them in; one older than
// the origin, or already due, goes on at once.

export class Pacer {
  private originWall: number | undefined;
  private originTs = 0;

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
      return 0;
    }
    const due = this.originWall + (timestampMs - this.originTs) / this.pace;
    return Math.max(0, due - this.now());
  }
}

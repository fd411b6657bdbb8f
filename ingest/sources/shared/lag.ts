// How far an ingest trails its upstream (pure: the clock is passed in). The upstream reports its tip (the
// highest slot it has announced: Yellowstone's slot updates, JSON-RPC's getSlot); the source reports each
// slot it hands to the publisher. Lag is then
//   - in slots: the upstream's tip minus the last slot handed over;
//   - in milliseconds: how long ago the upstream announced the oldest slot not handed over yet (0 when
//     caught up). A slot already past when tracking began (a backfill) has no announcement time: it is
//     estimated from the first tip seen, at Solana's 400 ms per slot.
// The upstream stalls when its tip has not advanced for `stallMs`; the ingest is behind when it trails by
// more than `maxLagSlots`. Either makes /health say `behind`.

export interface LagOptions {
  stallMs: number;
  maxLagSlots: number;
  /** Milliseconds per slot for slots announced before tracking began (Solana's target: 400). */
  slotMs?: number;
}

export interface LagState {
  health: 'ok' | 'behind';
  /** Why `behind`, for the log. */
  reason?: string;
  slots: number;
  ms: number;
  /** Milliseconds since the upstream's tip last advanced (or since tracking began). */
  sinceTipMs: number;
}

/** Announcement times kept at most; past that every other one is dropped (the oldest stays), so a long
 * backfill costs bounded memory and the estimate errs on the low side only by the thinning. */
const MAX_MARKS = 4096;

export class LagTracker {
  private tip: bigint | undefined;
  private tipAt: number;
  private first: { slot: bigint; at: number } | undefined;
  private last: bigint | undefined;
  /** (slot, when the upstream's tip reached it), ascending, only slots above `last`. */
  private marks: { slot: bigint; at: number }[] = [];
  private readonly slotMs: number;

  constructor(
    private readonly o: LagOptions,
    startedAt: number,
  ) {
    this.tipAt = startedAt;
    this.slotMs = o.slotMs ?? 400;
  }

  get upstreamTip(): bigint | undefined {
    return this.tip;
  }

  /**
   * The source starts reading its upstream at `now`: an upstream that has reported nothing yet counts as
   * silent from here, not from when the tracker was made (the ingest claims its name and opens its producer
   * in between, seconds on a busy machine, before it asks the upstream for anything).
   */
  begin(now: number): void {
    if (this.tip === undefined) this.tipAt = now;
  }

  /** The upstream announced `slot` (any status) at `now`. */
  upstream(slot: bigint, now: number): void {
    if (this.tip !== undefined && slot <= this.tip) return;
    this.tip = slot;
    this.tipAt = now;
    this.first ??= { slot, at: now };
    if (this.last !== undefined && slot <= this.last) return;
    this.marks.push({ slot, at: now });
    if (this.marks.length > MAX_MARKS) this.marks = this.marks.filter((_, i) => i % 2 === 0 || i === this.marks.length - 1);
  }

  /** The source handed `slot` to the publisher. */
  handedOver(slot: bigint): void {
    if (this.last !== undefined && slot <= this.last) return;
    this.last = slot;
    let drop = 0;
    while (drop < this.marks.length && this.marks[drop]!.slot <= slot) drop++;
    if (drop > 0) this.marks = this.marks.slice(drop);
  }

  state(now: number): LagState {
    const slots = this.tip === undefined ? 0 : Math.max(0, Number(this.tip - (this.last ?? this.tip)));
    const ms = slots === 0 ? 0 : Math.max(0, now - this.announcedAt(this.last! + 1n));
    const sinceTipMs = Math.max(0, now - this.tipAt);
    if (sinceTipMs > this.o.stallMs) {
      const what = this.tip === undefined ? 'the upstream has reported no slot' : `the upstream's tip (slot ${this.tip}) has not advanced`;
      return { health: 'behind', reason: `${what} for ${sinceTipMs} ms (limit ${this.o.stallMs} ms)`, slots, ms, sinceTipMs };
    }
    if (slots > this.o.maxLagSlots) {
      return {
        health: 'behind',
        reason: `the ingest trails the upstream's tip (slot ${this.tip}) by ${slots} slots (limit ${this.o.maxLagSlots})`,
        slots,
        ms,
        sinceTipMs,
      };
    }
    return { health: 'ok', slots, ms, sinceTipMs };
  }

  /** When the upstream announced `slot`: the first mark at or above it, or an estimate for slots that
   * were already past when tracking began. */
  private announcedAt(slot: bigint): number {
    const f = this.first!;
    if (slot <= f.slot) return f.at - Number(f.slot - slot) * this.slotMs;
    for (const m of this.marks) if (m.slot >= slot) return m.at;
    return this.tipAt;
  }
}

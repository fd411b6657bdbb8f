// The yellowstone source's reconnect state (pure): where the next subscription resumes and how long to wait
// before it. A subscription that delivered anything resets the wait; one that ends or fails without an
// update doubles it, from the first reconnect delay up to the maximum.
import { retryDelay, type RetryPolicy } from '../../../platform/retry.js';

/** Waits before the n-th reconnect in a row double at most this many times (then the cap holds anyway). */
const MAX_DOUBLINGS = 16;

export class Reconnects {
  // Where the next subscription resumes: the slot after the last one handed over (undefined: a fresh start,
  // live). Set at construction from the resume point; moved only by `ended`, to the slot after the
  // assembler's last one.
  private resume: bigint | undefined;
  // Subscriptions in a row that ended without delivering an update: reset by `received`, counted by
  // `ended`; it picks the wait before the next subscription.
  private failures = 0;

  constructor(
    afterSlot: bigint | undefined,
    private readonly policy: RetryPolicy,
  ) {
    this.resume = afterSlot === undefined ? undefined : afterSlot + 1n;
  }

  get resumeFrom(): bigint | undefined {
    return this.resume;
  }

  /** An update arrived: the connection works, the next failure starts the waits over. */
  received(): void {
    this.failures = 0;
  }

  /** The subscription ended (or failed) after the assembler handed over up to `lastSlot`: the wait before
   * the next one, in ms. */
  ended(lastSlot: bigint | undefined): number {
    if (lastSlot !== undefined) this.resume = lastSlot + 1n;
    return retryDelay(this.policy, Math.min(this.failures++, MAX_DOUBLINGS));
  }
}

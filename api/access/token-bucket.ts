// A token bucket on an injected clock (pure): `rate` tokens a second up to `capacity`. JSON-RPC requests take
// whole tokens and wait for them (429 with Retry-After); stream bytes may overdraw by one message, so a message
// larger than a second's allowance still goes out once the bucket has anything left.

export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    readonly rate: number,
    readonly capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.at = now;
  }

  private refill(now: number): void {
    if (now > this.at) this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.rate) / 1000);
    this.at = Math.max(this.at, now);
  }

  /** Takes `n` tokens if the bucket holds them: 0. Otherwise takes none and returns the ms until it will
   * (Infinity when `n` is more than the bucket ever holds, or the rate is 0). */
  take(n: number, now: number): number {
    this.refill(now);
    if (this.tokens >= n) {
      this.tokens -= n;
      return 0;
    }
    if (n > this.capacity || this.rate <= 0) return Infinity;
    return Math.ceil(((n - this.tokens) * 1000) / this.rate);
  }

  /** Takes `n` if anything is left (the balance may go below 0); false when the bucket was already empty. */
  overdraw(n: number, now: number): boolean {
    this.refill(now);
    if (this.tokens <= 0) return false;
    this.tokens -= n;
    return true;
  }
}

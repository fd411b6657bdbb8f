// The one retry loop: every "try again after a growing wait" in the codebase (Kafka calls, the publisher's
// transactions, the ingest name claim, the projector's inserts, the rpc source's requests, the local broker's
// port races) runs through `retry` with its own policy, so delays, jitter and give-up rules are data, not
// hand-written loops. A loop that is not "call until it works" (the Yellowstone source's reconnects) takes
// its waits from `retryDelay` with a policy of the same shape.
import { sleep } from './sleep.js';

export interface RetryPolicy {
  /** Wait after the first failure, ms (0: retry at once). */
  initialMs: number;
  /** Each wait is the previous one times this (default 2). */
  factor?: number;
  /** Longest wait, ms. */
  maxMs: number;
  /** Gives up after this many attempts in all (default: never). */
  maxAttempts?: number;
  /** Gives up on a failure that comes more than this long after the first attempt began (default: never). */
  deadlineMs?: number;
  /** Share of each wait drawn at random: the wait lies between (1 - jitter) and 1 times the computed one
   * (default 0: exact waits). */
  jitter?: number;
}

export interface RetryOptions {
  policy: RetryPolicy;
  /** Aborting ends a wait between attempts with a StopError; no further attempt is made. (An attempt under
   * way is the callee's to abort: `retry` does not check the signal before calling it.) */
  signal?: AbortSignal | undefined;
  /** Whether a failure may be retried; `attempt` is the failed attempt's number, from 0 (default: every error). */
  isRetriable?: (err: unknown, attempt: number) => boolean;
  /** A wait the failure itself asks for (an HTTP Retry-After), used instead of the policy's. */
  waitOf?: (err: unknown, attempt: number) => number | undefined;
  /** Called before each wait (logs, metrics, dropping a broken client); a promise is awaited. */
  onRetry?: (err: unknown, attempt: number, waitMs: number) => void | Promise<void>;
  /** Tests: the source of the jitter (default Math.random). */
  random?: () => number;
}

/** The wait after failed attempt `attempt` (from 0): initial × factor^attempt, capped at the maximum, with jitter. */
export function retryDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(policy.maxMs, policy.initialMs * (policy.factor ?? 2) ** attempt);
  const jitter = policy.jitter ?? 0;
  return Math.round(jitter > 0 ? base * (1 - jitter + jitter * random()) : base);
}

/**
 * Calls `fn` until it resolves; a failure that is not retriable, or that exhausts the policy's attempts or
 * deadline, is thrown as it is. `fn` gets the attempt's number (from 0).
 */
export async function retry<T>(fn: (attempt: number) => Promise<T>, o: RetryOptions): Promise<T> {
  const { policy } = o;
  const deadline = policy.deadlineMs === undefined ? Infinity : Date.now() + policy.deadlineMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (o.isRetriable && !o.isRetriable(err, attempt)) throw err;
      if (policy.maxAttempts !== undefined && attempt + 1 >= policy.maxAttempts) throw err;
      if (Date.now() > deadline) throw err;
      const wait = o.waitOf?.(err, attempt) ?? retryDelay(policy, attempt, o.random);
      await o.onRetry?.(err, attempt, wait);
      await sleep(wait, o.signal);
    }
  }
}

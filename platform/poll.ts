// The one poll loop, beside `retry` (retry.ts): "look again every so often until it is so" (a standby reading
// the active copy's heartbeat until it stops moving). `retry` repeats a call until it stops failing; `pollUntil`
// repeats a probe that succeeds until it says the awaited state is reached, so waits, the deadline and a stop
// are data, not hand-written loops. The waits are plain sleeps on the caller's signal: a stop ends them at once.
import { sleep } from './sleep.js';

export interface PollOptions {
  /** Wait between two probes, ms. */
  intervalMs: number;
  /** Aborting ends a wait with a StopError; no further probe is made. */
  signal?: AbortSignal | undefined;
  /** Gives up with a PollTimeoutError once a probe that did not reach the state ends this long after the first
   * began (default: never). */
  deadlineMs?: number;
  /** Names the awaited state in a PollTimeoutError (default "the condition"). */
  what?: string;
}

/** The awaited state was not reached before the deadline. */
export class PollTimeoutError extends Error {
  override name = 'PollTimeoutError';
}

/**
 * Calls `probe` now and then every `intervalMs` until it answers something other than `undefined` or `false`,
 * and returns that answer. A probe that throws ends the poll with its error (wrap it in `retry` to outlast
 * failures); `probe` gets the probe's number (from 0).
 */
export async function pollUntil<T>(
  probe: (attempt: number) => Promise<T | undefined | false> | T | undefined | false,
  o: PollOptions,
): Promise<T> {
  const deadline = o.deadlineMs === undefined ? Infinity : Date.now() + o.deadlineMs;
  for (let attempt = 0; ; attempt++) {
    const answer = await probe(attempt);
    if (answer !== undefined && answer !== false) return answer;
    if (Date.now() >= deadline) throw new PollTimeoutError(`${o.what ?? 'the condition'} not reached within ${o.deadlineMs} ms`);
    await sleep(o.intervalMs, o.signal);
  }
}

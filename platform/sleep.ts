// The one abortable sleep: retries and polls wait with it, and stop waiting when their signal aborts
// (the role shutting down), rejecting with the one stop error so each loop can tell a shutdown from a failure.
import { StopError } from './stop.js';

/** Resolves after `ms`; rejects with a StopError at once if `signal` is (or becomes) aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new StopError());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new StopError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

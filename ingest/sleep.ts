// The one abortable sleep of the ingest role: retries and polling wait with it, and stop waiting when
// the role shuts down. Each caller names the error an abort rejects with, so its own loop can tell a
// shutdown from a failure.

/** Resolves after `ms`; rejects with `aborted()` at once if `signal` is (or becomes) aborted. */
export function abortableSleep(ms: number, signal: AbortSignal | undefined, aborted: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

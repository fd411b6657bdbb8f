// The one way a stop is signalled: work given an AbortSignal that is aborted (a role shutting down, a
// caller giving up) rejects with a StopError, whatever layer it was in (a retry's wait, an RPC call, a
// publish). Callers tell a shutdown from a failure with `isStop`, never by message text.

/** Work ended because its signal was aborted: not a failure. */
export class StopError extends Error {
  override name = 'StopError';
  constructor(message = 'stopped') {
    super(message);
  }
}

export const isStop = (err: unknown): err is StopError => err instanceof StopError;

/** Throws a StopError when `signal` is aborted. */
export function throwIfStopped(signal: AbortSignal | undefined, what = 'stopped'): void {
  if (signal?.aborted) throw new StopError(what);
}

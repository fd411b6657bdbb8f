// A small JSON-RPC client for a Solana node: one POST per call, u64 values kept exact (rpc-json.ts). What is
// worth retrying is retried here, with exponential backoff: HTTP 429 (waiting what Retry-After says),
// other 5xx answers, network errors and timeouts. JSON-RPC errors are returned to the caller as UpstreamRpcError,
// which decides per code (-32004 retried, -32007/-32009 skipped, in source.ts).
import type { Logger } from '../../../platform/log.js';
import { retry, type RetryPolicy } from '../../../platform/retry.js';
import { throwIfStopped } from '../../../platform/stop.js';
import { parseJsonExact } from './rpc-json.js';

export class UpstreamRpcError extends Error {
  override name = 'UpstreamRpcError';
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${code} ${message}`);
  }
}

/** The node refused the request at the HTTP level (401, 403, 404, ...): not a data problem, and not retried. */
export class RpcHttpError extends Error {
  override name = 'RpcHttpError';
}

export interface RpcClientOptions {
  url: string;
  /** Per request. */
  timeoutMs: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Longest Retry-After honoured. */
  maxRetryAfterMs?: number;
  log: Logger;
  signal?: AbortSignal | undefined;
  /** Called once per retried attempt (metrics). */
  onRetry?: (reason: string) => void;
}

/** Retry-After: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const s = Number(header);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The rpc source's waits: doubling from min (250 ms) to max (10 s), with up to 20% jitter below. */
export const rpcRetryPolicy = (min = 250, max = 10_000): RetryPolicy => ({ initialMs: min, maxMs: max, jitter: 0.2 });

/** A request that may succeed when sent again (HTTP 429 or 5xx, a network error, a timeout). */
class PassingFailure extends Error {
  constructor(
    readonly reason: string,
    readonly retryAfterMs?: number,
  ) {
    super(reason);
  }
}

interface Envelope {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export class RpcClient {
  private id = 0;
  constructor(private readonly o: RpcClientOptions) {}

  /** Calls `method` until it gets an answer; throws UpstreamRpcError for a JSON-RPC error, StopError on abort. */
  call<T>(method: string, params: unknown[] = []): Promise<T> {
    return retry(
      async () => {
        throwIfStopped(this.o.signal, 'aborted');
        const r = await this.once(method, params);
        if (!r.ok) throw new PassingFailure(r.reason, r.retryAfterMs);
        if (r.body.error) throw new UpstreamRpcError(method, r.body.error.code, r.body.error.message, r.body.error.data);
        return r.body.result as T;
      },
      {
        policy: rpcRetryPolicy(this.o.minBackoffMs, this.o.maxBackoffMs),
        signal: this.o.signal,
        isRetriable: (err) => err instanceof PassingFailure,
        waitOf: (err) => {
          const after = (err as PassingFailure).retryAfterMs;
          return after === undefined ? undefined : Math.min(after, this.o.maxRetryAfterMs ?? 60_000);
        },
        onRetry: (err, attempt, wait) => {
          const { reason } = err as PassingFailure;
          this.o.onRetry?.(reason);
          this.o.log.warn(
            { method, attempt: attempt + 1, reason, waitMs: wait },
            `rpc source: ${method} failed (${reason}), retrying in ${wait} ms`,
          );
        },
      },
    );
  }

  private async once(
    method: string,
    params: unknown[],
  ): Promise<{ ok: true; body: Envelope } | { ok: false; reason: string; retryAfterMs?: number | undefined }> {
    const timeout = AbortSignal.timeout(this.o.timeoutMs);
    const signal = this.o.signal ? AbortSignal.any([this.o.signal, timeout]) : timeout;
    try {
      const res = await fetch(this.o.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }),
        signal,
      });
      const text = await res.text();
      if (res.status === 429) return { ok: false, reason: 'HTTP 429', retryAfterMs: retryAfterMs(res.headers.get('retry-after')) };
      if (res.status >= 500) return { ok: false, reason: `HTTP ${res.status}`, retryAfterMs: retryAfterMs(res.headers.get('retry-after')) };
      if (res.status !== 200) throw new RpcHttpError(`${method}: ${this.o.url} answered HTTP ${res.status}: ${text.slice(0, 200)}`);
      return { ok: true, body: parseJsonExact(text) as Envelope };
    } catch (e) {
      throwIfStopped(this.o.signal, 'aborted');
      if (e instanceof RpcHttpError) throw e;
      if (timeout.aborted) return { ok: false, reason: `timed out after ${this.o.timeoutMs} ms` };
      return {
        ok: false,
        reason: `${(e as Error).message}${(e as { cause?: Error }).cause ? `: ${(e as { cause: Error }).cause.message}` : ''}`,
      };
    }
  }
}

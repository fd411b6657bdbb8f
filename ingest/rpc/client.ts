// A small JSON-RPC client for a Solana node: one POST per call, u64 values kept exact (json.ts). What is
// worth retrying is retried here, with exponential backoff: HTTP 429 (waiting what Retry-After says),
// other 5xx answers, network errors and timeouts. JSON-RPC errors are returned to the caller as UpstreamRpcError,
// which decides per code (-32004 retried, -32007/-32009 skipped, in source.ts).
import type { Logger } from '../../platform/log.js';
import { abortableSleep } from '../sleep.js';
import { parseJsonExact } from './json.js';

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

export class RpcAbortedError extends Error {
  override name = 'RpcAbortedError';
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

/** Backoff before attempt `n` (0-based) of a retry: doubling from min to max, with up to 20% jitter. */
export function backoffMs(n: number, min: number, max: number, random = Math.random): number {
  const base = Math.min(max, min * 2 ** Math.min(n, 30));
  return Math.round(base * (0.8 + 0.2 * random()));
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> => abortableSleep(ms, signal, () => new RpcAbortedError('aborted'));

interface Envelope {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export class RpcClient {
  private id = 0;
  constructor(private readonly o: RpcClientOptions) {}

  /** Calls `method` until it gets an answer; throws UpstreamRpcError for a JSON-RPC error, RpcAbortedError on abort. */
  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const min = this.o.minBackoffMs ?? 250;
    const max = this.o.maxBackoffMs ?? 10_000;
    for (let attempt = 0; ; attempt++) {
      if (this.o.signal?.aborted) throw new RpcAbortedError('aborted');
      const r = await this.once(method, params);
      if (r.ok) {
        if (r.body.error) throw new UpstreamRpcError(method, r.body.error.code, r.body.error.message, r.body.error.data);
        return r.body.result as T;
      }
      const wait = r.retryAfterMs !== undefined ? Math.min(r.retryAfterMs, this.o.maxRetryAfterMs ?? 60_000) : backoffMs(attempt, min, max);
      this.o.onRetry?.(r.reason);
      this.o.log.warn({ method, attempt: attempt + 1, reason: r.reason, waitMs: wait }, `rpc source: ${method} failed (${r.reason}), retrying in ${wait} ms`);
      await sleep(wait, this.o.signal);
    }
  }

  private async once(method: string, params: unknown[]): Promise<{ ok: true; body: Envelope } | { ok: false; reason: string; retryAfterMs?: number | undefined }> {
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
      if (this.o.signal?.aborted) throw new RpcAbortedError('aborted');
      if (e instanceof RpcHttpError) throw e;
      if (timeout.aborted) return { ok: false, reason: `timed out after ${this.o.timeoutMs} ms` };
      return { ok: false, reason: `${(e as Error).message}${(e as { cause?: Error }).cause ? `: ${(e as { cause: Error }).cause.message}` : ''}` };
    }
  }
}

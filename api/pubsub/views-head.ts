// The views' processed head as signatureSubscribe's wait reads it (subscription.ts, `viewsReached`): every
// subscription waiting for the views to reach a slot polls it, and while the views trail the live read (their usual
// second or two) that is nearly every subscription to a transaction just sent. So the reads are shared: one per
// `everyMs` per views (a ClickHouse query, or a call to the engine process), however many subscriptions wait.
import type { StreamViews } from '../live/stream-views.js';

const reads = new WeakMap<StreamViews, { at: number; head: Promise<bigint> }>();

/** The views' processed head (-1 when they hold none), read at most once per `everyMs` for all callers. */
export function sharedProcessedHead(views: StreamViews, everyMs: number, now = performance.now()): Promise<bigint> {
  const last = reads.get(views);
  if (last !== undefined && now - last.at < everyMs) return last.head;
  const head = views.head('processed').then((s) => s ?? -1n);
  head.catch(() => undefined); // a failed read is each waiter's to handle; none must be left unhandled
  reads.set(views, { at: now, head });
  return head;
}

// The link between `slotstream all`'s engine and the child processes it runs (its stream processes,
// cli/stream-workers.ts, and its ingest, cli/ingest-child.ts): the messages over the IPC channel and both ends of
// them. The primary asks a child for its metrics (the engine's /metrics merges them) and tells it to stop; a child
// says once that it serves (or failed to start), answers metrics requests, and leaves when told to, on a signal,
// or when the primary is gone (its channel closes).
import type { ChildProcess } from 'node:child_process';
import { registry, type MetricsJson } from '../platform/metrics.js';

/** What a child tells the primary. `grpc`/`pubsub`: a stream process's shared public ports. */
export type ChildMessage =
  | { kind: 'serving'; metrics: number; grpc?: number; pubsub?: number }
  | { kind: 'failed'; message: string }
  | { kind: 'metrics'; id: number; metrics: MetricsJson };
/** What the primary tells a child: stop, or send its metrics (answered with the same id). */
export type PrimaryMessage = { kind: 'stop' } | { kind: 'metrics'; id: number };

/** A child that does not answer a metrics request within this is left out of that scrape (busy or dying). */
const METRICS_WAIT_MS = 2_000;
const STOP_WAIT_MS = 20_000;

/** A child restarted sooner than this after its start waits before the next one (a crash loop costs no CPU). */
const RESTART_BACKOFF_MS = 1_000;

/**
 * Starts a dead child's successor: at once, or after the backoff when the dead one lived less than it; not when the
 * primary is stopping by then. `fork` resolves with what `restarted` logs.
 */
export function restartChild<T>(
  started: number,
  stopping: () => boolean,
  fork: () => Promise<T>,
  restarted: (t: T) => void,
  failed: (err: unknown) => void,
): void {
  const wait = Date.now() - started < RESTART_BACKOFF_MS ? RESTART_BACKOFF_MS : 0;
  setTimeout(() => {
    if (!stopping()) fork().then(restarted, failed);
  }, wait).unref();
}

const isGone = (c: ChildProcess): boolean => c.exitCode !== null || c.signalCode !== null;

/** Asks one child for its metrics; none when it is gone or does not answer in time. */
export function askMetrics(c: ChildProcess, id: number): Promise<MetricsJson[]> {
  if (!c.connected) return Promise.resolve([]);
  return new Promise((resolve) => {
    const done = (answer: MetricsJson[]) => {
      clearTimeout(timer);
      c.off('message', onMessage);
      c.off('exit', onExit);
      resolve(answer);
    };
    const onMessage = (m: ChildMessage) => m.kind === 'metrics' && m.id === id && done([m.metrics]);
    const onExit = () => done([]);
    const timer = setTimeout(() => done([]), METRICS_WAIT_MS);
    c.on('message', onMessage);
    c.once('exit', onExit);
    c.send({ kind: 'metrics', id } satisfies PrimaryMessage);
  });
}

/** Stops one child: its own shutdown on the primary's word (or SIGTERM without a channel), SIGKILL after a wait. */
export function stopChild(c: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (isGone(c)) return resolve();
    const timer = setTimeout(() => c.kill('SIGKILL'), STOP_WAIT_MS);
    c.once('exit', () => (clearTimeout(timer), resolve()));
    if (c.connected) c.send({ kind: 'stop' } satisfies PrimaryMessage);
    else c.kill('SIGTERM');
  });
}

/** The child's end: `stop` runs once, on the primary's word, SIGINT/SIGTERM, or the primary gone; metrics answered. */
export function answerPrimary(stop: (why: string) => void): void {
  process.on('message', (m: PrimaryMessage) => {
    if (m?.kind === 'stop') stop('primary');
    else if (m?.kind === 'metrics')
      void registry.getMetricsAsJSON().then((metrics) => process.send?.({ kind: 'metrics', id: m.id, metrics } satisfies ChildMessage));
  });
  process.once('disconnect', () => stop('primary gone'));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** The child tells the primary it serves (its own metrics port, and a stream process's public ports). */
export const tellServing = (m: Omit<Extract<ChildMessage, { kind: 'serving' }>, 'kind'>): void => {
  process.send?.({ kind: 'serving', ...m } satisfies ChildMessage);
};

/** The child tells the primary it failed to start. */
export const tellFailed = (message: string): void => {
  process.send?.({ kind: 'failed', message } satisfies ChildMessage);
};

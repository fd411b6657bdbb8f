// Prometheus metrics and health on one HTTP port. Every role registers its metrics on the shared
// registry; `/health` asks the checks the roles registered.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { AggregatorRegistry, Gauge, Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { HttpListener } from './http-listen.js';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

// The main thread's busy share (perf_hooks event-loop utilization) since the previous scrape: what decides a
// process's capacity (issue 33: the one JS thread that every role of a process shares). bench:soak scrapes every
// process once a second and reports it per minute.
let eluAt: EventLoopUtilization = performance.eventLoopUtilization();
new Gauge({
  name: 'slotstream_event_loop_utilization',
  help: 'Share of the time the main thread was busy (not waiting in the event loop) since the previous scrape, 0..1',
  registers: [registry],
  // Merged over a primary's stream processes (processMetrics): the busiest thread, which is the ceiling.
  aggregator: 'max',
  collect() {
    const now = performance.eventLoopUtilization();
    this.set(performance.eventLoopUtilization(now, eluAt).utilization);
    eluAt = now;
  },
});

export type HealthState = 'ok' | 'behind' | 'unknown';
type HealthCheck = () => Promise<HealthState> | HealthState;
const healthChecks: HealthCheck[] = [];

/** Registers a check; the returned function removes it (a part that stops, e.g. an ingest's source). */
export function addHealthCheck(check: HealthCheck): () => void {
  healthChecks.push(check);
  return () => {
    const i = healthChecks.indexOf(check);
    if (i >= 0) healthChecks.splice(i, 1);
  };
}

/** The worst state of all registered checks (`ok` when there are none). */
export async function health(): Promise<HealthState> {
  let worst: HealthState = 'ok';
  for (const check of healthChecks) {
    const state = await Promise.resolve()
      .then(check)
      .catch((): HealthState => 'unknown');
    if (state === 'unknown') return 'unknown';
    if (state === 'behind') worst = 'behind';
  }
  return worst;
}

/** A part that says how much history its stores hold (projector/history.ts): /health/history's JSON, and its
 * gauges refreshed before each /metrics scrape. */
export type HistorySource = () => Promise<readonly object[]>;
const historySources: HistorySource[] = [];

/** Registers a history source; the returned function removes it. */
export function addHistorySource(source: HistorySource): () => void {
  historySources.push(source);
  return () => {
    const i = historySources.indexOf(source);
    if (i >= 0) historySources.splice(i, 1);
  };
}

/** Every source's stores (a source that fails is left out: the figures are for operators, never a gate). */
export async function history(): Promise<object[]> {
  const all = await Promise.all(historySources.map((s) => s().catch((): readonly object[] => [])));
  return all.flat();
}

/** One process's samples, as prom-client's `getMetricsAsJSON` gives them (and a cluster worker sends them). */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];
/** Other processes' metrics to merge into this one's (a primary's stream processes, cli/stream-workers.ts). */
export type MetricsSource = () => Promise<readonly MetricsJson[]>;
const metricsSources: MetricsSource[] = [];

/** Registers a source of other processes' metrics; the returned function removes it. */
export function addMetricsSource(source: MetricsSource): () => void {
  metricsSources.push(source);
  return () => {
    const i = metricsSources.indexOf(source);
    if (i >= 0) metricsSources.splice(i, 1);
  };
}

/**
 * What /metrics and the status page read: this process's registry, merged with the registered sources' (with
 * stream processes, the engine answers for all of them, as Prometheus scrapes one port). prom-client's cluster
 * aggregation merges them: counters, histograms and gauges summed per label set (open streams, connections),
 * except where a metric names another `aggregator` (the event-loop share: the busiest). A source that fails is
 * left out: the figures are for operators, never a gate.
 */
export async function processMetrics(): Promise<Registry> {
  if (metricsSources.length === 0) return registry;
  const others = await Promise.all(metricsSources.map((s) => s().catch((): readonly MetricsJson[] => [])));
  return AggregatorRegistry.aggregate([await registry.getMetricsAsJSON(), ...others.flat()]);
}

/** JSON with bigints as decimal strings (slots are u64). */
const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

type Answer = (res: ServerResponse) => Promise<unknown>;

/** The metrics port's routes (exact paths); any other path is a 404. */
export const METRICS_ROUTES: Readonly<Record<string, Answer>> = {
  '/metrics': (res) =>
    history()
      .then(() => processMetrics())
      .then((merged) => merged.metrics())
      .then(
        (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
        (err: Error) => res.writeHead(500).end(err.message),
      ),
  '/health/history': (res) => history().then((stores) => res.writeHead(200, { 'content-type': 'application/json' }).end(json({ stores }))),
  '/health': (res) => health().then((state) => res.writeHead(state === 'unknown' ? 503 : 200, { 'content-type': 'text/plain' }).end(state)),
};

/** The request handler of the metrics port: METRICS_ROUTES by path. */
export function metricsHandler(req: IncomingMessage, res: ServerResponse): void {
  const answer = METRICS_ROUTES[req.url ?? ''];
  if (answer === undefined) res.writeHead(404).end();
  else void answer(res);
}

/** `exclusive`: a cluster worker binds a port of its own rather than sharing the primary's (cli/stream-workers.ts). */
export function startMetricsServer(host: string, port: number, exclusive = false): Promise<MetricsServer> {
  return HttpListener.open(metricsHandler, { host, port, exclusive });
}

// Every metric slotstream exposes, read from prom-client's registry (platform/metrics.ts) after importing each
// module that defines metrics and calling the factories that create theirs on first use. METRIC_MODULES lists those
// modules; a test checks it against the code (every non-test file that constructs a prom-client metric is listed).
import { registry } from '../../../platform/metrics.js';

/** Repository-relative paths of the modules that construct prom-client metrics. */
export const METRIC_MODULES = [
  'platform/metrics.ts',
  'ingest/metrics.ts',
  'ingest/sources/rpc/metrics.ts',
  'ingest/sources/yellowstone/metrics.ts',
  'projector/metrics.ts',
  'projector/history.ts',
  'api/grpc/metrics.ts',
  'api/jsonrpc/metrics.ts',
  'api/views/metrics.ts',
  'api/pubsub/metrics.ts',
  'api/live/metrics.ts',
  'api/access/usage.ts',
  'platform/pump-tables.ts',
] as const;

export interface ExposedMetric {
  name: string;
  type: string;
  labels: string[];
}

/** The registered metrics, by name. */
export async function exposedMetrics(): Promise<Map<string, ExposedMetric>> {
  const { ingestMetrics } = await import('../../../ingest/metrics.js');
  const { rpcSourceMetrics } = await import('../../../ingest/sources/rpc/metrics.js');
  const { yellowstoneMetrics } = await import('../../../ingest/sources/yellowstone/metrics.js');
  ingestMetrics();
  rpcSourceMetrics();
  yellowstoneMetrics();
  await import('../../../projector/metrics.js');
  await import('../../../projector/history.js');
  await import('../../../api/grpc/metrics.js');
  await import('../../../api/jsonrpc/metrics.js');
  await import('../../../api/views/metrics.js');
  await import('../../../api/pubsub/metrics.js');
  await import('../../../api/live/metrics.js');
  await import('../../../api/access/usage.js');
  await import('../../../platform/pump-tables.js');
  const out = new Map<string, ExposedMetric>();
  for (const m of registry.getMetricsAsArray()) {
    const { name, type, labelNames } = m as unknown as { name: string; type: string; labelNames: string[] };
    out.set(name, { name, type: String(type), labels: [...labelNames] });
  }
  return out;
}

/** The series names a scrape shows for a metric (a histogram's _bucket, _sum and _count; a summary's _sum, _count). */
export function seriesNames(m: ExposedMetric): string[] {
  if (m.type === 'histogram') return [`${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`];
  if (m.type === 'summary') return [m.name, `${m.name}_sum`, `${m.name}_count`];
  return [m.name];
}

/** Prometheus's own series about each target, which every scrape adds. */
export const SCRAPE_SERIES = ['up', 'scrape_duration_seconds', 'scrape_samples_scraped'];

/** The metric names a PromQL expression reads: slotstream's own, prom-client's default ones (process_, nodejs_)
 * and the scrape series. Names inside label matchers' values and after `by`/`on` are not metric names. */
export function metricNamesIn(expr: string): string[] {
  const noStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const names = new Set<string>();
  for (const m of noStrings.matchAll(/(?<![\w:])(slotstream_\w+|process_\w+|nodejs_\w+|up(?=\s*[{=!<>)]|\s*$))/g)) names.add(m[1]!);
  return [...names];
}

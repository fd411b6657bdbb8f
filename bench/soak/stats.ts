// The soak's arithmetic (pure): percentiles, a least-squares slope, and the per-run summary line.

/** The parts a geyser.Geyser transaction's end-to-end latency is measured in (client-worker.ts's `stagesMs`). */
export const STAGES = ['wait', 'ingest', 'serve'] as const;
export type Stage = (typeof STAGES)[number];

/** The p-th percentile (0..100, nearest rank) of `xs`; NaN when empty. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Least-squares slope of y over x (units of y per unit of x); 0 with fewer than two distinct x. */
export function slope(points: readonly (readonly [x: number, y: number])[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, p) => a + p[0], 0) / n;
  const my = points.reduce((a, p) => a + p[1], 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export interface SoakSummary {
  multiple: number;
  minutes: number;
  ingestLagP99Slots: number;
  viewsLagP99Slots: number;
  e2eP99Ms: number;
  cpuCores: number;
  rssSlopeMbPerH: number;
  diskGbPerDay: number;
  cutoffs: number;
  errors: number;
  /** JSON-RPC answer time p99 over the run (ms). */
  rpcP99Ms: number;
  /** The Node process whose main thread was busiest (event-loop utilization, the run's mean). */
  busiestThread: { process: string; share: number };
}

const fmt = (x: number, digits: number): string => (Number.isFinite(x) ? x.toFixed(digits) : String(x));

/** `soak multiple=<m> minutes=<n> ingest_lag_p99_slots=.. views_lag_p99_slots=.. e2e_p99_ms=.. cpu_cores=..
 * rss_slope_mb_per_h=.. disk_gb_per_day=.. cutoffs=.. errors=.. rpc_p99_ms=.. busiest_thread=<process>:<share>`
 * (issues 22 and 33). */
export function summaryLine(s: SoakSummary): string {
  return (
    `soak multiple=${s.multiple} minutes=${s.minutes} ingest_lag_p99_slots=${fmt(s.ingestLagP99Slots, 0)} ` +
    `views_lag_p99_slots=${fmt(s.viewsLagP99Slots, 0)} e2e_p99_ms=${fmt(s.e2eP99Ms, 0)} cpu_cores=${fmt(s.cpuCores, 2)} ` +
    `rss_slope_mb_per_h=${fmt(s.rssSlopeMbPerH, 0)} disk_gb_per_day=${fmt(s.diskGbPerDay, 1)} cutoffs=${s.cutoffs} errors=${s.errors} ` +
    `rpc_p99_ms=${fmt(s.rpcP99Ms, 0)} busiest_thread=${s.busiestThread.process}:${fmt(s.busiestThread.share, 2)}`
  );
}

/** Parses a summary line back (the soak test reads the driver's output with it); undefined when none. Numbers
 * only: busiest_thread's share is read from its `<process>:<share>` form. */
export function parseSummaryLine(text: string): Record<string, number> | undefined {
  const line = text.split('\n').find((l) => l.startsWith('soak multiple='));
  if (!line) return undefined;
  return Object.fromEntries(
    line
      .slice('soak '.length)
      .split(' ')
      .map((kv) => {
        const [k, v] = kv.split('=');
        return [k!, Number(k === 'busiest_thread' ? v!.slice(v!.lastIndexOf(':') + 1) : v)];
      }),
  );
}

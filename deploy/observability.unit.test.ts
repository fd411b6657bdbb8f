// The alert rules (deploy/prometheus/) and dashboards (deploy/grafana/) against what slotstream exposes: promtool
// checks the rules and runs their unit tests (slotstream.rules.test.yml), every dashboard query parses as PromQL
// (promtool, as recording rules), and every metric a rule or a panel reads is one the code registers, with label
// matchers on labels it has. test/prometheus.int.test.ts runs the rules in a real Prometheus.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import {
  exposedMetrics,
  metricNamesIn,
  METRIC_MODULES,
  SCRAPE_SERIES,
  seriesNames,
  type ExposedMetric,
} from '../test/support/metrics/exposed.js';
import { prometheusBinary } from '../test/support/prometheus/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RULES = join(ROOT, 'deploy/prometheus/slotstream.rules.yml');
const GRAFANA = join(ROOT, 'deploy/grafana');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface Panel {
  title: string;
  type: string;
  targets?: { expr: string }[];
}
interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
}

const rules = (parse(readFileSync(RULES, 'utf8')) as { groups: { name: string; rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const dashboards = readdirSync(GRAFANA)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, dashboard: JSON.parse(readFileSync(join(GRAFANA, f), 'utf8')) as Dashboard }));

const promtool = (...args: string[]): string =>
  execFileSync(prometheusBinary('promtool'), args, { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });

let exposed: Map<string, ExposedMetric>;
/** Series name -> its metric. */
let series: Map<string, ExposedMetric | undefined>;

beforeAll(async () => {
  exposed = await exposedMetrics();
  series = new Map<string, ExposedMetric | undefined>(SCRAPE_SERIES.map((s) => [s, undefined]));
  for (const m of exposed.values()) for (const s of seriesNames(m)) series.set(s, m);
});

/** What is wrong with an expression's metrics: names slotstream does not expose, or matchers on labels they lack. */
function problems(expr: string): string[] {
  const out: string[] = [];
  const names = metricNamesIn(expr);
  if (names.length === 0) out.push(`reads no slotstream metric: ${expr}`);
  for (const name of names) {
    if (!series.has(name)) out.push(`${name} is not a metric slotstream exposes`);
  }
  for (const m of expr.matchAll(/(?<![\w:])(\w+)\{([^}]*)\}/g)) {
    const metric = series.get(m[1]!);
    if (metric === undefined) continue;
    const allowed = new Set([...metric.labels, 'instance', 'job', ...(metric.type === 'histogram' ? ['le'] : [])]);
    for (const l of m[2]!.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)) {
      if (!allowed.has(l[1]!)) out.push(`${m[1]} has no label ${l[1]} (it has ${[...allowed].join(', ')})`);
    }
  }
  return out;
}

describe('the metric check itself', () => {
  it('flags a misspelled metric and a label a metric does not have, and passes the real ones', () => {
    expect(problems('slotstream_ingest_lag_slotz > 1')).toEqual(['slotstream_ingest_lag_slotz is not a metric slotstream exposes']);
    expect(problems('slotstream_ingest_behind{topic="x"} == 1')[0]).toMatch(/^slotstream_ingest_behind has no label topic/);
    expect(problems('rate(nodejs_gc_duration_seconds_bucket{le="1"}[1m]) + up{job="a"}')).toEqual([]);
    expect(problems('vector(1)')).toEqual(['reads no slotstream metric: vector(1)']);
  });

  it('imports every module that constructs a prom-client metric', () => {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (['node_modules', '.cache', '.git', 'test', 'bench', '.data', 'examples'].includes(e.name)) continue;
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts') && !e.name.includes('.test.')) {
          const text = readFileSync(p, 'utf8');
          if (/from 'prom-client'/.test(text) && /new (Counter|Gauge|Histogram|Summary)\b|collectDefaultMetrics\(/.test(text))
            found.push(relative(ROOT, p));
        }
      }
    };
    walk(ROOT);
    expect(found.sort()).toEqual([...METRIC_MODULES].sort());
  });
});

describe('deploy/prometheus/slotstream.rules.yml', () => {
  it('passes promtool check rules', () => {
    expect(promtool('check', 'rules', RULES)).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('passes its promtool unit tests (slotstream.rules.test.yml)', () => {
    expect(promtool('test', 'rules', join(ROOT, 'deploy/prometheus/slotstream.rules.test.yml'))).toMatch(/SUCCESS/);
  });

  it('alerts on what the issue names, each with a severity and a summary', () => {
    const names = rules.map((r) => r.alert);
    for (const a of [
      'SlotstreamIngestBehind',
      'SlotstreamIngestStalled',
      'SlotstreamUpstreamDown',
      'SlotstreamProjectorLag',
      'SlotstreamViewsBehind',
      'SlotstreamSlowClientCutoffs',
      'SlotstreamDeadLetters',
      'SlotstreamKeyLimitsHit',
      'SlotstreamUpstreamOneDown',
      'SlotstreamNoActiveIngest',
      'SlotstreamPumpUndecoded',
    ])
      expect(names).toContain(a);
    for (const r of rules) {
      expect(['page', 'ticket'], r.alert).toContain(r.labels?.severity);
      expect(r.annotations?.summary, r.alert).toBeTruthy();
    }
  });

  it.each(rules.map((r) => [r.alert ?? r.record, r.expr]))('%s reads metrics slotstream exposes', (_name, expr) => {
    expect(problems(expr!)).toEqual([]);
  });
});

describe('the status page (api/status/snapshot.ts)', () => {
  it('reads metrics slotstream exposes', () => {
    const names = [...readFileSync(join(ROOT, 'api/status/snapshot.ts'), 'utf8').matchAll(/'(slotstream_\w+)'/g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(10);
    for (const n of names) expect(series.has(n), n).toBe(true);
  });
});

describe('deploy/grafana dashboards', () => {
  it('are the ingest, Kafka, projector, api and tenants dashboards, each with its own uid', () => {
    expect(dashboards.map((d) => d.file).sort()).toEqual(['api.json', 'ingest.json', 'kafka.json', 'projector.json', 'tenants.json']);
    expect(new Set(dashboards.map((d) => d.dashboard.uid)).size).toBe(dashboards.length);
  });

  it('query only PromQL that parses (promtool, as recording rules)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slotstream-dashboards-'));
    try {
      const groups = dashboards.map(({ file, dashboard }) => ({
        name: file,
        rules: dashboard.panels.flatMap((p, i) =>
          (p.targets ?? []).map((t, j) => ({
            record: `${file.replace('.json', '')}_panel_${i}_${j}`,
            expr: t.expr.replaceAll('$instance', '.*'),
          })),
        ),
      }));
      const file = join(dir, 'panels.yml');
      writeFileSync(file, stringify({ groups }));
      expect(promtool('check', 'rules', file)).toMatch(/SUCCESS: \d+ rules found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const panels = dashboards.flatMap(({ file, dashboard }) => dashboard.panels.map((p) => [`${file}: ${p.title}`, p] as const));
  it.each(panels)('%s reads metrics slotstream exposes', (_title, panel) => {
    expect(panel.targets?.length ?? 0).toBeGreaterThan(0);
    for (const t of panel.targets!) expect(problems(t.expr)).toEqual([]);
  });
});

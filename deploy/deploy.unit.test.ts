// The deployment files (deploy/Dockerfile, deploy/compose.yaml, deploy/helm/slotstream) checked as far as a machine
// without a container engine, Kubernetes or Helm allows: the YAML parses; every environment variable set for a role
// is one of that role's options (each part's options file, composed in cli/config.ts) and the whole set passes the config's parsing and rules as the
// CLI would run them; every port is the one the role's config then serves; every probe path answers on a real
// metrics server; every command is a role the CLI (bin/slotstream, the image's entrypoint) starts with --help; the
// image copies every folder the code imports at run time.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { validateBeforeStart } from '../cli/validate.js';
import { OPTIONS, parseConfig, ROLES, type Config, type Role } from '../cli/config.js';
import { startMetricsServer, type MetricsServer } from '../platform/metrics.js';
import { prometheusBinary } from '../test/support/prometheus/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

type Spec = { env: string; roles: readonly Role[] };
const SPECS = Object.values(OPTIONS) as Spec[];
const OPTION_ENVS = new Map(SPECS.map((s) => [s.env, s]));

/** What is wrong with setting `env` for `role`: names that are no option of the role. */
function notOptions(role: Role, env: Record<string, string>): string[] {
  return Object.keys(env).flatMap((name) => {
    const spec = OPTION_ENVS.get(name);
    if (spec === undefined) return [`${name} is not an option of slotstream`];
    if (!spec.roles.includes(role)) return [`${name} is not an option of role ${role}`];
    return [];
  });
}

/** The config the CLI builds from this environment, after the checks it runs before starting (throws as the CLI would). */
function configOf(role: Role, args: readonly string[], env: Record<string, string>): Config {
  const { config, positionals } = parseConfig(role, args, env);
  validateBeforeStart(config, positionals);
  return config;
}

let metrics: MetricsServer;
beforeAll(async () => {
  metrics = await startMetricsServer('127.0.0.1', 0);
});
afterAll(async () => {
  await metrics?.close();
});

/** The status a path answers on a real metrics server (what a probe gets). */
const probe = async (path: string) =>
  // A fresh connection each time: a pooled one the server's keep-alive timer closes meanwhile would reset.
  (await fetch(`http://127.0.0.1:${metrics.port}${path}`, { headers: { connection: 'close' } })).status;

describe('the checks themselves', () => {
  it('refuse an unknown variable, an option of another role, and a value the config rejects', () => {
    expect(notOptions('ingest', { INGEST_SORCE: 'sim' })).toEqual(['INGEST_SORCE is not an option of slotstream']);
    expect(notOptions('projector', { GRPC_PORT: '1' })).toEqual(['GRPC_PORT is not an option of role projector']);
    expect(() => configOf('ingest', [], { INGEST_SOURCE: 'yellowstone' })).toThrow(/needs --yellowstone-url/);
    expect(() => configOf('api', [], { GRPC_PORT: 'x' })).toThrow(/GRPC_PORT: must be a number/);
  });
  it('a probe of a path the metrics server does not serve gets 404', async () => {
    expect(await probe('/healthz')).toBe(404);
    expect(await probe('/health')).toBe(200);
  });
});

// A node process with tsx each: seconds on a loaded machine.
describe('the roles the deployments run', () => {
  const roles = ['ingest', 'projector', 'api'] as const;
  it.each(roles)('bin/slotstream %s --help starts the CLI for that role', (role) => {
    const r = spawnSync(join(ROOT, 'bin/slotstream'), [role, '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`slotstream ${role} [options]`);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('deploy/Dockerfile', () => {
  const text = read('deploy/Dockerfile');
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const stages: string[][] = [];
  for (const l of lines) {
    if (/^FROM /i.test(l)) stages.push([]);
    stages.at(-1)?.push(l);
  }
  const final = stages.at(-1)!;
  const instr = (stage: string[], name: string) => stage.filter((l) => l.startsWith(name + ' ')).map((l) => l.slice(name.length + 1));

  it('is multi-stage: a build stage, and a run stage that copies from it', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]![0]).toMatch(/^FROM \S+ AS build$/);
    expect(instr(final, 'COPY').some((c) => c.includes('--from=build'))).toBe(true);
  });

  it('runs as a user other than root', () => {
    const users = instr(final, 'USER');
    expect(users.length).toBe(1);
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/);
  });

  it('builds the native Kafka client as scripts/setup.sh does, and ships the run-time libraries of its -dev packages', () => {
    expect(instr(stages[0]!, 'RUN').join(' ')).toMatch(/bash scripts\/setup\.sh/);
    const setup = read('scripts/setup.sh');
    expect(setup).toMatch(/CKJS_LINKING="\$\{CKJS_LINKING:-dynamic\}"/);
    const dev = /DEBIAN_PACKAGES=\(([^)]*)\)/.exec(setup)![1]!.trim().split(/\s+/);
    const runtime: Record<string, string> = {
      'libssl-dev': 'libssl3',
      'zlib1g-dev': 'zlib1g',
      'libzstd-dev': 'libzstd1',
      'libsasl2-dev': 'libsasl2-2',
      'liblz4-dev': 'liblz4-1',
    };
    const installed = instr(final, 'RUN').join(' ');
    for (const p of dev) {
      expect(runtime[p], `the run-time package of ${p}`).toBeDefined();
      expect(installed).toMatch(new RegExp(`\\b${runtime[p]}\\b`));
    }
  });

  it('sets only options as environment variables (and NODE_ENV)', () => {
    const env: Record<string, string> = {};
    for (const e of instr(final, 'ENV')) for (const m of e.matchAll(/(\w+)=(\S+)/g)) env[m[1]!] = m[2]!;
    delete env.NODE_ENV;
    expect(Object.keys(env).length).toBeGreaterThan(0);
    for (const role of ['ingest', 'projector', 'api'] as const) {
      expect(notOptions(role, env)).toEqual([]);
      expect(() => configOf(role, [], env)).not.toThrow();
    }
  });

  it("exposes the api's and metrics' default ports and probes /health on the metrics port", async () => {
    const d = parseConfig('api', [], {}).config;
    const exposed = instr(final, 'EXPOSE').flatMap((e) => e.split(/\s+/).map(Number));
    expect(exposed.sort()).toEqual([d.grpcPort, d.rpcPort, d.pubsubPort, d.metricsPort].sort());
    const health = instr(final, 'HEALTHCHECK').join(' ');
    expect(health).toContain(`|| ${d.metricsPort}) + '/health'`);
    expect(await probe('/health')).toBe(200);
  });

  it('starts bin/slotstream, and copies every folder the code imports at run time', () => {
    const entry = instr(final, 'ENTRYPOINT').join(' ');
    expect(entry).toContain('"/app/bin/slotstream"');
    const copied = instr(stages[0]!, 'COPY')
      .filter((c) => !c.includes('--from'))
      .map((c) => c.split(/\s+/)[0]!);
    for (const c of copied) expect(existsSync(join(ROOT, c)), c).toBe(true);
    const roots = new Set(copied.filter((c) => !c.includes('.')));
    const outside = new Set<string>();
    const walk = (dir: string): void => {
      for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts') && !e.name.includes('.test.')) {
          for (const m of read(p).matchAll(/(?:from |import\()'(\.\.?\/[^']+)'/g)) {
            const target = relative(ROOT, resolve(ROOT, dirname(p), m[1]!));
            const top = target.split('/')[0]!;
            if (!roots.has(top)) outside.add(`${p} imports ${target}`);
          }
        }
      }
    };
    for (const r of roots) if (r !== 'bin' && r !== 'patches' && r !== 'scripts') walk(r);
    expect([...outside]).toEqual([]);
    // The image prunes devDependencies (npm prune --omit=dev): the run-time code imports only dependencies.
    const { dependencies } = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    const devImports = new Set<string>();
    const scan = (dir: string): void => {
      for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) scan(p);
        else if (e.name.endsWith('.ts') && !e.name.includes('.test.')) {
          for (const m of read(p).matchAll(/(?:from |import\()'([^'.][^']*)'/g)) {
            if (m[1]!.startsWith('node:')) continue;
            const parts = m[1]!.split('/');
            const pkg = m[1]!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
            if (!(pkg in dependencies)) devImports.add(`${p} imports ${pkg}`);
          }
        }
      }
    };
    for (const r of roots) if (r !== 'bin' && r !== 'patches' && r !== 'scripts') scan(r);
    expect([...devImports]).toEqual([]);
    const ignored = read('deploy/Dockerfile.dockerignore')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    for (const r of roots) expect(ignored, r).not.toContain(r);
  });
});

// ---------------------------------------------------------------------------------------------------------------
interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
}

/** Compose's interpolation: ${X:-default} and ${X} from `vars`, else the default (empty when none). */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_m, name: string, def?: string) => vars[name] ?? def ?? '');
}

describe('deploy/compose.yaml', () => {
  const compose = parse(read('deploy/compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
  const services = compose.services;
  const slotstream = Object.entries(services).filter(([, s]) => s.build?.dockerfile === 'deploy/Dockerfile');
  // How an operator runs it on mainnet (the file's header): the yellowstone source from the environment.
  const MAINNET = {
    INGEST_SOURCE: 'yellowstone',
    YELLOWSTONE_URL: 'https://yellowstone.example.com:443',
    YELLOWSTONE_X_TOKEN: 'token',
    INGEST_RPC_URL: 'https://rpc.example.com',
    SLOTSTREAM_TOKEN: 'secret',
  };

  it('has 3 KRaft brokers, a ClickHouse server, ingest active + standby, 2 projectors, 3 apis, Prometheus, Grafana', () => {
    expect(Object.keys(services).sort()).toEqual(
      [
        'kafka-1',
        'kafka-2',
        'kafka-3',
        'clickhouse',
        'ingest',
        'ingest-standby',
        'projector-1',
        'projector-2',
        'api',
        'api-stream-1',
        'api-stream-2',
        'prometheus',
        'grafana',
      ].sort(),
    );
    const voters = '1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093';
    for (const k of ['kafka-1', 'kafka-2', 'kafka-3']) {
      const env = services[k]!.environment!;
      expect(env.KAFKA_PROCESS_ROLES).toBe('broker,controller');
      expect(env.KAFKA_CONTROLLER_QUORUM_VOTERS).toBe(voters);
      expect(env.KAFKA_ADVERTISED_LISTENERS).toBe(`PLAINTEXT://${k}:9092`);
    }
    expect(slotstream.map(([n, s]) => `${n}:${s.command!.join(' ')}`).sort()).toEqual(
      [
        'api-stream-1:api',
        'api-stream-2:api',
        'api:api',
        'ingest-standby:ingest',
        'ingest:ingest',
        'projector-1:projector',
        'projector-2:projector',
      ].sort(),
    );
  });

  for (const [label, vars] of [
    ['as it is (the simulator)', {}],
    ['on mainnet (yellowstone from the environment)', MAINNET],
  ] as const) {
    it(`sets only options of each role, which the config accepts, ${label}`, () => {
      for (const [name, s] of slotstream) {
        const [role, ...args] = s.command!;
        expect(ROLES, name).toContain(role);
        const env = Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), vars)]));
        expect(notOptions(role as Role, env), name).toEqual([]);
        expect(() => configOf(role as Role, args, env), name).not.toThrow();
      }
    });
  }

  const configOfService = (s: ComposeService, vars: Record<string, string> = {}): Config =>
    configOf(
      s.command![0] as Role,
      s.command!.slice(1),
      Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), vars)])),
    );

  it('points every role at the brokers and the ClickHouse server of the file', () => {
    for (const [name, s] of slotstream) {
      const c = configOfService(s);
      expect(c.kafkaBrokers, name).toEqual(['kafka-1:9092', 'kafka-2:9092', 'kafka-3:9092']);
      expect(new URL(c.clickhouseUrl).host, name).toBe('clickhouse:8123');
      expect(c.replicationFactor, name).toBe(3);
      expect(c.host, name).toBe('0.0.0.0');
    }
  });

  it('publishes only ports the api serves, and probes /health on the metrics port', async () => {
    for (const [name, s] of slotstream) {
      const c = configOfService(s);
      for (const p of s.ports ?? []) {
        expect(c.role, `${name} publishes ${p}`).toBe('api');
        expect([c.grpcPort, c.rpcPort, c.pubsubPort], `${name} publishes ${p}`).toContain(Number(p.split(':').at(-1)));
      }
      expect(s.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${c.metricsPort}/health`);
    }
    expect(await probe('/health')).toBe(200);
  });

  it('runs the ingest as active + standby: one name, one topic prefix', () => {
    const [a, b] = [configOfService(services.ingest!, MAINNET), configOfService(services['ingest-standby']!, MAINNET)];
    expect([b.ingestName, b.topicPrefix]).toEqual([a.ingestName, a.topicPrefix]);
  });

  it("runs the stream replicas stream-only, reading the views from the engine api's views port, publishing no JSON-RPC", () => {
    const engine = configOfService(services.api!);
    expect(engine.serve).toBe('all');
    expect(engine.viewsPort).toBeGreaterThan(0);
    expect(services.api!.ports!.map((p) => Number(p.split(':').at(-1)))).not.toContain(engine.viewsPort);
    for (const name of ['api-stream-1', 'api-stream-2']) {
      const c = configOfService(services[name]!);
      expect(c.serve, name).toBe('streams');
      expect(new URL(c.viewsUrl).host, name).toBe(`api:${engine.viewsPort}`);
      for (const p of services[name]!.ports!)
        expect([c.grpcPort, c.pubsubPort], `${name} publishes ${p}`).toContain(Number(p.split(':').at(-1)));
    }
  });

  it('scrapes every slotstream service on its metrics port, with the rules (promtool check config)', () => {
    const prom = parse(read('deploy/prometheus/prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const targets = prom.scrape_configs.flatMap((j) => j.static_configs.flatMap((s) => s.targets));
    const want = slotstream.map(([n, s]) => `${n}:${configOfService(s).metricsPort}`);
    expect(targets.sort()).toEqual(want.sort());
    for (const j of prom.scrape_configs) expect(j.job_name).toMatch(/^slotstream-/);
    expect(
      execFileSync(prometheusBinary('promtool'), ['check', 'config', 'deploy/prometheus/prometheus.yml'], { cwd: ROOT, encoding: 'utf8' }),
    ).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('mounts files that exist into Prometheus and Grafana', () => {
    for (const name of ['prometheus', 'grafana']) {
      for (const v of services[name]!.volumes!) {
        const [src] = v.split(':');
        if (src!.startsWith('.')) expect(existsSync(join(ROOT, 'deploy', src!)), `${name}: ${v}`).toBe(true);
      }
    }
    const providers = parse(read('deploy/grafana/provisioning/dashboards/slotstream.yaml')) as {
      providers: { options: { path: string } }[];
    };
    expect(services.grafana!.volumes).toContain(`./grafana:${providers.providers[0]!.options.path}:ro`);
  });
});

// ---------------------------------------------------------------------------------------------------------------
interface Component {
  enabled: boolean;
  role: string;
  replicas: number;
  env: Record<string, string>;
  secretEnv: Record<string, { secret: string; key: string }>;
  resources: object;
  pdb: { enabled: boolean; minAvailable?: number; maxUnavailable?: number };
  serve?: string[];
}
interface Values {
  ports: { grpc: number; jsonrpc: number; pubsub: number; metrics: number; views: number };
  env: Record<string, string>;
  secretEnv: Record<string, { secret: string; key: string }>;
  [component: string]: unknown;
}

describe('deploy/helm/slotstream', () => {
  const CHART = 'deploy/helm/slotstream';
  const values = parse(read(`${CHART}/values.yaml`)) as Values;
  const components = ['ingest', 'projector', 'api', 'apiStream'] as const;
  const templateFiles = readdirSync(join(ROOT, CHART, 'templates'));
  const templates = templateFiles.map((f) => read(`${CHART}/templates/${f}`));
  const helpers = read(`${CHART}/templates/_helpers.tpl`);
  // What the templates set besides values' env (the workload helper's literal variables), per component; the
  // release's prefix as `helm install slotstream` makes it.
  const API_SERVICE = 'slotstream-slotstream-api';
  const literalEnv = (c: Component): Record<string, string> => ({
    API_HOST: '0.0.0.0',
    METRICS_PORT: String(values.ports.metrics),
    ...(c.role === 'api'
      ? { GRPC_PORT: String(values.ports.grpc), RPC_PORT: String(values.ports.jsonrpc), PUBSUB_PORT: String(values.ports.pubsub) }
      : {}),
    ...(c.role === 'api' && c.env.API_SERVE === 'streams' ? { VIEWS_URL: `http://${API_SERVICE}:${values.ports.views}` } : {}),
    ...(c.role === 'api' && c.env.API_SERVE !== 'streams' ? { VIEWS_PORT: String(values.ports.views) } : {}),
  });
  const SECRET_SAMPLE: Record<string, string> = { CLICKHOUSE_URL: 'http://slotstream:pw@clickhouse:8123' };
  const envOf = (c: Component): Record<string, string> => ({
    ...values.env,
    ...c.env,
    ...Object.fromEntries(Object.keys({ ...values.secretEnv, ...c.secretEnv }).map((k) => [k, SECRET_SAMPLE[k] ?? 'secret'])),
    ...literalEnv(c),
  });

  it('Chart.yaml and values.yaml parse', () => {
    const chart = parse(read(`${CHART}/Chart.yaml`)) as { apiVersion: string; name: string; version: string };
    expect(chart).toMatchObject({ apiVersion: 'v2', name: 'slotstream' });
    expect(chart.version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const c of components) expect(values[c], c).toBeDefined();
  });

  it.each(components)('%s: a role of the CLI, only its options, accepted by the config, on the ports of values.ports', (name) => {
    const c = values[name] as Component;
    expect(ROLES).toContain(c.role);
    const env = envOf(c);
    expect(notOptions(c.role as Role, env)).toEqual([]);
    const config = configOf(c.role as Role, [], env);
    expect(config.metricsPort).toBe(values.ports.metrics);
    expect(config.host).toBe('0.0.0.0');
    if (c.role === 'api')
      expect([config.grpcPort, config.rpcPort, config.pubsubPort]).toEqual([values.ports.grpc, values.ports.jsonrpc, values.ports.pubsub]);
    for (const s of c.serve ?? []) expect(Object.keys(values.ports), `${name} serves ${s}`).toContain(s);
    if (c.serve?.length) expect(c.role).toBe('api');
  });

  it("runs the ingest as active + standby, and the stream replicas stream-only from the api Service's views port", () => {
    const ingest = values.ingest as Component;
    expect(ingest.replicas).toBeGreaterThanOrEqual(2);
    expect(ingest.pdb).toMatchObject({ enabled: true, minAvailable: 1 });
    expect(helpers).not.toMatch(/Recreate/);
    const [api, stream] = [values.api as Component, values.apiStream as Component];
    const engine = configOf('api', [], envOf(api));
    expect(engine.serve).toBe('all');
    expect(engine.viewsPort).toBe(values.ports.views);
    expect(api.serve).toContain('views');
    const c = configOf('api', [], envOf(stream));
    expect(c.serve).toBe('streams');
    expect(c.viewsUrl).toBe(`http://${API_SERVICE}:${engine.viewsPort}`);
    expect(stream.serve).not.toContain('jsonrpc');
    // The helper names the api's Service as the Service helper does: fullname-api.
    expect(helpers).toContain('printf "http://%s-api:%v" (include "slotstream.fullname" $root) $root.Values.ports.views');
    expect(helpers).toMatch(/name: \{\{ include "slotstream\.fullname" \.root \}\}-\{\{ \.component \}\}/);
  });

  it.each(components)('%s: a disruption budget that lets a drain proceed', (name) => {
    const c = values[name] as Component;
    if (!c.pdb.enabled) return expect(c.replicas).toBe(1);
    if (c.pdb.minAvailable !== undefined) expect(c.replicas).toBeGreaterThan(c.pdb.minAvailable);
    else expect(c.pdb.maxUnavailable).toBeGreaterThanOrEqual(1);
  });

  it('templates set only option variables literally, probe /health on the metrics port, and name values that exist', async () => {
    for (const m of helpers.matchAll(/- name: ([A-Z][A-Z0-9_]*)$/gm)) expect(OPTION_ENVS.has(m[1]!), m[1]).toBe(true);
    const probes = [...helpers.matchAll(/(liveness|readiness)Probe:\s*\n\s*httpGet:\s*\n\s*path: (\S+)\s*\n\s*port: (\S+)/g)];
    expect(probes.map((p) => p[1]).sort()).toEqual(['liveness', 'readiness']);
    for (const p of probes) {
      expect(p[3]).toBe('metrics');
      expect(await probe(p[2]!)).toBe(200);
    }
    expect(helpers).toMatch(/- name: metrics\n\s*containerPort: \{\{ \$root\.Values\.ports\.metrics \}\}/);
    // Every .Values path a template reads is in values.yaml.
    for (const t of [...templates, helpers]) {
      for (const m of t.matchAll(/\.Values((?:\.\w+)+)/g)) {
        let v: unknown = values;
        for (const k of m[1]!.slice(1).split('.')) v = (v as Record<string, unknown> | undefined)?.[k];
        expect(v, `.Values${m[1]}`).toBeDefined();
      }
      // Every component field the helpers read through .v / $v is in each component's values.
      for (const m of t.matchAll(/(?:\$v|\.v)\.(\w+)/g)) {
        if (m[1] === 'service' || m[1] === 'serve') continue; // optional, guarded in the helpers
        for (const c of components) expect((values[c] as Record<string, unknown>)[m[1]!], `${c}.${m[1]}`).toBeDefined();
      }
    }
  });

  it('templates balance their actions (each if, range, define and with has its end)', () => {
    for (const [i, t] of [...templates, helpers].entries()) {
      const opens = [...t.matchAll(/\{\{-?\s*(if|range|define|with)\b/g)].length;
      const ends = [...t.matchAll(/\{\{-?\s*end\b/g)].length;
      expect(ends, templateFiles[i] ?? '_helpers.tpl').toBe(opens);
      expect(t.split('{{').length, templateFiles[i]).toBe(t.split('}}').length);
    }
  });

  it('the static parts of each template are YAML documents of the kinds expected', () => {
    // Lines that are template actions only are dropped; inline actions become a placeholder scalar.
    for (const [i, t] of templates.entries()) {
      if (templateFiles[i]!.endsWith('.tpl')) continue;
      const stat = t
        .split('\n')
        .filter((l) => !/^\s*\{\{.*\}\}\s*$/.test(l))
        .map((l) => l.replace(/\{\{[^}]*\}\}/g, 'x'))
        .join('\n');
      const docs = parseAllDocuments(stat);
      for (const d of docs) expect(d.errors, templateFiles[i]).toEqual([]);
    }
    expect(helpers).toMatch(/kind: Deployment/);
    expect(helpers).toMatch(/kind: PodDisruptionBudget/);
    expect(helpers).toMatch(/kind: Service\n/);
  });
});

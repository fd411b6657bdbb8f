// A real Prometheus server (Debian's `prometheus` package, scripts/setup.sh installs it) for tests: its own temporary
// data folder, a loopback port, the given scrape targets and rule files, stopped by its pid. Queried over its HTTP
// API (/api/v1/alerts, /api/v1/query, /api/v1/targets).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../harness/kafka.js';

export interface ScrapeJob {
  job: string;
  /** host:port of each /metrics endpoint. */
  targets: readonly string[];
}

export interface PrometheusAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: 'pending' | 'firing';
  value: string;
}

export interface PrometheusServer {
  url: string;
  alerts(): Promise<PrometheusAlert[]>;
  /** An instant query's vector: each sample's labels and value. */
  query(expr: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  targets(): Promise<{ labels: Record<string, string>; health: string; lastError: string }[]>;
  output(): string;
  stop(): Promise<void>;
}

/** The binary, or a message saying how to get it (the test fails with it: Prometheus is a real part here). */
export function prometheusBinary(name: 'prometheus' | 'promtool'): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  if (found.status !== 0 || found.stdout.trim() === '')
    throw new Error(`${name} is not installed: run scripts/setup.sh (Debian package "prometheus")`);
  return found.stdout.trim();
}

/** A loopback port free now (Prometheus takes an address, not port 0: a start that loses the race is retried). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startPrometheus(o: {
  jobs: readonly ScrapeJob[];
  /** Rule files' text, written into the server's folder. */
  rules: readonly string[];
  /** Scrape and rule evaluation interval, e.g. "1s". */
  interval: string;
}): Promise<PrometheusServer> {
  const bin = prometheusBinary('prometheus');
  const dir = await mkdtemp(join(tmpdir(), 'slotstream-prometheus-'));
  const ruleFiles = await Promise.all(
    o.rules.map(async (text, i) => {
      const file = join(dir, `rules-${i}.yml`);
      await writeFile(file, text);
      return file;
    }),
  );
  const config = {
    global: { scrape_interval: o.interval, evaluation_interval: o.interval, scrape_timeout: o.interval },
    rule_files: ruleFiles,
    scrape_configs: o.jobs.map((j) => ({ job_name: j.job, static_configs: [{ targets: j.targets }] })),
  };
  // JSON is YAML: Prometheus reads it as its config file.
  await writeFile(join(dir, 'prometheus.yml'), JSON.stringify(config, null, 2));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child: ChildProcess = spawn(
      bin,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout!.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const onExit = (): void => void child.kill('SIGKILL');
    process.once('exit', onExit);
    const url = `http://127.0.0.1:${port}`;
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', onExit);
    };
    const ready = await waitFor(
      async () => {
        if (child.exitCode !== null) return 'exited';
        const res = await fetch(`${url}/-/ready`);
        return res.ok ? 'ready' : undefined;
      },
      { what: 'prometheus to be ready', timeoutMs: 300_000, intervalMs: 100 },
    ).catch(async (err: Error) => {
      await stop();
      throw new Error(`${err.message}\n${output.slice(-4000)}`);
    });
    if (ready === 'exited') {
      await stop();
      if (attempt < 3 && /address already in use/.test(output)) continue;
      await rm(dir, { recursive: true, force: true });
      throw new Error(`prometheus exited before serving:\n${output.slice(-4000)}`);
    }
    const api = async <T>(path: string): Promise<T> => {
      const res = await fetch(`${url}${path}`);
      const body = (await res.json()) as { status: string; data: T; error?: string };
      if (body.status !== 'success') throw new Error(`prometheus ${path}: ${body.error ?? res.status}`);
      return body.data;
    };
    return {
      url,
      alerts: async () => (await api<{ alerts: PrometheusAlert[] }>('/api/v1/alerts')).alerts,
      query: async (expr) =>
        (
          await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
            `/api/v1/query?query=${encodeURIComponent(expr)}`,
          )
        ).result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) })),
      targets: async () =>
        (await api<{ activeTargets: { labels: Record<string, string>; health: string; lastError: string }[] }>('/api/v1/targets'))
          .activeTargets,
      output: () => output,
      async stop() {
        await stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
}

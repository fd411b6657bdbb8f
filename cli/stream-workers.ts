// `slotstream all`'s stream processes (issue 33, item 1): N cluster workers (cli/stream-worker.ts) serving gRPC
// and PubSub on the public ports, which Node's cluster shares among them (the primary accepts and hands each
// connection to a worker, round-robin), while this process, the engine, keeps the projector, JSON-RPC and the
// views. A worker that dies (SIGKILL, OOM) drops only its own clients, who reconnect to a survivor and resume
// with from_slot; the primary starts a new one in its place.
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.js';
import type { Logger } from '../platform/log.js';
import { addMetricsSource, type MetricsJson } from '../platform/metrics.js';
import type { StreamPorts } from './wire-api.js';

export const WORKER_CONFIG_ENV = 'SLOTSTREAM_STREAM_WORKER';

/** What a worker tells the primary. */
export type WorkerMessage =
  | { kind: 'serving'; grpc: number; pubsub: number; metrics: number }
  | { kind: 'failed'; message: string }
  | { kind: 'metrics'; id: number; metrics: MetricsJson };
/** What the primary tells a worker: stop, or send its metrics (answered with the same id). */
export type PrimaryMessage = { kind: 'stop' } | { kind: 'metrics'; id: number };

/** A serving worker: its process and its own metrics port. */
interface Served extends StreamPorts {
  pid: number | undefined;
  metrics: number;
}

/** --stream-processes: -1 is one per core beyond the first (the engine's), at least one. */
export function streamProcessCount(option: number, cores = availableParallelism()): number {
  return option >= 0 ? option : Math.max(1, cores - 1);
}

/** A worker restarted sooner than this after its start waits before the next one (a crash loop costs no CPU). */
const RESTART_BACKOFF_MS = 1_000;
const STOP_WAIT_MS = 20_000;
/** A worker that does not answer a metrics request within this is left out of that scrape (busy or dying). */
const METRICS_WAIT_MS = 2_000;

export interface StreamWorkers {
  ports: StreamPorts;
  /** Live workers' process ids (tests kill one). */
  pids(): number[];
  stop(): Promise<void>;
}

/** The worker's config: the primary's, as a stream-only api on the brokers in use and the engine's endpoint. */
export function workerConfig(config: Config, brokers: readonly string[], viewsUrl: string): Config {
  return { ...config, role: 'api', serve: 'streams', kafkaBrokers: [...brokers], viewsUrl, viewsPort: -1, streamProcesses: 0 };
}

export async function startStreamWorkers(o: {
  count: number;
  config: Config;
  brokers: readonly string[];
  viewsUrl: string;
  log: Logger;
}): Promise<StreamWorkers> {
  const { log } = o;
  const self = import.meta.url;
  cluster.setupPrimary({
    exec: fileURLToPath(new URL(self.endsWith('.ts') ? './stream-worker.ts' : './stream-worker.js', self)),
    execArgv: process.execArgv,
    args: [],
  });
  const env = { [WORKER_CONFIG_ENV]: JSON.stringify(workerConfig(o.config, o.brokers, o.viewsUrl)) };
  let stopping = false;
  const workers = new Set<Worker>();
  let ports: StreamPorts | undefined;
  let metricsRequests = 0;

  /** One worker's metrics, or none when it does not answer in time. */
  function metricsOf(w: Worker): Promise<MetricsJson[]> {
    if (!w.isConnected()) return Promise.resolve([]);
    const id = ++metricsRequests;
    return new Promise((resolve) => {
      const done = (answer: MetricsJson[]) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('exit', onExit);
        resolve(answer);
      };
      const onMessage = (m: WorkerMessage) => m.kind === 'metrics' && m.id === id && done([m.metrics]);
      const onExit = () => done([]);
      const timer = setTimeout(() => done([]), METRICS_WAIT_MS);
      w.on('message', onMessage);
      w.once('exit', onExit);
      w.send({ kind: 'metrics', id } satisfies PrimaryMessage);
    });
  }
  // The engine's /metrics and status page count every stream process's streams and connections too.
  const removeMetricsSource = addMetricsSource(async () => (await Promise.all([...workers].map(metricsOf))).flat());

  /** Forks one worker; resolves with its ports once it serves, rejects if it fails or exits first. */
  function fork(): Promise<Served> {
    const started = Date.now();
    const w = cluster.fork(env);
    workers.add(w);
    return new Promise<Served>((resolve, reject) => {
      let serving = false;
      w.on('message', (m: WorkerMessage) => {
        if (m.kind === 'serving') {
          serving = true;
          resolve({ grpc: m.grpc, pubsub: m.pubsub, pid: w.process.pid, metrics: m.metrics });
        } else if (m.kind === 'failed') reject(new Error(`stream process ${w.id} failed to start: ${m.message}`));
      });
      w.once('exit', (code, signal) => {
        workers.delete(w);
        if (!serving) reject(new Error(`stream process ${w.id} exited (${signal ?? code}) before serving`));
        if (stopping || !serving) return;
        // Its clients were dropped with it; they reconnect (to the survivors) and resume with from_slot.
        log.warn({ streamProcess: w.id, pid: w.process.pid, code, signal }, 'stream process died: starting another');
        const wait = Date.now() - started < RESTART_BACKOFF_MS ? RESTART_BACKOFF_MS : 0;
        setTimeout(() => {
          if (stopping) return;
          fork().then(
            (p) => log.info({ pid: p.pid, metricsPort: p.metrics }, 'stream process restarted'),
            (err: unknown) => log.error({ err }, 'stream process could not be restarted'),
          );
        }, wait).unref();
      });
    });
  }

  const stop = async (): Promise<void> => {
    stopping = true;
    removeMetricsSource();
    await Promise.all(
      [...workers].map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            const timer = setTimeout(() => w.process.kill('SIGKILL'), STOP_WAIT_MS);
            w.once('exit', () => (clearTimeout(timer), resolve()));
            if (w.isConnected()) w.send({ kind: 'stop' } satisfies PrimaryMessage);
            else w.process.kill('SIGTERM');
          }),
      ),
    );
  };

  try {
    const all = await Promise.all(Array.from({ length: o.count }, () => fork()));
    ports = { grpc: all[0]!.grpc, pubsub: all[0]!.pubsub };
    // The pids and metrics ports in the same order (bench:soak scrapes each).
    log.info(
      { streamProcesses: o.count, pids: all.map((a) => a.pid), metricsPorts: all.map((a) => a.metrics) },
      'stream processes are serving',
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { ports, pids: () => [...workers].flatMap((w) => (w.process.pid === undefined ? [] : [w.process.pid])), stop };
}

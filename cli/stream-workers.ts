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
import { addMetricsSource } from '../platform/metrics.js';
import { askMetrics, restartChild, stopChild, type ChildMessage } from './child-link.js';
import type { StreamPorts } from './wire-api.js';

export const WORKER_CONFIG_ENV = 'SLOTSTREAM_STREAM_WORKER';

/** A serving worker: its process and its own metrics port. */
interface Served extends StreamPorts {
  pid: number | undefined;
  metrics: number;
}

/** --stream-processes: -1 is one per core beyond the first (the engine's), at least one. */
export function streamProcessCount(option: number, cores = availableParallelism()): number {
  return option >= 0 ? option : Math.max(1, cores - 1);
}

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

export interface StreamWorkersOptions {
  count: number;
  config: Config;
  brokers: readonly string[];
  viewsUrl: string;
  log: Logger;
}

export function startStreamWorkers(o: StreamWorkersOptions): Promise<StreamWorkers> {
  return StreamWorkerPool.open(o);
}

/**
 * The primary's pool of stream processes. Invariants: `workers` holds every forked worker not yet exited; once
 * `stopping` is set no worker is forked again; the metrics source is registered from `open` until `stop`.
 */
class StreamWorkerPool implements StreamWorkers {
  private readonly workers = new Set<Worker>();
  private stopping = false;
  private metricsRequests = 0;
  private readonly env: Record<string, string>;
  private readonly removeMetricsSource: () => void;
  ports: StreamPorts = { grpc: 0, pubsub: 0 };

  private constructor(private readonly o: StreamWorkersOptions) {
    const self = import.meta.url;
    cluster.setupPrimary({
      exec: fileURLToPath(new URL(self.endsWith('.ts') ? './stream-worker.ts' : './stream-worker.js', self)),
      execArgv: process.execArgv,
      args: [],
    });
    this.env = { [WORKER_CONFIG_ENV]: JSON.stringify(workerConfig(o.config, o.brokers, o.viewsUrl)) };
    // The engine's /metrics and status page count every stream process's streams and connections too.
    this.removeMetricsSource = addMetricsSource(async () =>
      (await Promise.all([...this.workers].map((w) => askMetrics(w.process, ++this.metricsRequests)))).flat(),
    );
  }

  static async open(o: StreamWorkersOptions): Promise<StreamWorkerPool> {
    const pool = new StreamWorkerPool(o);
    try {
      const all = await Promise.all(Array.from({ length: o.count }, () => pool.fork()));
      pool.ports = { grpc: all[0]!.grpc, pubsub: all[0]!.pubsub };
      // The pids and metrics ports in the same order (bench:soak scrapes each).
      o.log.info(
        { streamProcesses: o.count, pids: all.map((a) => a.pid), metricsPorts: all.map((a) => a.metrics) },
        'stream processes are serving',
      );
    } catch (err) {
      await pool.stop();
      throw err;
    }
    return pool;
  }

  pids(): number[] {
    return [...this.workers].flatMap((w) => (w.process.pid === undefined ? [] : [w.process.pid]));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.removeMetricsSource();
    await Promise.all([...this.workers].map((w) => stopChild(w.process)));
  }

  /** Forks one worker; resolves with its ports once it serves, rejects if it fails or exits first. */
  private fork(): Promise<Served> {
    const started = Date.now();
    const w = cluster.fork(this.env);
    this.workers.add(w);
    return new Promise<Served>((resolve, reject) => {
      let serving = false;
      w.on('message', (m: ChildMessage) => {
        if (m.kind === 'serving') {
          serving = true;
          resolve({ grpc: m.grpc ?? 0, pubsub: m.pubsub ?? 0, pid: w.process.pid, metrics: m.metrics });
        } else if (m.kind === 'failed') reject(new Error(`stream process ${w.id} failed to start: ${m.message}`));
      });
      w.once('exit', (code, signal) => {
        this.workers.delete(w);
        if (!serving) reject(new Error(`stream process ${w.id} exited (${signal ?? code}) before serving`));
        // A clean exit was asked for: Ctrl-C signals the whole process group, so the workers stop on their own SIGINT
        // before the primary's stop sets `stopping` (they were restarted mid-shutdown). Only a crash is replaced.
        else if (code === 0 && signal === null) this.o.log.info({ streamProcess: w.id, pid: w.process.pid }, 'stream process stopped');
        else if (!this.stopping) this.restart(w, started, code, signal);
      });
    });
  }

  /** A serving worker died: its clients were dropped with it and reconnect (to the survivors), resuming with from_slot. */
  private restart(w: Worker, started: number, code: number, signal: string): void {
    this.o.log.warn({ streamProcess: w.id, pid: w.process.pid, code, signal }, 'stream process died: starting another');
    restartChild(
      started,
      () => this.stopping,
      () => this.fork(),
      (p) => this.o.log.info({ pid: p.pid, metricsPort: p.metrics }, 'stream process restarted'),
      (err) => this.o.log.error({ err }, 'stream process could not be restarted'),
    );
  }
}

// `slotstream all`'s ingest in a process of its own (issue 33): with stream processes, the engine keeps the
// projector, JSON-RPC and the views, and the ingest reads its source and publishes on its own core instead of on
// the engine's main thread (there, a Yellowstone upstream was read no faster than the projector left time for, and
// gRPC flow control held the upstream back: bench/README.md "Soak"). The child (cli/ingest-child-main.ts) runs the
// ingest role on the brokers in use; its metrics reach the engine's /metrics. A child that dies (SIGKILL, OOM) is
// started again: it claims the ingest name once the dead one's heartbeat stops and resumes after the newest slot
// Kafka holds whole, skipping by identity what was published of the next (ingest/publish/resume-point.ts). A
// bounded source that finishes ends the child with code 0: it is not restarted, the rest keeps serving.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.js';
import type { Logger } from '../platform/log.js';
import { addMetricsSource } from '../platform/metrics.js';
import { askMetrics, restartChild, stopChild, type ChildMessage } from './child-link.js';

export const INGEST_CHILD_ENV = 'SLOTSTREAM_INGEST_CHILD';

/** The child's config: the primary's, as the ingest role on the brokers in use, its metrics on any free port. */
export function ingestChildConfig(config: Config, brokers: readonly string[]): Config {
  return { ...config, role: 'ingest', kafkaBrokers: [...brokers], metricsPort: 0 };
}

export interface IngestChildOptions {
  config: Config;
  brokers: readonly string[];
  log: Logger;
}

/**
 * The primary's ingest process. Invariants: `child` is the newest forked child (possibly exited); once `stopping` is
 * set none is forked again; the metrics source is registered from `open` until `stop`.
 */
export class IngestChild {
  private child: ChildProcess | undefined;
  private stopping = false;
  private metricsRequests = 0;
  private readonly env: NodeJS.ProcessEnv;
  private readonly removeMetricsSource: () => void;

  private constructor(private readonly o: IngestChildOptions) {
    this.env = { ...process.env, [INGEST_CHILD_ENV]: JSON.stringify(ingestChildConfig(o.config, o.brokers)) };
    this.removeMetricsSource = addMetricsSource(async () => (this.child ? askMetrics(this.child, ++this.metricsRequests) : []));
  }

  /** Resolves once the child's ingest runs; rejects (the start of `all` fails) if it fails or exits first. */
  static async open(o: IngestChildOptions): Promise<IngestChild> {
    const c = new IngestChild(o);
    try {
      await c.fork();
    } catch (err) {
      await c.stop();
      throw err;
    }
    return c;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.removeMetricsSource();
    if (this.child) await stopChild(this.child);
  }

  /** Forks the child; resolves once it serves, rejects if it fails or exits first. */
  private fork(): Promise<void> {
    const started = Date.now();
    const self = import.meta.url;
    const entry = fileURLToPath(new URL(self.endsWith('.ts') ? './ingest-child-main.ts' : './ingest-child-main.js', self));
    const c = fork(entry, [], { env: this.env, execArgv: process.execArgv, stdio: 'inherit' });
    this.child = c;
    return new Promise<void>((resolve, reject) => {
      let serving = false;
      c.on('message', (m: ChildMessage) => {
        if (m.kind === 'serving') {
          serving = true;
          this.o.log.info({ pid: c.pid, metricsPort: m.metrics }, 'ingest process is serving');
          resolve();
        } else if (m.kind === 'failed') reject(new Error(`the ingest process failed to start: ${m.message}`));
      });
      c.once('exit', (code, signal) => {
        if (!serving) reject(new Error(`the ingest process exited (${signal ?? code}) before its ingest ran`));
        else if (code === 0 && signal === null) this.o.log.info({ pid: c.pid }, 'ingest process finished');
        else if (!this.stopping) this.restart(c, started, code, signal);
      });
    });
  }

  /** The child died: another takes over the ingest name and resumes where Kafka's records end. */
  private restart(c: ChildProcess, started: number, code: number | null, signal: NodeJS.Signals | null): void {
    this.o.log.warn({ pid: c.pid, code, signal }, 'ingest process died: starting another');
    restartChild(
      started,
      () => this.stopping,
      () => this.fork(),
      () => this.o.log.info({ pid: this.child?.pid }, 'ingest process restarted'),
      (err) => this.o.log.error({ err }, 'ingest process could not be restarted'),
    );
  }
}

// The entry of a stream process run by `slotstream all` (a cluster worker, cli/stream-workers.ts): its config comes
// from the primary (SLOTSTREAM_STREAM_WORKER, the primary's config as a stream-only api: brokers and the views
// endpoint filled in), its listening sockets are shared with the other workers through the primary (Node's
// cluster: the public gRPC and PubSub ports, connections handed round-robin). It tells the primary its ports once
// serving, answers its metrics when the primary asks (the engine's /metrics merges them), stops on the primary's
// word or a signal, and leaves when the primary is gone (its IPC channel closes).
import cluster from 'node:cluster';
import type { Config } from './config.js';
import { createLogger } from '../platform/log.js';
import { startMetricsServer } from '../platform/metrics.js';
import { answerPrimary, tellFailed, tellServing } from './child-link.js';
import { resolveLogFormat } from '../platform/pretty-log.js';
import { startStreamProcess } from './stream-process.js';
import { StopList } from './stop-list.js';
import { WORKER_CONFIG_ENV } from './stream-workers.js';

async function main(): Promise<void> {
  const config = JSON.parse(process.env[WORKER_CONFIG_ENV] ?? 'null') as Config | null;
  if (config === null || !cluster.isWorker) throw new Error(`stream worker: run by slotstream all only (no ${WORKER_CONFIG_ENV})`);
  const id = cluster.worker!.id;
  const log = createLogger(config.logLevel, 'slotstream', resolveLogFormat(config.logFormat, process.stderr.isTTY === true)).child({
    streamProcess: id,
  });
  const stops = new StopList(log);
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ why }, 'stream process stopping');
    void stops.stopAll().finally(() => process.exit(0));
  };
  answerPrimary(stop);
  try {
    // Its own metrics and health port (any free one, not shared with the other workers): the primary logs it.
    const metrics = await startMetricsServer(config.host, 0, true);
    stops.add('metrics', () => metrics.close());
    const ports = await startStreamProcess(config, `w${id}-${process.pid}`, stops, log);
    log.info({ pid: process.pid, ...ports, metricsPort: metrics.port }, 'stream process is serving');
    tellServing({ ...ports, metrics: metrics.port });
  } catch (err) {
    log.fatal({ err }, 'stream process failed to start');
    tellFailed((err as Error).message);
    await stops.stopAll();
    process.exit(1);
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

// --source rpc from the role's config: options, logs and metrics wired to the source.
import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/log.js';
import { deadLetterSink } from '../dead-letter-sink.js';
import { lagMonitor } from '../lag-monitor.js';
import type { ChainSource } from '../source.js';
import { rpcSourceMetrics } from './metrics.js';
import { createRpcSource } from './source.js';

export { createRpcSource, type RpcSourceOptions } from './source.js';

export function createRpcSourceFromConfig(config: Config, log: Logger): ChainSource {
  const m = rpcSourceMetrics();
  const lag = lagMonitor({ stallMs: config.ingestStallMs, maxLagSlots: config.ingestMaxLagSlots, log, what: 'rpc source' });
  return lag.wrap(createRpcSource({
    url: config.rpcUrl,
    fromSlot: config.fromSlot >= 0 ? BigInt(config.fromSlot) : undefined,
    toSlot: config.toSlot >= 0 ? BigInt(config.toSlot) : undefined,
    concurrency: config.rpcConcurrency,
    timeoutMs: config.rpcTimeoutMs,
    pollMs: config.rpcPollMs,
    log,
    onSkipped: () => m.skipped.inc(),
    onGap: () => m.gaps.inc(),
    onRetry: () => m.retries.inc(),
    onTip: (tip) => lag.tracker.upstream(tip, Date.now()),
    deadLetters: deadLetterSink({ brokers: config.out === '' ? config.kafkaBrokers : [], topicPrefix: config.topicPrefix, log, source: 'rpc source' }),
    snapshotPrograms: config.rpcSnapshotPrograms,
  }));
}

// --source rpc from the role's config: options, logs and metrics wired to the source.
import type { Config } from '../../../platform/config.js';
import { ingestSection } from '../../../platform/config-sections.js';
import type { Logger } from '../../../platform/log.js';
import { deadLetterSink } from '../shared/dead-letter-sink.js';
import { lagMonitor } from '../shared/lag-monitor.js';
import type { ChainSource } from '../../source.js';
import { rpcSourceMetrics } from './metrics.js';
import { createRpcSource } from './source.js';

export { createRpcSource, type RpcSourceOptions } from './source.js';

export function createRpcSourceFromConfig(config: Config, log: Logger): ChainSource {
  const m = rpcSourceMetrics();
  const { lag: lagOptions, rpc } = ingestSection(config);
  const lag = lagMonitor({ ...lagOptions, log, what: 'rpc source' });
  return lag.wrap(
    createRpcSource({
      ...rpc,
      log,
      onSkipped: () => m.skipped.inc(),
      onGap: () => m.gaps.inc(),
      onRetry: () => m.retries.inc(),
      onTip: (tip) => lag.tracker.upstream(tip, Date.now()),
      deadLetters: deadLetterSink({
        brokers: config.out === '' ? config.kafkaBrokers : [],
        topicPrefix: config.topicPrefix,
        log,
        source: 'rpc source',
      }),
    }),
  );
}

// --source rpc from the role's config: options, logs and metrics wired to the source.
import type { IngestSection } from '../../options.js';
import type { Logger } from '../../../platform/log.js';
import { deadLetterSink } from '../shared/dead-letter-sink.js';
import { lagMonitor } from '../shared/lag-monitor.js';
import type { ChainSource } from '../../source.js';
import { rpcSourceMetrics } from './metrics.js';
import { createRpcSource } from './source.js';

export { createRpcSource, type RpcSourceOptions } from './source.js';

export function createRpcSourceFromConfig(section: IngestSection, log: Logger): ChainSource {
  const m = rpcSourceMetrics();
  const { lag: lagOptions, rpc } = section;
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
        brokers: section.out === '' ? section.kafka.brokers : [],
        topicPrefix: section.kafka.topicPrefix,
        log,
        source: 'rpc source',
      }),
    }),
  );
}

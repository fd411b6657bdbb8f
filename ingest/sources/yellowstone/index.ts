// --source yellowstone from the role's config: the endpoint, its filters, and the JSON-RPC node that
// names leaders (--rpc-url, optional).
import type { IngestSection } from '../../options.js';
import type { Logger } from '../../../platform/log.js';
import { deadLetterSink } from '../shared/dead-letter-sink.js';
import { lagMonitor } from '../shared/lag-monitor.js';
import { createKafka } from '../../../platform/kafka/index.js';
import { topicNames } from '../../../schemas/topics.js';
import type { ChainSource } from '../../source.js';
import { publishedStatuses, type PublishedStatuses } from './published-statuses.js';
import { createYellowstoneSource } from './source.js';
import { STREAMS, type Stream } from './subscription.js';

export { createYellowstoneSource, type YellowstoneSourceOptions } from './source.js';

/** The slots topic's recent statuses, through a Kafka client of its own (the source gets none from the role). */
async function readBackStatuses(to: IngestSection['kafka'], log: Logger, fromSlot: bigint): Promise<PublishedStatuses> {
  const kafka = createKafka({ brokers: to.brokers, clientId: 'slotstream-ingest-yellowstone-resume', log });
  try {
    return await publishedStatuses(kafka, topicNames(to.topicPrefix), fromSlot);
  } finally {
    await kafka.close();
  }
}

export function createYellowstoneSourceFromConfig(section: IngestSection, log: Logger): ChainSource {
  const { lag: lagOptions, yellowstone, kafka } = section;
  const toKafka = section.out === '';
  const lag = lagMonitor({ ...lagOptions, log, what: 'yellowstone source' });
  return lag.wrap(
    createYellowstoneSource({
      upstreams: yellowstone.upstreams,
      maxLagSlots: yellowstone.maxLagSlots,
      filters: { ...yellowstone.filters, streams: STREAMS.filter((s: Stream) => yellowstone.subscribe.includes(s)) },
      ...(yellowstone.leaders ? { rpc: yellowstone.leaders } : {}),
      backoffMs: yellowstone.backoffMs,
      waitSlots: yellowstone.waitSlots,
      publish: yellowstone.publish,
      log,
      onUpstreamSlot: (slot) => lag.tracker.upstream(slot, Date.now()),
      deadLetters: deadLetterSink({
        brokers: toKafka ? kafka.brokers : [],
        topicPrefix: kafka.topicPrefix,
        log,
        source: 'yellowstone source',
      }),
      ...(toKafka && kafka.brokers.length > 0 ? { publishedStatuses: (fromSlot: bigint) => readBackStatuses(kafka, log, fromSlot) } : {}),
    }),
  );
}

// The projector role: the views checked against the topics first, then the projector or a rebuild.
import type { ClickHouseClient } from '../platform/clickhouse.js';
import type { ProjectorSection } from '../projector/options.js';
import type { Logger } from '../platform/log.js';
import type { KafkaInfra } from './infrastructure.js';
import type { StopList } from './stop-list.js';

/** Before anything reads or writes the views: they must have been built from these topics. */
export async function reconcileWithTopics(
  section: ProjectorSection,
  ch: ClickHouseClient,
  { kafka, topics }: KafkaInfra,
  log: Logger,
): Promise<void> {
  const { reconcileViews } = await import('../projector/topic-identity.js');
  await reconcileViews({ ch, database: section.database, admin: kafka.admin(), topics, log });
}

/** `projector rebuild`: replays history into fresh views; settles when done. */
export async function wireRebuild(section: ProjectorSection, ch: ClickHouseClient, infra: KafkaInfra, log: Logger): Promise<void> {
  const { rebuildViews } = await import('../projector/run.js');
  await rebuildViews(section, log, { ch, ...infra });
}

export async function wireProjector(
  section: ProjectorSection,
  ch: ClickHouseClient,
  infra: KafkaInfra,
  stops: StopList,
  log: Logger,
): Promise<void> {
  const { startProjector } = await import('../projector/run.js');
  const projector = await startProjector(section, log, { ch, ...infra });
  stops.add('projector', () => projector.stop());
  const { historyReader, readStoreHistory } = await import('../projector/history.js');
  const { addHistorySource } = await import('../platform/metrics.js');
  const { readViewsState } = await import('../api/views/state.js');
  const read = historyReader(() =>
    readStoreHistory(ch, section.database, readViewsState, { admin: infra.kafka.admin(), topics: infra.topics }),
  );
  const remove = addHistorySource(read);
  stops.add('history', () => Promise.resolve(remove()));
}

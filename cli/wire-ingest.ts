// The ingest role: one source into Kafka, or into a file in fixture mode (no Kafka then).
import type { IngestSection } from '../ingest/options.js';
import type { Logger } from '../platform/log.js';
import type { KafkaInfra } from './infrastructure.js';
import type { StopList } from './stop-list.js';

/** `done` settles when a bounded source finishes, or rejects when it fails (a promise in an object: an
 * async function would flatten it into its own). */
export async function wireIngest(
  section: IngestSection,
  infra: KafkaInfra | undefined,
  stops: StopList,
  log: Logger,
): Promise<{ done: Promise<void> }> {
  const { startIngest } = await import('../ingest/run.js');
  const ingest = await startIngest(section, log, infra);
  stops.add('ingest', () => ingest.stop());
  return { done: ingest.done };
}

// Starts the parts of a role in dependency order and stops them in reverse. Each part is wired by its own
// function (cli/wire-*.ts) from its config section; role modules load on demand, so a role pays only for
// what it runs.
import type { Config } from '../platform/config.js';
import { configSections } from '../platform/config-sections.js';
import type { Logger } from '../platform/log.js';
import { startMetricsServer } from '../platform/metrics.js';
import { StopList } from './stop-list.js';
import { wireApi } from './wire-api.js';
import { wireClickHouse } from './wire-clickhouse.js';
import { wireIngest } from './wire-ingest.js';
import { wireKafka, wireLocalKafka } from './wire-kafka.js';
import { reconcileWithTopics, wireProjector, wireRebuild } from './wire-projector.js';

export interface Running {
  /** Stops every part, newest first. */
  stop(): Promise<void>;
  /** Settles when the role finishes on its own (a bounded source, a rebuild) or fails. */
  done: Promise<void>;
}

const forever = new Promise<void>(() => {});

export async function startRole(config: Config, positionals: string[], log: Logger): Promise<Running> {
  const stops = new StopList(log);
  const stop = () => stops.stopAll();
  const sections = configSections(config);
  const role = sections.role;
  try {
    if (role === 'kafka') {
      await wireLocalKafka(sections.kafka, stops, log);
      return { stop, done: forever };
    }
    if (role === 'ingest' || role === 'api' || role === 'all') {
      // The decoder tables first: a file that does not load stops the start, naming it.
      const { startPumpTables } = await import('../platform/pump-tables.js');
      const tables = startPumpTables(sections.pumpTables, log);
      stops.add('pump tables', async () => tables.stop());
    }
    if (role === 'ingest' && sections.ingest.out !== '') {
      // Fixture mode writes a file: no broker, no metrics server.
      return { stop, ...(await wireIngest(sections.ingest, undefined, stops, log)) };
    }
    const metrics = await startMetricsServer(sections.metrics.host, sections.metrics.port);
    stops.add('metrics', () => metrics.close());
    log.info({ port: metrics.port }, 'metrics and health on /metrics and /health');

    const { brokers, ...infra } = await wireKafka(sections.kafka, role, stops, log);
    // The ingest publishes to the brokers in use (the local one when none was configured).
    const ingest = { ...sections.ingest, kafka: { ...sections.ingest.kafka, brokers } };
    const unexpected = positionals[0];
    if (role === 'ingest') {
      if (unexpected !== undefined) throw unexpectedArgument(unexpected, role);
      return { stop, ...(await wireIngest(ingest, infra, stops, log)) };
    }

    const ch = await wireClickHouse(sections.clickhouse, role, stops, log);
    if (role === 'projector' || role === 'all') await reconcileWithTopics(sections.projector, ch, infra, log);
    if (role === 'projector' && positionals[0] === 'rebuild') {
      return { stop, done: wireRebuild(sections.projector, ch, infra, log) };
    }
    if (unexpected !== undefined) throw unexpectedArgument(unexpected, role);
    if (role === 'projector' || role === 'all') await wireProjector(sections.projector, ch, infra, stops, log);
    if (role === 'api' || role === 'all') await wireApi(sections.api, ch, infra, stops, log);
    // In `all`, a bounded source finishing leaves the other roles serving; `--source none` runs none here.
    if (role === 'all' && ingest.source !== 'none') await wireIngest(ingest, infra, stops, log);
    return { stop, done: forever };
  } catch (err) {
    await stops.stopAll();
    throw err;
  }
}

/** The config rules reject these before anything starts; this is the guard of an embedding caller. */
const unexpectedArgument = (arg: string, role: string): Error => new Error(`unexpected argument ${JSON.stringify(arg)} for role ${role}`);

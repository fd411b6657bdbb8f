// Starts the parts of a role in dependency order and stops them in reverse. Each part is wired by its own
// function (cli/wire-*.ts) from its config section; role modules load on demand, so a role pays only for
// what it runs.
import type { Config } from './config.js';
import { configSections } from './config-sections.js';
import type { Logger } from '../platform/log.js';
import { startMetricsServer } from '../platform/metrics.js';
import { StopList } from './stop-list.js';
import type { WiredKafka } from './wire-kafka.js';
import type { ClickHouseClient } from '../platform/clickhouse.js';
import type { ConfigSections } from './config-sections.js';
import { startStreamWorkers, streamProcessCount } from './stream-workers.js';
import {
  headKinds,
  wireEdge,
  wireEngineViews,
  wireRpc,
  wireStreams,
  wireStreamViews,
  type ChainHead,
  type StreamPorts,
} from './wire-api.js';
import { wireClickHouse } from './wire-clickhouse.js';
import { wireIngest } from './wire-ingest.js';
import { wireKafka, wireLocalKafka } from './wire-kafka.js';
import { reconcileWithTopics, wireProjector, wireRebuild } from './wire-projector.js';

export interface Running {
  /** Stops every part, newest first. */
  stop(): Promise<void>;
  /** Settles when the role finishes on its own (a bounded source, a rebuild) or fails. */
  done: Promise<void>;
  /** Its metrics and health port (not in fixture mode). */
  metricsPort?: number;
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
      return { stop, metricsPort: metrics.port, ...(await wireIngest(ingest, infra, stops, log)) };
    }

    if (role === 'api' && sections.api.serve === 'streams') {
      // A stream process: Kafka and the views' interface, never ClickHouse's engine or migrations.
      if (unexpected !== undefined) throw unexpectedArgument(unexpected, role);
      const views = await wireStreamViews(sections.api, sections.clickhouse, `api-${process.pid}`, stops, log);
      const s = await wireStreams(sections.api, views, infra, await wireEdge(sections.api, stops, log), stops, log);
      const host = sections.api.grpc.host;
      log.info({ grpc: `${host}:${s.grpc}`, pubsub: `ws://${host}:${s.pubsub}/` }, 'streams are serving');
      return { stop, done: forever };
    }

    const ch = await wireClickHouse(sections.clickhouse, role, stops, log);
    if (role === 'projector' || role === 'all') await reconcileWithTopics(sections.projector, ch, infra, log);
    if (role === 'projector' && positionals[0] === 'rebuild') {
      return { stop, done: wireRebuild(sections.projector, ch, infra, log) };
    }
    if (unexpected !== undefined) throw unexpectedArgument(unexpected, role);
    if (role === 'projector' || role === 'all') await wireProjector(sections.projector, ch, infra, stops, log);
    if (role === 'api' || role === 'all') await wireApiRole(config, sections, ch, { brokers, ...infra }, stops, log);
    if (role === 'all') await wireAllIngest(config, sections, { brokers, ...infra }, stops, log);
    return { stop, done: forever };
  } catch (err) {
    await stops.stopAll();
    throw err;
  }
}

/**
 * `all`'s ingest: a bounded source finishing leaves the other roles serving; `--source none` runs none. With stream
 * processes it runs in a process of its own too, off the engine's main thread (cli/ingest-child.ts); without, here.
 */
async function wireAllIngest(config: Config, sections: ConfigSections, wired: WiredKafka, stops: StopList, log: Logger): Promise<void> {
  const { brokers, ...infra } = wired;
  const ingest = { ...sections.ingest, kafka: { ...sections.ingest.kafka, brokers } };
  if (ingest.source === 'none') return;
  if (streamProcessCount(sections.api.streamProcesses) === 0) {
    await wireIngest(ingest, infra, stops, log);
    return;
  }
  const { IngestChild } = await import('./ingest-child.js');
  const child = await IngestChild.open({ config, brokers, log });
  stops.add('ingest process', () => child.stop());
}

/** The config rules reject these before anything starts; this is the guard of an embedding caller. */
const unexpectedArgument = (arg: string, role: string): Error => new Error(`unexpected argument ${JSON.stringify(arg)} for role ${role}`);

/**
 * JSON-RPC and the streams of `api` (--serve all|rpc) and `all`. With stream processes (`all`, --stream-processes),
 * this process is the engine: JSON-RPC, the views and their internal endpoint, and a live layer reading only slot
 * statuses (JSON-RPC's freshness check); the workers serve the streams on the public ports. Without, the streams
 * run here on the same views.
 */
async function wireApiRole(
  config: Config,
  sections: ConfigSections,
  ch: ClickHouseClient,
  { brokers, ...infra }: WiredKafka,
  stops: StopList,
  log: Logger,
): Promise<void> {
  const api = sections.api;
  const { QueryAdmission } = await import('../api/views/admission.js');
  // One admission control of the views' queries for JSON-RPC and the streams' look-ups (same ClickHouse).
  const admission = new QueryAdmission(api.admission);
  const workers = sections.role === 'all' ? streamProcessCount(api.streamProcesses) : 0;
  const endpoint =
    workers > 0 ? { host: '127.0.0.1', port: 0 } : api.views.port >= 0 ? { host: api.grpc.host, port: api.views.port } : undefined;
  const { views, url } = await wireEngineViews(api, ch, admission, endpoint, stops, log);

  const edge = await wireEdge(api, stops, log);
  let streams: StreamPorts | undefined;
  let head: ChainHead;
  if (workers === 0 && api.serve !== 'rpc') {
    const here = await wireStreams(api, views, infra, edge, stops, log);
    streams = here;
    head = here.live;
  } else {
    const { LiveLayer } = await import('../api/live/index.js');
    // Slot statuses for JSON-RPC's freshness check, and what the head cache keeps: transactions, account writes.
    const live = await LiveLayer.start({ ...api.live, kinds: headKinds(api.jsonrpc), ...infra, log });
    stops.add('live layer (slots)', () => live.close());
    head = live;
  }
  const rpc = await wireRpc(api, ch, admission, head, edge, stops, log);
  if (workers > 0) {
    const w = await startStreamWorkers({ count: workers, config, brokers, viewsUrl: url!, log });
    stops.add('stream processes', () => w.stop());
    streams = w.ports;
  }
  const host = api.grpc.host;
  if (streams === undefined) {
    log.info({ jsonrpc: `http://${host}:${rpc}/` }, 'json-rpc is serving');
    return;
  }
  log.info(
    {
      grpc: `${host}:${streams.grpc}`,
      jsonrpc: `http://${host}:${rpc}/`,
      pubsub: `ws://${host}:${streams.pubsub}/`,
      streamProcesses: workers,
    },
    'api is serving',
  );
}

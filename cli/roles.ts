// Starts the parts of a role in dependency order and stops them in reverse.
import { join } from 'node:path';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/log.js';
import { createClickHouse, isEmbedded, type ClickHouseClient } from '../platform/clickhouse.js';
import { applyMigrations } from '../platform/migrations.js';
import { addHealthCheck, startMetricsServer } from '../platform/metrics.js';
import { startLocalKafka } from '../deploy/kafka/launcher.js';
import { connectKafka } from './infrastructure.js';
import type { LiveRead } from '../api/live/index.js';
// Role modules load on demand, so a role pays only for what it runs.

export interface Running {
  /** Stops every part, newest first. */
  stop(): Promise<void>;
  /** Settles when the role finishes on its own (a bounded source, a rebuild) or fails. */
  done: Promise<void>;
}

const forever = new Promise<void>(() => {});

export async function startRole(config: Config, positionals: string[], log: Logger): Promise<Running> {
  const stops: { what: string; stop: () => Promise<void> }[] = [];
  const stopAll = async () => {
    for (const { what, stop } of stops.reverse()) {
      try {
        await stop();
        log.debug({ what }, 'stopped');
      } catch (err) {
        log.error({ err, what }, 'stop failed');
      }
    }
  };
  const role = config.role;
  try {
    let done: Promise<void> = forever;
    if (role === 'kafka') {
      const kafka = await startLocalKafka({ nodes: config.kafkaNodes as 1 | 3, ...localKafkaData(config) });
      stops.push({ what: 'local kafka', stop: () => kafka.stop() });
      log.info({ brokers: kafka.brokers.join(',') }, `local Kafka is up: use KAFKA_BROKERS=${kafka.brokers.join(',')}`);
      return { stop: stopAll, done };
    }

    if (role === 'ingest' && config.out !== '') {
      // Fixture mode writes a file: no broker, no metrics server.
      const { startIngest } = await import('../ingest/run.js');
      const ingest = await startIngest(config, log);
      stops.push({ what: 'ingest', stop: () => ingest.stop() });
      return { stop: stopAll, done: ingest.done };
    }

    const metrics = await startMetricsServer(config.host, config.metricsPort);
    stops.push({ what: 'metrics', stop: () => metrics.close() });
    log.info({ port: metrics.port }, 'metrics and health on /metrics and /health');

    let brokers = [...config.kafkaBrokers];
    if (brokers.length === 0) {
      const kafka = await startLocalKafka({ nodes: 1, ...localKafkaData(config) });
      stops.push({ what: 'local kafka', stop: () => kafka.stop() });
      brokers = kafka.brokers;
      log.info({ brokers: brokers.join(',') }, 'KAFKA_BROKERS is unset: started a local Kafka broker');
    }
    const cfg: Config = Object.freeze({ ...config, kafkaBrokers: brokers });
    // One set of Kafka clients for the process, topics created once; each role gets it.
    const { kafka, topics } = await connectKafka(cfg, log);
    stops.push({ what: 'kafka clients', stop: () => kafka.close() });

    let ch: ClickHouseClient | undefined;
    if (role !== 'ingest') {
      const chOpts = { url: cfg.clickhouseUrl, dataDir: join(cfg.dataDir, 'clickhouse'), database: cfg.clickhouseDatabase };
      if (isEmbedded(chOpts) && role !== 'all') {
        log.warn('CLICKHOUSE_URL is unset: embedded ClickHouse in this process; no other process can share its folder');
      }
      ch = await createClickHouse(chOpts);
      stops.push({ what: 'clickhouse', stop: () => ch!.close() });
      const applied = await applyMigrations(ch, cfg.clickhouseDatabase);
      if (applied.length > 0) log.info({ applied }, 'applied ClickHouse migrations');
    }
    if (role === 'projector' || role === 'all') {
      // Before anything reads or writes the views: they must have been built from these topics.
      const { reconcileViews } = await import('../projector/topic-identity.js');
      await reconcileViews({ ch: ch!, database: cfg.clickhouseDatabase, admin: kafka.admin(), topics, log });
    }

    if (role === 'projector' && positionals[0] === 'rebuild') {
      const { rebuildViews } = await import('../projector/run.js');
      done = rebuildViews(cfg, log, { ch: ch!, kafka, topics });
      return { stop: stopAll, done };
    }
    if (positionals.length > 0) throw new Error(`unexpected argument ${JSON.stringify(positionals[0])} for role ${role}`);

    if (role === 'projector' || role === 'all') {
      const { startProjector } = await import('../projector/run.js');
      const projector = await startProjector(cfg, log, { ch: ch!, kafka, topics });
      stops.push({ what: 'projector', stop: () => projector.stop() });
    }
    if (role === 'api' || role === 'all') {
      const { LiveLayer } = await import('../api/live/index.js');
      const { startGrpc } = await import('../api/grpc/server.js');
      const { streamService } = await import('../api/grpc/stream/service.js');
      const { geyserService } = await import('../api/grpc/geyser/service.js');
      const { startJsonRpc } = await import('../api/jsonrpc/server.js');
      // One live layer (one Kafka reader, one filter index) for every streaming transport of this process.
      const live = await LiveLayer.start({ kafka, topics, ch, database: cfg.clickhouseDatabase, pingIntervalMs: cfg.pingIntervalMs, read: cfg.liveRead as LiveRead, maxReplays: cfg.maxReplays, log });
      stops.push({ what: 'live layer', stop: () => live.close() });
      const queueSize = cfg.streamQueueSize;
      const grpc = await startGrpc({
        services: [
          streamService({ live, limits: { maxFiltersPerKind: cfg.maxFiltersPerKind, maxKeysPerList: cfg.maxKeysPerList, maxInstructionConditions: cfg.maxInstructionConditions }, queueSize, log }),
          geyserService({
            live,
            limits: {
              maxFiltersPerKind: cfg.geyserMaxFilters, maxKeysPerFilter: cfg.geyserMaxKeys, maxMemcmpBytes: cfg.geyserMaxMemcmpBytes,
              maxFilterNameBytes: cfg.geyserMaxFilterNameBytes, maxDataSlices: cfg.geyserMaxDataSlices,
            },
            queueSize,
            log,
          }),
        ],
        host: cfg.host, port: cfg.grpcPort, authToken: cfg.authToken || undefined, log,
      });
      stops.push({ what: 'grpc', stop: () => grpc.close() });
      // One admission control of the views' queries for JSON-RPC and PubSub's look-ups (same ClickHouse).
      const { QueryAdmission } = await import('../api/views/admission.js');
      const admission = new QueryAdmission({ maxRunning: cfg.rpcMaxRunningQueries, maxPerClient: cfg.rpcMaxQueriesPerClient });
      const rpc = await startJsonRpc({
        ch: ch!, database: cfg.clickhouseDatabase, host: cfg.host, port: cfg.rpcPort,
        authToken: cfg.authToken || undefined, maxBodyBytes: cfg.rpcMaxBodyBytes, maxBatch: cfg.rpcMaxBatch,
        maxSlotLag: cfg.maxSlotLag, chainTip: () => live.chainTip(), admission, log,
      });
      stops.push({ what: 'jsonrpc', stop: () => rpc.close() });
      addHealthCheck(() => rpc.health());
      const { startPubSub } = await import('../api/pubsub/server.js');
      const { viewsSignatureLookup } = await import('../api/pubsub/signature-lookup.js');
      const pubsub = await startPubSub({
        live, host: cfg.host, port: cfg.pubsubPort, authToken: cfg.authToken || undefined,
        maxConnections: cfg.pubsubMaxConnections, maxSubscriptionsPerConnection: cfg.pubsubMaxSubscriptions,
        maxMessageBytes: cfg.pubsubMaxMessageBytes, maxBufferedBytes: cfg.pubsubMaxBufferedBytes,
        pingIntervalMs: cfg.pubsubPingMs, lookupSignature: viewsSignatureLookup(ch!, cfg.clickhouseDatabase, admission), log,
      });
      stops.push({ what: 'pubsub', stop: () => pubsub.close() });
      log.info({ grpc: `${cfg.host}:${grpc.port}`, jsonrpc: `http://${cfg.host}:${rpc.port}/`, pubsub: `ws://${cfg.host}:${pubsub.port}/` }, 'api is serving');
    }
    if (role === 'ingest' || role === 'all') {
      const { startIngest } = await import('../ingest/run.js');
      const ingest = await startIngest(cfg, log, { kafka, topics });
      stops.push({ what: 'ingest', stop: () => ingest.stop() });
      // In `all`, a bounded source finishing leaves the other roles serving.
      if (role === 'ingest') done = ingest.done;
    }
    return { stop: stopAll, done };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

function localKafkaData(config: Config): { dataDir?: string; keepData: boolean } {
  return config.keepKafkaData ? { dataDir: join(config.dataDir, 'kafka'), keepData: true } : { keepData: false };
}

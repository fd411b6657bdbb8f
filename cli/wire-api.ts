// The api role: one live layer (one Kafka reader, one filter index) for every streaming transport of the
// process, the gRPC host with its two services, JSON-RPC and PubSub. Each takes its config section as it is.
import type { ApiSection } from '../platform/config-sections.js';
import type { ClickHouseClient } from '../platform/clickhouse.js';
import type { Logger } from '../platform/log.js';
import { addHealthCheck } from '../platform/metrics.js';
import type { KafkaInfra } from './infrastructure.js';
import type { StopList } from './stop-list.js';

export async function wireApi(
  api: ApiSection,
  ch: ClickHouseClient,
  { kafka, topics }: KafkaInfra,
  stops: StopList,
  log: Logger,
): Promise<void> {
  const { LiveLayer } = await import('../api/live/index.js');
  const { startGrpc } = await import('../api/grpc/server.js');
  const { streamService } = await import('../api/grpc/stream/service.js');
  const { geyserService } = await import('../api/grpc/geyser/service.js');
  const { startJsonRpc } = await import('../api/jsonrpc/server.js');
  const { startPubSub } = await import('../api/pubsub/server.js');
  const { viewsSignatureLookup } = await import('../api/pubsub/signature-lookup.js');
  const { QueryAdmission } = await import('../api/views/admission.js');
  const { openAccess } = await import('./wire-access.js');
  const { TlsFiles } = await import('../platform/tls.js');

  // One certificate and key for every listener, renewed in place.
  const tls = api.tls ? new TlsFiles(api.tls, log) : undefined;
  if (tls) stops.add('tls files', () => Promise.resolve(tls.close()));

  // One access check (keys, limits, usage) for every interface.
  const access = openAccess(api.access, stops, log);

  const live = await LiveLayer.start({ ...api.live, kafka, topics, ch, log });
  stops.add('live layer', () => live.close());

  const { stream, geyser, queueSize, ...listener } = api.grpc;
  const grpc = await startGrpc({
    ...listener,
    access,
    tls,
    services: [
      streamService({ live, limits: stream.limits, queueSize, log }),
      geyserService({ live, limits: geyser.limits, queueSize, log }),
    ],
    log,
  });
  stops.add('grpc', () => grpc.close());

  // One admission control of the views' queries for JSON-RPC and PubSub's look-ups (same ClickHouse).
  const admission = new QueryAdmission(api.admission);
  const { processInputs, statusSource } = await import('../api/status/snapshot.js');
  const { STATUS_PAGE } = await import('../api/status/page.js');
  const { ViewsStateCache } = await import('../api/views/state.js');
  const statusViews = new ViewsStateCache(ch, api.jsonrpc.database, 500);
  const snapshot = statusSource(
    processInputs({ ch, database: api.jsonrpc.database, chainTip: () => live.chainTip(), views: () => statusViews.get() }),
  );
  const rpc = await startJsonRpc({
    ...api.jsonrpc,
    access,
    tls,
    ch,
    chainTip: () => live.chainTip(),
    upstreamVersion: () => live.upstreamVersion(),
    admission,
    status: { page: STATUS_PAGE, snapshot },
    log,
  });
  stops.add('jsonrpc', () => rpc.close());
  addHealthCheck(() => rpc.health());

  const lookupSignature = viewsSignatureLookup(ch, api.jsonrpc.database, admission);
  const pubsub = await startPubSub({ ...api.pubsub, access, tls, live, lookupSignature, log });
  stops.add('pubsub', () => pubsub.close());

  const host = api.grpc.host;
  log.info(
    {
      grpc: `${host}:${grpc.port}${tls ? ' (TLS)' : ''}`,
      jsonrpc: `${tls ? 'https' : 'http'}://${host}:${rpc.port}/`,
      pubsub: `${tls ? 'wss' : 'ws'}://${host}:${pubsub.port}/`,
    },
    'api is serving',
  );
}

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
  const { HeadCache } = await import('../api/head/head-cache.js');

  const live = await LiveLayer.start({ ...api.live, kafka, topics, ch, log });
  stops.add('live layer', () => live.close());

  const { stream, geyser, queueSize, ...listener } = api.grpc;
  const grpc = await startGrpc({
    ...listener,
    services: [
      streamService({ live, limits: stream.limits, queueSize, log }),
      geyserService({ live, limits: geyser.limits, queueSize, log }),
    ],
    log,
  });
  stops.add('grpc', () => grpc.close());

  // One admission control of the views' queries for JSON-RPC and PubSub's look-ups (same ClickHouse).
  const admission = new QueryAdmission(api.admission);
  // The head cache: recent reads from the live read's own records (api/head/), added in the same synchronous
  // step as it learns whether the tail has read anything yet.
  const { headCacheSlots, ...jsonrpc } = api.jsonrpc;
  const head = headCacheSlots > 0 ? new HeadCache({ slots: headCacheSlots, fromStart: live.readsFromStart() }) : undefined;
  if (head) live.addConsumer(head);
  const rpc = await startJsonRpc({ ...jsonrpc, ch, chainTip: () => live.chainTip(), admission, log, ...(head ? { head } : {}) });
  stops.add('jsonrpc', () => rpc.close());
  addHealthCheck(() => rpc.health());

  const lookupSignature = viewsSignatureLookup(ch, api.jsonrpc.database, admission);
  const pubsub = await startPubSub({ ...api.pubsub, live, lookupSignature, log });
  stops.add('pubsub', () => pubsub.close());

  const host = api.grpc.host;
  log.info(
    { grpc: `${host}:${grpc.port}`, jsonrpc: `http://${host}:${rpc.port}/`, pubsub: `ws://${host}:${pubsub.port}/` },
    'api is serving',
  );
}

// The api role's parts. Streams (wireStreams): one live layer (one Kafka reader, one filter index) for every
// streaming transport of the process, the gRPC host with its two services and PubSub; what they need from the
// views comes through one StreamViews (api/live/stream-views.ts): ClickHouse, the engine process's internal
// endpoint, or none. JSON-RPC (wireRpc) reads ClickHouse. `api` and `all` put them together as configured
// (cli/roles.ts): in one process, or the engine here and the streams in stream processes (cli/stream-workers.ts).
import type { AccessControl } from '../api/access/index.js';
import type { LiveLayer, StreamViews } from '../api/live/index.js';
import type { QueryAdmission } from '../api/views/admission.js';
import type { ApiSection } from '../api/options.js';
import type { JsonRpcSection } from '../api/jsonrpc/options.js';
import type { TopicKind } from '../schemas/topics.js';
import type { ClickHouseClient } from '../platform/clickhouse.js';
import type { Logger } from '../platform/log.js';
import { addHealthCheck } from '../platform/metrics.js';
import type { TlsFiles } from '../platform/tls.js';
import type { KafkaInfra } from './infrastructure.js';
import type { StopList } from './stop-list.js';

export interface StreamPorts {
  grpc: number;
  pubsub: number;
}

/** What every listener of a process shares: one access check (keys, limits, usage) and one certificate. */
export interface Edge {
  access: AccessControl;
  tls: TlsFiles | undefined;
}

/** The process's access check and TLS files (renewed in place), once per process. */
export async function wireEdge(api: ApiSection, stops: StopList, log: Logger): Promise<Edge> {
  const { openAccess } = await import('./wire-access.js');
  const { TlsFiles } = await import('../platform/tls.js');
  const tls = api.tls ? new TlsFiles(api.tls, log) : undefined;
  if (tls) stops.add('tls files', () => Promise.resolve(tls.close()));
  return { access: openAccess(api.access, stops, log), tls };
}

/** The live layer, gRPC (stream.Stream, geyser.Geyser) and PubSub on `views`; returns the ports they serve on. */
export async function wireStreams(
  api: ApiSection,
  views: StreamViews | undefined,
  { kafka, topics }: KafkaInfra,
  { access, tls }: Edge,
  stops: StopList,
  log: Logger,
): Promise<StreamPorts & { live: LiveLayer }> {
  const { LiveLayer } = await import('../api/live/index.js');
  const { startGrpc } = await import('../api/grpc/server.js');
  const { streamService } = await import('../api/grpc/stream/service.js');
  const { geyserService } = await import('../api/grpc/geyser/service.js');
  const { startPubSub } = await import('../api/pubsub/server.js');
  const { viewsSignatureLookup } = await import('../api/pubsub/signature-lookup.js');

  const live = await LiveLayer.start({ ...api.live, kafka, topics, views, log });
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

  const lookupSignature = views ? viewsSignatureLookup(views) : undefined;
  const pubsub = await startPubSub({ ...api.pubsub, access, tls, live, lookupSignature, log });
  stops.add('pubsub', () => pubsub.close());
  return { grpc: grpc.port, pubsub: pubsub.port, live };
}

/** What JSON-RPC reads of the process's live read: the newest slot (its freshness check), the upstream node's
 * version, and the records the head cache keeps. */
export type ChainHead = Pick<LiveLayer, 'chainTip' | 'upstreamVersion' | 'addConsumer' | 'readsFromStart'>;

/** The topics a live read only for JSON-RPC takes (the streams in processes of their own): slot statuses for its
 * freshness check, and what its head cache keeps. Pure. */
export function headKinds(jsonrpc: Pick<JsonRpcSection, 'headCacheSlots' | 'headCacheAccounts'>): TopicKind[] {
  if (jsonrpc.headCacheSlots === 0) return ['slots'];
  return jsonrpc.headCacheAccounts ? ['slots', 'transactions', 'accounts'] : ['slots', 'transactions'];
}

/** JSON-RPC on ClickHouse, with the status page; returns its port. */
export async function wireRpc(
  api: ApiSection,
  ch: ClickHouseClient,
  admission: QueryAdmission,
  head: ChainHead,
  { access, tls }: Edge,
  stops: StopList,
  log: Logger,
): Promise<number> {
  const { JsonRpcServer } = await import('../api/jsonrpc/server.js');
  const { processInputs, statusSource } = await import('../api/status/snapshot.js');
  const { STATUS_PAGE } = await import('../api/status/page.js');
  const { ViewsStateCache } = await import('../api/views/state.js');
  const { HeadCache } = await import('../api/head/head-cache.js');
  const statusViews = new ViewsStateCache(ch, api.jsonrpc.database, 500);
  const chainTip = (): bigint | undefined => head.chainTip();
  const snapshot = statusSource(processInputs({ ch, database: api.jsonrpc.database, chainTip, views: () => statusViews.get() }));
  // The head cache: recent reads from the live read's own records (api/head/); whether the tail has read anything
  // yet is asked in the same synchronous step as the cache is added.
  const { headCacheSlots, headCacheAccounts, ...jsonrpc } = api.jsonrpc;
  const cache =
    headCacheSlots > 0
      ? new HeadCache({ slots: headCacheSlots, accounts: headCacheAccounts, fromStart: head.readsFromStart() })
      : undefined;
  if (cache) head.addConsumer(cache);
  const rpc = await JsonRpcServer.open({
    ...jsonrpc,
    ...(cache ? { head: cache } : {}),
    access,
    tls,
    ch,
    chainTip,
    upstreamVersion: () => head.upstreamVersion(),
    admission,
    status: { page: STATUS_PAGE, snapshot },
    log,
  });
  stops.add('jsonrpc', () => rpc.close());
  addHealthCheck(() => rpc.health());
  return rpc.port;
}

/** The StreamViews of the engine process (ClickHouse, sharing JSON-RPC's admission), and its internal endpoint when
 * stream processes need it (`port` -1: none). */
export async function wireEngineViews(
  api: ApiSection,
  ch: ClickHouseClient,
  admission: QueryAdmission,
  endpoint: { host: string; port: number } | undefined,
  stops: StopList,
  log: Logger,
): Promise<{ views: StreamViews; url: string | undefined }> {
  const { clickHouseViews } = await import('../api/live/index.js');
  const views = clickHouseViews(ch, api.jsonrpc.database, admission);
  if (endpoint === undefined) return { views, url: undefined };
  const { startViewsEndpoint } = await import('../api/live/views-endpoint.js');
  const served = await startViewsEndpoint({ views, ...endpoint, token: api.access.authToken, log });
  stops.add('views endpoint', () => served.close());
  log.info({ views: served.url }, 'internal views endpoint for stream processes');
  return { views, url: served.url };
}

/** The views a stream-only process reads: the engine's endpoint, else a ClickHouse server (no migrations: the
 * process writes nothing), else none. */
export async function wireStreamViews(
  api: ApiSection,
  clickhouse: { url?: string; database: string },
  tag: string,
  stops: StopList,
  log: Logger,
): Promise<StreamViews | undefined> {
  if (api.views.url !== '') {
    const { remoteViews } = await import('../api/live/views-remote.js');
    log.info({ views: api.views.url }, 'streams only: the views through the engine process');
    return remoteViews({ url: api.views.url, token: api.access.authToken, tag });
  }
  if (clickhouse.url !== undefined && clickhouse.url !== '') {
    const { createClickHouse } = await import('../platform/clickhouse.js');
    const { clickHouseViews } = await import('../api/live/index.js');
    const { QueryAdmission } = await import('../api/views/admission.js');
    const ch = await createClickHouse({ url: clickhouse.url, database: clickhouse.database, dataDir: '', sessions: 1 });
    stops.add('clickhouse', () => ch.close());
    log.info('streams only: the views from the ClickHouse server (CLICKHOUSE_URL)');
    return clickHouseViews(ch, clickhouse.database, new QueryAdmission(api.admission));
  }
  log.warn('streams only, no --views-url and no CLICKHOUSE_URL: from_slot replays scan from the log start, snapshots are unavailable');
  return undefined;
}

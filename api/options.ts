// The api's section of the config: what a process serves and where, the access check and TLS, composing each
// transport's own section (api/live/, api/grpc/, api/jsonrpc/, api/pubsub/ options.ts); the typed value is what
// the role wiring (cli/wire-api.ts) hands each part.
import {
  choice,
  composeOptions,
  ConfigError,
  defineSection,
  flagOf,
  opt,
  SERVICE_ROLES,
  type Role,
  type ValuesOf,
} from '../platform/options.js';
import type { TlsFilesOptions } from '../platform/tls.js';
import { GRPC_OPTIONS, GRPC_SECTION, type GrpcSection } from './grpc/options.js';
import { JSONRPC_OPTIONS, JSONRPC_SECTION, type JsonRpcSection } from './jsonrpc/options.js';
import { LIVE_OPTIONS, LIVE_SECTION, type LiveSection } from './live/options.js';
import { PUBSUB_OPTIONS, PUBSUB_SECTION, type PubSubSection } from './pubsub/options.js';
import type { AdmissionOptions } from './views/admission.js';

const API: readonly Role[] = ['api', 'all'];

/** Where and what the process serves, who may use it, TLS, and how streams read Kafka. */
export const API_SERVING_OPTIONS = {
  host: opt({
    kind: 'string',
    env: 'API_HOST',
    default: '127.0.0.1',
    // Every service role: an ingest's or projector's metrics server must be reachable by Prometheus in a container.
    roles: SERVICE_ROLES,
    help: 'Address the gRPC, JSON-RPC, PubSub and metrics servers bind to (ingest and projector: the metrics server).',
  }),
  serve: choice({
    env: 'API_SERVE',
    default: 'all',
    oneOf: ['all', 'streams', 'rpc'],
    roles: ['api'],
    help: "What this api process serves: all; streams (gRPC stream.Stream and geyser.Geyser, PubSub: reads Kafka, never opens ClickHouse; the views through --views-url, or CLICKHOUSE_URL's server, or none); rpc (JSON-RPC only).",
  }),
  viewsUrl: opt({
    kind: 'string',
    env: 'VIEWS_URL',
    default: '',
    roles: ['api'],
    help: "--serve streams: the engine process's internal views endpoint (http://host:port, its --views-port) for snapshots, from_slot start offsets and signature look-ups. Empty: CLICKHOUSE_URL's server when set, else none (replays scan from the log start, no snapshots).",
  }),
  viewsPort: opt({
    kind: 'int',
    env: 'VIEWS_PORT',
    default: -1,
    min: -1,
    max: 65535,
    roles: ['api'],
    help: 'Serve the internal views endpoint that stream-only api processes use (--views-url) on this port of --host (0 = any free port; -1 = none). Internal: keep it on a private network; --auth-token guards it when set.',
  }),
  streamProcesses: opt({
    kind: 'int',
    env: 'STREAM_PROCESSES',
    default: -1,
    min: -1,
    max: 256,
    roles: ['all'],
    help: "Stream processes beside the engine: each serves gRPC and PubSub on the shared public ports (Node's cluster), reads Kafka itself and asks the engine for the views. -1 = one per core beyond the first (at least 1); 0 = everything in this one process.",
  }),
  grpcPort: opt({ kind: 'int', env: 'GRPC_PORT', default: 10000, min: 0, max: 65535, roles: API, help: 'gRPC port (0 = any free port).' }),
  rpcPort: opt({ kind: 'int', env: 'RPC_PORT', default: 8899, min: 0, max: 65535, roles: API, help: 'JSON-RPC port (0 = any free port).' }),
  authToken: opt({
    kind: 'string',
    env: 'SLOTSTREAM_TOKEN',
    default: '',
    roles: API,
    help: 'Shared token for gRPC (x-token), JSON-RPC (Authorization: Bearer) and PubSub (either header, or ?token= / ?api-key= in the URL); works beside --keys-file as the key id "token", unlimited. Empty (and no --keys-file): no auth.',
  }),
  keysFile: opt({
    kind: 'string',
    env: 'API_KEYS_FILE',
    default: '',
    roles: API,
    help: 'API keys file (JSON: keys by SHA-256 with an id, interfaces and limits; api/access/README.md). Read again when it changes and on SIGHUP; open streams stay, those of removed keys end. Empty: no keys.',
  }),
  tlsCertFile: opt({
    kind: 'string',
    env: 'TLS_CERT_FILE',
    default: '',
    roles: API,
    help: 'TLS for gRPC, JSON-RPC (https) and PubSub (wss): the PEM certificate chain file, with --tls-key-file. Read again when either file changes (a renewed certificate is served to new connections without a restart). Empty: plaintext.',
  }),
  tlsKeyFile: opt({
    kind: 'string',
    env: 'TLS_KEY_FILE',
    default: '',
    roles: API,
    help: "TLS: the PEM private key file of --tls-cert-file's certificate.",
  }),
  usageFile: opt({
    kind: 'string',
    env: 'API_USAGE_FILE',
    default: '',
    roles: API,
    help: 'Usage records: one JSON line per API key per --usage-interval-ms appended to this file (requests, updates, bytes, open streams), for billing. Empty: none.',
  }),
  usageIntervalMs: opt({
    kind: 'int',
    env: 'API_USAGE_INTERVAL_MS',
    default: 60_000,
    min: 100,
    roles: API,
    help: 'Usage records: the interval each line covers.',
  }),
  liveRead: choice({
    env: 'LIVE_READ',
    default: 'uncommitted',
    oneOf: ['uncommitted', 'committed'],
    roles: API,
    help: "Streams (gRPC, PubSub) read Kafka uncommitted (updates as soon as the ingest produced them; a re-published copy of an aborted record is weeded out by identity) or committed (each update waits for the ingest's Kafka transaction to commit).",
  }),
};

/** Each transport's section, in --help's order: the live layer, gRPC, JSON-RPC, PubSub. */
export const API_LIMIT_OPTIONS = composeOptions(LIVE_OPTIONS, GRPC_OPTIONS, JSONRPC_OPTIONS, PUBSUB_OPTIONS);

export const API_OPTIONS = composeOptions(API_SERVING_OPTIONS, API_LIMIT_OPTIONS);

type ApiValues = ValuesOf<typeof API_OPTIONS>;
export type LiveReadOption = ApiValues['liveRead'];

export interface ApiSection {
  /** What the process serves (`api --serve`; `all` serves all). */
  serve: 'all' | 'streams' | 'rpc';
  /** The internal views endpoint: where a stream-only process reads it ('' none), and the port an engine serves
   * it on (-1 none). */
  views: { url: string; port: number };
  /** `all`: stream processes beside the engine (-1 auto, 0 none). */
  streamProcesses: number;
  /** The one live layer of the process (LiveLayer.start's options minus the injected clients). */
  live: LiveSection;
  grpc: GrpcSection;
  jsonrpc: JsonRpcSection;
  pubsub: PubSubSection;
  /** Admission of the views' queries, shared by JSON-RPC and PubSub's look-ups. */
  admission: AdmissionOptions;
  /** The one access check of every interface (api/access/): the shared token, the keys file, the usage records. */
  access: AccessSection;
  /** TLS on every listener (gRPC, JSON-RPC, PubSub); absent: plaintext. */
  tls?: TlsFilesOptions;
}

export interface AccessSection {
  authToken?: string;
  keysFile?: string;
  usage?: { path: string; intervalMs: number };
}

/** Both TLS files or neither. */
function tlsOf(c: ApiValues): { tls?: TlsFilesOptions } {
  if (c.tlsCertFile === '' && c.tlsKeyFile === '') return {};
  if (c.tlsCertFile === '' || c.tlsKeyFile === '')
    throw new ConfigError(
      `options ${flagOf('tlsCertFile')} and ${flagOf('tlsKeyFile')}: give both (the certificate and its key) or neither`,
    );
  return { tls: { certFile: c.tlsCertFile, keyFile: c.tlsKeyFile } };
}

/** Besides its own: the role (only `api` chooses what it serves), the views' database
 * (platform/clickhouse-options.ts) and the Kafka brokers (platform/kafka/options.ts). */
type ApiConfig = ApiValues & { role: Role; clickhouseDatabase: string; kafkaBrokers: readonly string[] };

function apiSection(c: ApiConfig): ApiSection {
  return {
    serve: c.role === 'api' ? c.serve : 'all',
    views: { url: c.viewsUrl, port: c.viewsPort },
    streamProcesses: c.streamProcesses,
    live: LIVE_SECTION.value(c),
    grpc: GRPC_SECTION.value(c),
    ...JSONRPC_SECTION.value(c),
    pubsub: PUBSUB_SECTION.value(c),
    ...tlsOf(c),
    access: {
      ...(c.authToken !== '' ? { authToken: c.authToken } : {}),
      ...(c.keysFile !== '' ? { keysFile: c.keysFile } : {}),
      ...(c.usageFile !== '' ? { usage: { path: c.usageFile, intervalMs: c.usageIntervalMs } } : {}),
    },
  };
}

/** --views-url is where a stream-only api reads the views; with anything else it would be ignored. */
function checkServe(config: ApiConfig): void {
  if (config.role !== 'api') return;
  if (config.viewsUrl !== '' && config.serve !== 'streams') {
    throw new ConfigError(`option ${flagOf('viewsUrl')} applies only to ${flagOf('serve')} streams (serve is ${config.serve})`);
  }
  if (config.viewsUrl !== '' && !/^https?:\/\/./.test(config.viewsUrl)) {
    throw new ConfigError(`option ${flagOf('viewsUrl')}: expected http(s)://host:port (got ${JSON.stringify(config.viewsUrl)})`);
  }
  if (config.serve === 'streams' && config.kafkaBrokers.length === 0) {
    throw new ConfigError(
      `${flagOf('serve')} streams serves the chain an existing Kafka holds: give ${flagOf('kafkaBrokers')} (KAFKA_BROKERS); a local broker of its own would be empty`,
    );
  }
  if (config.viewsPort >= 0 && config.serve === 'streams') {
    throw new ConfigError(`option ${flagOf('viewsPort')} serves the views: a ${flagOf('serve')} streams process has none to serve`);
  }
}

export const API_SECTION = defineSection(API_OPTIONS, apiSection, (c: ApiConfig) => {
  LIVE_SECTION.check(c);
  checkServe(c);
});

// The api's section of the config: what a process serves and where, the access check, TLS, the live layer and
// each transport's limits; the typed value is what the role wiring (cli/wire-api.ts) hands each part.
import type { GeyserFilterLimits } from './filters/from-geyser.js';
import type { FilterLimits } from './filters/types.js';
import type { CompressionPolicy } from './grpc/compression.js';
import type { JsonRpcOptions } from './jsonrpc/server.js';
import type { LiveLayerOptions } from './live/index.js';
import type { PubSubOptions } from './pubsub/server.js';
import type { AdmissionOptions } from './views/admission.js';
import type { TopicKind } from '../schemas/topics.js';
import type { TlsFilesOptions } from '../platform/tls.js';
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

/** The live layer's topics and each transport's limits. */
export const API_LIMIT_OPTIONS = {
  liveTopics: opt({
    kind: 'list',
    env: 'LIVE_TOPICS',
    default: ['transactions', 'accounts', 'entries', 'parsed'],
    roles: API,
    help: "Streams (gRPC, PubSub): the topics this process's live layer reads besides the slots topic (any of transactions, accounts, entries, parsed). A replica that serves only SubscribeParsed reads parsed alone (one record per update instead of the chain's 3.5: bench/README.md); a stream asking for a topic not read ends with UNAVAILABLE naming it.",
  }),
  maxReplays: opt({
    kind: 'int',
    env: 'LIVE_MAX_REPLAYS',
    default: 8,
    min: 1,
    roles: API,
    help: 'Streams (stream.Stream and geyser.Geyser): from_slot replays running at once in this process (each reads Kafka history with its own reader); one more is refused with RESOURCE_EXHAUSTED naming this limit.',
  }),
  pingIntervalMs: opt({
    kind: 'int',
    env: 'GRPC_PING_MS',
    default: 10000,
    min: 100,
    roles: API,
    help: 'gRPC: server ping interval on every stream.',
  }),
  maxFiltersPerKind: opt({
    kind: 'int',
    env: 'GRPC_MAX_FILTERS',
    default: 100,
    min: 1,
    roles: API,
    help: 'gRPC: named filters per kind per stream.',
  }),
  maxKeysPerList: opt({ kind: 'int', env: 'GRPC_MAX_KEYS', default: 10000, min: 1, roles: API, help: 'gRPC: keys per filter list.' }),
  maxInstructionConditions: opt({
    kind: 'int',
    env: 'GRPC_MAX_INSTRUCTION_CONDITIONS',
    default: 64,
    min: 1,
    roles: API,
    help: 'gRPC stream.Stream: instruction conditions per transaction filter.',
  }),
  streamQueueSize: opt({
    kind: 'int',
    env: 'GRPC_QUEUE',
    default: 20000,
    min: 1,
    roles: API,
    help: 'gRPC: updates queued per stream before a slow client is cut off (RESOURCE_EXHAUSTED).',
  }),
  grpcCompress: choice({
    env: 'GRPC_COMPRESS',
    default: 'zstd',
    oneOf: ['zstd', 'all', 'none'],
    roles: API,
    help:
      'gRPC response compression for clients that accept it (grpc-accept-encoding): zstd only; all (zstd, else gzip: ' +
      'grpc-js clients accept gzip unasked); none. zstd requests are accepted unless none; gzip ones always.',
  }),
  geyserMaxFilters: opt({
    kind: 'int',
    env: 'GEYSER_MAX_FILTERS',
    default: 100,
    min: 1,
    roles: API,
    help: 'geyser.Geyser: named filters per kind per stream (Yellowstone limits max).',
  }),
  geyserMaxKeys: opt({
    kind: 'int',
    env: 'GEYSER_MAX_KEYS',
    default: 10000,
    min: 1,
    roles: API,
    help: 'geyser.Geyser: keys per filter list (account, owner, account_include/exclude/required).',
  }),
  geyserMaxMemcmpBytes: opt({
    kind: 'int',
    env: 'GEYSER_MAX_MEMCMP_BYTES',
    default: 128,
    min: 1,
    roles: API,
    help: 'geyser.Geyser: bytes of memcmp data after decoding.',
  }),
  geyserMaxFilterNameBytes: opt({
    kind: 'int',
    env: 'GEYSER_MAX_FILTER_NAME_BYTES',
    default: 128,
    min: 1,
    roles: API,
    help: 'geyser.Geyser: UTF-8 bytes of a filter name.',
  }),
  geyserMaxDataSlices: opt({
    kind: 'int',
    env: 'GEYSER_MAX_DATA_SLICES',
    default: 16,
    min: 0,
    roles: API,
    help: 'geyser.Geyser: entries of accounts_data_slice.',
  }),
  geyserMaxCuckooBytes: opt({
    kind: 'int',
    env: 'GEYSER_MAX_CUCKOO_BYTES',
    default: 3 * 1024 * 1024,
    min: 8,
    roles: API,
    help:
      'geyser.Geyser: bytes of one cuckoo filter (compressed address set); ~8 MiB per 2M keys, 32 MiB for 10M. The gRPC ' +
      'inbound message cap rises with it (1 MiB above) when past its 4 MiB.',
  }),
  rpcMaxBodyBytes: opt({
    kind: 'int',
    env: 'RPC_MAX_BODY',
    default: 50 * 1024,
    min: 1024,
    roles: API,
    help: 'JSON-RPC: largest request body (413 beyond).',
  }),
  rpcMaxBatch: opt({ kind: 'int', env: 'RPC_MAX_BATCH', default: 100, min: 1, roles: API, help: 'JSON-RPC: most requests in one batch.' }),
  rpcMaxProgramAccounts: opt({
    kind: 'int',
    env: 'RPC_MAX_PROGRAM_ACCOUNTS',
    default: 1_000_000,
    min: 1,
    roles: API,
    help: 'JSON-RPC: most accounts one getProgramAccounts answer may hold (streamed, so memory does not grow with it); beyond, -32012 pointing to getProgramAccountsV2.',
  }),
  rpcMaxRunningQueries: opt({
    kind: 'int',
    env: 'RPC_MAX_RUNNING_QUERIES',
    default: 2,
    min: 1,
    max: 1024,
    roles: API,
    help: 'JSON-RPC and PubSub look-ups: ClickHouse queries handed to ClickHouse at once; more wait, taken round-robin across clients (cheap methods answer from the cached views state and never wait here).',
  }),
  rpcMaxQueriesPerClient: opt({
    kind: 'int',
    env: 'RPC_MAX_QUERIES_PER_CLIENT',
    default: 128,
    min: 1,
    roles: API,
    help: 'JSON-RPC and PubSub look-ups: ClickHouse queries one client (HTTP remote address, PubSub connection) may have running or waiting; one more answers -32429.',
  }),
  rpcIdentity: opt({
    kind: 'string',
    env: 'RPC_IDENTITY',
    default: '',
    roles: API,
    help: 'JSON-RPC getIdentity: the base-58 pubkey to answer (slotstream is no validator and has no identity of its own). Empty: getIdentity answers -32601 saying so.',
  }),
  rpcGenesisHash: opt({
    kind: 'string',
    env: 'RPC_GENESIS_HASH',
    default: '',
    roles: API,
    help: "JSON-RPC getGenesisHash: the chain's genesis hash (base-58), e.g. mainnet's. Empty: the blockhash of slot 0 when the views hold it.",
  }),
  maxSlotLag: opt({
    kind: 'int',
    env: 'RPC_MAX_SLOT_LAG',
    default: 150,
    min: 0,
    roles: API,
    help: 'JSON-RPC: views trailing Kafka by more slots than this answer -32007 and /health says behind.',
  }),
  rpcHeadCacheSlots: opt({
    kind: 'int',
    env: 'RPC_HEAD_CACHE_SLOTS',
    default: 150,
    min: 0,
    roles: API,
    help: 'JSON-RPC head cache: the newest slots whose transactions the api holds in memory from its live Kafka read, answering recent reads (getSlot, getLatestBlockhash, getTransaction, getBlock, ...) without ClickHouse; at least 150, 0 = off.',
  }),
  // PubSub (WebSocket)
  pubsubPort: opt({
    kind: 'int',
    env: 'PUBSUB_PORT',
    default: 8900,
    min: 0,
    max: 65535,
    roles: API,
    help: 'PubSub (Solana WebSocket subscriptions) port, the JSON-RPC port + 1 as Agave (0 = any free port).',
  }),
  pubsubMaxConnections: opt({
    kind: 'int',
    env: 'PUBSUB_MAX_CONNECTIONS',
    default: 10_000,
    min: 1,
    roles: API,
    help: 'PubSub: open WebSocket connections; one more is refused with HTTP 503.',
  }),
  pubsubMaxSubscriptions: opt({
    kind: 'int',
    env: 'PUBSUB_MAX_SUBSCRIPTIONS',
    default: 1_000,
    min: 1,
    roles: API,
    help: 'PubSub: subscriptions per connection; one more is refused with -32603 (Agave\'s "subscription limit reached").',
  }),
  pubsubMaxMessageBytes: opt({
    kind: 'int',
    env: 'PUBSUB_MAX_MESSAGE',
    // Helius's transactionSubscribe takes up to 50,000 addresses in each of its three lists: ~7.1 MB of JSON.
    default: 8 * 1024 * 1024,
    min: 1024,
    roles: API,
    help: 'PubSub: largest message a client may send; a larger one closes the connection with 1009 (message too big). The default takes a transactionSubscribe with 3 lists of 50,000 addresses.',
  }),
  pubsubMaxBufferedBytes: opt({
    kind: 'int',
    env: 'PUBSUB_MAX_BUFFERED',
    default: 16 * 1024 * 1024,
    min: 1024,
    roles: API,
    help: 'PubSub: bytes a connection may owe its client; beyond, the client is too slow and the connection is closed (1008).',
  }),
  pubsubPingMs: opt({
    kind: 'int',
    env: 'PUBSUB_PING_MS',
    default: 30_000,
    min: 100,
    roles: API,
    help: 'PubSub: WebSocket ping interval; a connection that has answered none of the last two pings is closed.',
  }),
};

export const API_OPTIONS = composeOptions(API_SERVING_OPTIONS, API_LIMIT_OPTIONS);

type ApiValues = ValuesOf<typeof API_OPTIONS>;
export type LiveReadOption = ApiValues['liveRead'];

/** What a transport's options hold besides the process's clients, live layer and logger. */
type Listener = { host: string; port: number };

export interface ApiSection {
  /** What the process serves (`api --serve`; `all` serves all). */
  serve: 'all' | 'streams' | 'rpc';
  /** The internal views endpoint: where a stream-only process reads it ('' none), and the port an engine serves
   * it on (-1 none). */
  views: { url: string; port: number };
  /** `all`: stream processes beside the engine (-1 auto, 0 none). */
  streamProcesses: number;
  /** The one live layer of the process (LiveLayer.start's options minus the injected clients). */
  live: Omit<LiveLayerOptions, 'kafka' | 'topics' | 'views' | 'log'>;
  grpc: Listener & {
    /** Updates queued per stream before a slow client is cut off. */
    queueSize: number;
    /** Response compression for clients that accept it (issue 23). */
    compress: CompressionPolicy;
    stream: { limits: FilterLimits };
    geyser: { limits: GeyserFilterLimits };
  };
  jsonrpc: Pick<
    JsonRpcOptions,
    'host' | 'port' | 'database' | 'maxBodyBytes' | 'maxBatch' | 'maxSlotLag' | 'maxProgramAccounts' | 'identity' | 'genesisHash'
  > & {
    /** Slots the head cache holds (api/head/); 0: no cache. */
    headCacheSlots: number;
  };
  pubsub: Pick<
    PubSubOptions,
    'host' | 'port' | 'maxConnections' | 'maxSubscriptionsPerConnection' | 'maxMessageBytes' | 'maxBufferedBytes' | 'pingIntervalMs'
  >;
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
  const listener = (port: number): Listener => ({ host: c.host, port });
  return {
    serve: c.role === 'api' ? c.serve : 'all',
    views: { url: c.viewsUrl, port: c.viewsPort },
    streamProcesses: c.streamProcesses,
    live: {
      pingIntervalMs: c.pingIntervalMs,
      read: c.liveRead,
      maxReplays: c.maxReplays,
      // checkLiveTopics let only data topic kinds through.
      kinds: ['slots', ...(c.liveTopics as TopicKind[])],
    },
    grpc: {
      ...listener(c.grpcPort),
      queueSize: c.streamQueueSize,
      compress: c.grpcCompress,
      stream: {
        limits: {
          maxFiltersPerKind: c.maxFiltersPerKind,
          maxKeysPerList: c.maxKeysPerList,
          maxInstructionConditions: c.maxInstructionConditions,
        },
      },
      geyser: {
        limits: {
          maxFiltersPerKind: c.geyserMaxFilters,
          maxKeysPerFilter: c.geyserMaxKeys,
          maxMemcmpBytes: c.geyserMaxMemcmpBytes,
          maxFilterNameBytes: c.geyserMaxFilterNameBytes,
          maxDataSlices: c.geyserMaxDataSlices,
          maxCuckooBytes: c.geyserMaxCuckooBytes,
        },
      },
    },
    jsonrpc: {
      ...listener(c.rpcPort),
      database: c.clickhouseDatabase,
      maxBodyBytes: c.rpcMaxBodyBytes,
      maxBatch: c.rpcMaxBatch,
      maxSlotLag: c.maxSlotLag,
      maxProgramAccounts: c.rpcMaxProgramAccounts,
      identity: c.rpcIdentity || undefined,
      genesisHash: c.rpcGenesisHash || undefined,
      headCacheSlots: c.rpcHeadCacheSlots,
    },
    pubsub: {
      ...listener(c.pubsubPort),
      maxConnections: c.pubsubMaxConnections,
      maxSubscriptionsPerConnection: c.pubsubMaxSubscriptions,
      maxMessageBytes: c.pubsubMaxMessageBytes,
      maxBufferedBytes: c.pubsubMaxBufferedBytes,
      pingIntervalMs: c.pubsubPingMs,
    },
    admission: { maxRunning: c.rpcMaxRunningQueries, maxPerClient: c.rpcMaxQueriesPerClient },
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

const LIVE_TOPICS = ['transactions', 'accounts', 'entries', 'parsed'];

/** --live-topics names data topics the live layer can read, each once (the slots topic is always read). */
function checkLiveTopics(config: ApiConfig): void {
  const bad = config.liveTopics.find((t) => !LIVE_TOPICS.includes(t));
  if (bad !== undefined)
    throw new ConfigError(
      `option ${flagOf('liveTopics')}: ${JSON.stringify(bad)} is not one of ${LIVE_TOPICS.join(', ')} (the slots topic is always read)`,
    );
  const twice = config.liveTopics.find((t, i) => config.liveTopics.indexOf(t) !== i);
  if (twice !== undefined) throw new ConfigError(`option ${flagOf('liveTopics')}: ${twice} is named twice`);
}

export const API_SECTION = defineSection(API_OPTIONS, apiSection, (c: ApiConfig) => {
  checkLiveTopics(c);
  checkServe(c);
});

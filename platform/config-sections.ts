// The config in sections per subsystem, each typed as what its consumer takes (the way Yellowstone's
// `ConfigGrpc.filter_limits` is the filter module's own `FilterLimits`): the role wiring (cli/wire-*.ts)
// hands a section over as it is, with no field-by-field copy, cast or non-null assertion. The flat option
// table (config.ts) stays the one source of flags, environment variables, defaults and --help; this file
// only groups its values. Type-only imports: the config loads none of its consumers.
import type { GeyserFilterLimits } from '../api/filters/from-geyser.js';
import type { CompressionPolicy } from '../api/grpc/compression.js';
import type { FilterLimits } from '../api/filters/types.js';
import type { LiveLayerOptions } from '../api/live/index.js';
import type { PubSubOptions } from '../api/pubsub/server.js';
import type { AdmissionOptions } from '../api/views/admission.js';
import type { JsonRpcOptions } from '../api/jsonrpc/server.js';
import type { StartLocalKafkaOptions } from './local-kafka/launcher.js';
import type { LagOptions } from '../ingest/sources/shared/lag.js';
import type { RpcSourceOptions } from '../ingest/sources/rpc/source.js';
import type { SimOptions } from '../ingest/sources/sim/options.js';
import type { VoteSelection } from '../ingest/sources/shared/votes.js';
import type { Filters } from '../ingest/sources/yellowstone/subscription.js';
import type { YellowstoneSourceOptions } from '../ingest/sources/yellowstone/source.js';
import type { ProjectorOptions } from '../projector/run.js';
import { join } from 'node:path';
import type { ClickHouseOptions } from './clickhouse.js';
import type { PumpTableFiles } from './pump-tables.js';
import type { TlsFilesOptions } from './tls.js';
import { ConfigError, flagOf, type Config, type LogFormatOption, type LogLevel, type Role, type Source } from './config.js';
import type { TopicKind } from '../schemas/topics.js';
import type { EnsureTopicsOptions } from './kafka/topics.js';
import { kafkaCompression, type KafkaCompression } from './kafka/compression.js';

export interface KafkaSection {
  /** Bootstrap servers; empty: the role wiring starts a local broker (`local`). */
  brokers: readonly string[];
  topicPrefix: string;
  /** The producers' record batch codec (platform/kafka/compression.ts). */
  compression: KafkaCompression;
  /** How missing topics are created (platform/kafka/topics.ts). */
  topics: Omit<EnsureTopicsOptions, 'log'>;
  /** The local broker of `slotstream kafka` and of a process without brokers (platform/local-kafka/launcher.ts). */
  local: Pick<StartLocalKafkaOptions, 'nodes' | 'dataDir' | 'keepData'>;
}

export interface IngestSection {
  source: Source;
  /** Votes published or dropped (ingest/sources/shared/votes.ts); ingest/run.ts hands it to the simulator and maps it onto Yellowstone's filter. */
  votes: VoteSelection;
  /** The topics the ingest publishes to (and its sources' dead letters go to), when it publishes to Kafka. */
  kafka: { brokers: readonly string[]; topicPrefix: string };
  /** Part of the Kafka transactional id (ingest/publish/name-claim.ts). */
  name: string;
  /** Fixture mode: the source's events go to this file (- for stdout) instead of Kafka; '' for Kafka. */
  out: string;
  /** When /health says behind (yellowstone and rpc sources). */
  lag: LagOptions;
  /** pumpMix: the --sim-pump-mix text, parsed by the ingest when it starts the simulator (sim/pump-mix.ts). */
  sim: Omit<SimOptions, 'votes' | 'pumpMix'> & { pumpMix: string };
  file: { path: string; strict: boolean };
  rpc: Pick<RpcSourceOptions, 'url' | 'fromSlot' | 'toSlot' | 'concurrency' | 'timeoutMs' | 'pollMs' | 'snapshotPrograms'>;
  /** `subscribe` is checked against the source's streams by the config rules and mapped onto them by the source. */
  yellowstone: Pick<YellowstoneSourceOptions, 'upstreams' | 'backoffMs'> & {
    maxLagSlots: number;
    subscribe: readonly string[];
    filters: Omit<Filters, 'streams'>;
    /** The JSON-RPC node that names leaders (--rpc-url), when one is given. */
    leaders: YellowstoneSourceOptions['rpc'];
  };
}

export type ProjectorSection = ProjectorOptions;

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

export interface ConfigSections {
  role: Role;
  kafka: KafkaSection;
  clickhouse: ClickHouseOptions;
  ingest: IngestSection;
  /** The decoder tables' files (platform/pump-tables.ts; '' for the bundled ones). */
  pumpTables: PumpTableFiles;
  projector: ProjectorSection;
  api: ApiSection;
  metrics: { host: string; port: number };
  log: { level: LogLevel; format: LogFormatOption };
}

/** The local broker runs 1 node or a 3-node KRaft cluster (the config rules reject others before this). */
function localNodes(n: number): 1 | 3 {
  if (n === 1 || n === 3) return n;
  throw new ConfigError(`option ${flagOf('kafkaNodes')}: must be 1 or 3 (got ${n})`);
}

/** -1 (the option's "none") as undefined, a slot otherwise. */
const slotOrNone = (n: number): bigint | undefined => (n >= 0 ? BigInt(n) : undefined);

/** The codec and level options checked together (a level the codec lacks or refuses fails naming both). */
export function compressionOf(c: Config): KafkaCompression {
  try {
    return kafkaCompression(c.kafkaCompression, c.kafkaCompressionLevel);
  } catch (err) {
    throw new ConfigError(
      `options ${flagOf('kafkaCompression')} ${c.kafkaCompression} ${flagOf('kafkaCompressionLevel')} ${c.kafkaCompressionLevel}: ${(err as Error).message}`,
    );
  }
}

export function kafkaSection(c: Config): KafkaSection {
  return {
    brokers: c.kafkaBrokers,
    topicPrefix: c.topicPrefix,
    compression: compressionOf(c),
    topics: { partitions: c.partitions, retentionMs: c.retentionMs, replicationFactor: c.replicationFactor },
    local: {
      nodes: localNodes(c.kafkaNodes),
      ...(c.keepKafkaData ? { dataDir: join(c.dataDir, 'kafka'), keepData: true } : { keepData: false }),
    },
  };
}

export function projectorSection(c: Config): ProjectorSection {
  return {
    database: c.clickhouseDatabase,
    groupId: c.groupId,
    batchRows: c.batchRows,
    batchMs: c.batchMs,
    retention: { accountHistoryS: c.retentionAccountHistoryS, transactionsS: c.retentionTransactionsS },
  };
}

export function ingestSection(c: Config): IngestSection {
  return {
    source: c.source,
    votes: c.votes,
    kafka: { brokers: c.kafkaBrokers, topicPrefix: c.topicPrefix },
    name: c.ingestName,
    out: c.out,
    lag: { stallMs: c.ingestStallMs, maxLagSlots: c.ingestMaxLagSlots },
    sim: {
      seed: c.seed,
      slotMs: c.slotMs,
      tps: c.tps,
      skipRate: c.skipRate,
      slotsPerEpoch: c.slotsPerEpoch,
      validators: c.validators,
      fast: c.fast,
      maxSlots: c.maxSlots,
      entries: c.simEntries,
      deadRate: c.deadRate,
      pumpMix: c.simPumpMix,
    },
    file: { path: c.sourcePath, strict: c.strict },
    rpc: {
      url: c.rpcUrl,
      fromSlot: slotOrNone(c.fromSlot),
      toSlot: slotOrNone(c.toSlot),
      concurrency: c.rpcConcurrency,
      timeoutMs: c.rpcTimeoutMs,
      pollMs: c.rpcPollMs,
      snapshotPrograms: c.rpcSnapshotPrograms,
    },
    yellowstone: {
      // One token for all endpoints, or one per endpoint (the config rules check the count).
      upstreams: c.yellowstoneUrl.map((url, i) => {
        const token = c.xToken.length === 1 ? c.xToken[0]! : (c.xToken[i] ?? '');
        return token !== '' ? { url, xToken: token } : { url };
      }),
      maxLagSlots: c.yellowstoneMaxLagSlots,
      backoffMs: c.yellowstoneBackoffMs,
      subscribe: c.yellowstoneSubscribe,
      filters: {
        votes: c.votes === 'include',
        txAccountInclude: c.yellowstoneTxAccountInclude,
        txAccountExclude: c.yellowstoneTxAccountExclude,
        txAccountRequired: c.yellowstoneTxAccountRequired,
        accounts: c.yellowstoneAccounts,
        owners: c.yellowstoneOwners,
      },
      leaders: c.rpcUrl !== '' ? { url: c.rpcUrl, timeoutMs: c.rpcTimeoutMs } : undefined,
    },
  };
}

/** Both TLS files or neither. */
function tlsOf(c: Config): { tls?: TlsFilesOptions } {
  if (c.tlsCertFile === '' && c.tlsKeyFile === '') return {};
  if (c.tlsCertFile === '' || c.tlsKeyFile === '')
    throw new ConfigError(
      `options ${flagOf('tlsCertFile')} and ${flagOf('tlsKeyFile')}: give both (the certificate and its key) or neither`,
    );
  return { tls: { certFile: c.tlsCertFile, keyFile: c.tlsKeyFile } };
}

export function apiSection(c: Config): ApiSection {
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

/** The whole config in sections (pure; the flat config stays what flags, env and makeConfig build). */
export function configSections(c: Config): ConfigSections {
  return {
    role: c.role,
    kafka: kafkaSection(c),
    clickhouse: {
      url: c.clickhouseUrl,
      dataDir: join(c.dataDir, 'clickhouse'),
      database: c.clickhouseDatabase,
      sessions: c.clickhouseSessions,
    },
    ingest: ingestSection(c),
    pumpTables: { pump: c.pumpIdl, pump_amm: c.pumpAmmIdl, pump_fees: c.pumpFeesIdl },
    projector: projectorSection(c),
    api: apiSection(c),
    metrics: { host: c.host, port: c.metricsPort },
    log: { level: c.logLevel, format: c.logFormat },
  };
}

// One typed, frozen config object for every role, built from command-line flags and environment
// variables (flags win). Every option is declared once in OPTIONS with its default and meaning;
// `slotstream <role> --help` prints this table, and an unknown or malformed option fails naming it.
import { SlotstreamError } from '../schemas/errors.js';

export type Role = 'ingest' | 'projector' | 'api' | 'all' | 'kafka';
export const ROLES: readonly Role[] = ['ingest', 'projector', 'api', 'all', 'kafka'];
export const isRole = (s: string): s is Role => ROLES.some((r) => r === s);

type Kind = 'string' | 'int' | 'number' | 'bool' | 'list';

/** V: the values of a one-of string option (a literal union), or string for a free one. */
interface OptionSpec<K extends Kind = Kind, V extends string = string> {
  kind: K;
  env: string;
  default: K extends 'int' | 'number' ? number : K extends 'bool' ? boolean : K extends 'list' ? string[] : V;
  help: string;
  /** Allowed values for string options. */
  oneOf?: readonly V[];
  min?: number;
  max?: number;
  roles: readonly Role[];
}

const ALL: readonly Role[] = ROLES;
const INGEST: readonly Role[] = ['ingest', 'all'];
const PROJECTOR: readonly Role[] = ['projector', 'all'];
const API: readonly Role[] = ['api', 'all'];
const SERVICE: readonly Role[] = ['ingest', 'projector', 'api', 'all'];
/** The roles that decode pump.fun (the ingest builds SubscribeParsed's updates; the api checks the request's kinds). */
const DECODE: readonly Role[] = ['ingest', 'api', 'all'];

const opt = <K extends Kind>(spec: OptionSpec<K>): OptionSpec<K> => spec;
/** A one-of string option: its config value is typed as the union of its values, so no consumer casts it. */
const choice = <const V extends string>(
  spec: Omit<OptionSpec<'string', V>, 'kind' | 'default' | 'oneOf'> & { default: NoInfer<V>; oneOf: readonly V[] },
): OptionSpec<'string', V> => ({ kind: 'string', ...spec });

/** The values of the one-of options, for the consumers' types (literal unions). */
export type Source = ValueOf<Options['source']>;
export type KafkaCompressionOption = ValueOf<Options['kafkaCompression']>;
export type LiveReadOption = ValueOf<Options['liveRead']>;
export type LogLevel = ValueOf<Options['logLevel']>;
export type LogFormatOption = ValueOf<Options['logFormat']>;

export const OPTIONS = {
  // Kafka
  kafkaBrokers: opt({
    kind: 'list',
    env: 'KAFKA_BROKERS',
    default: [],
    roles: SERVICE,
    help: 'Kafka bootstrap servers, comma separated. Empty: start a local broker (platform/local-kafka) for this process.',
  }),
  topicPrefix: opt({
    kind: 'string',
    env: 'TOPIC_PREFIX',
    default: 'solana',
    roles: SERVICE,
    help: 'Topic name prefix: topics are <prefix>.transactions.v1 and so on.',
  }),
  partitions: opt({
    kind: 'int',
    env: 'KAFKA_PARTITIONS',
    default: 4,
    min: 1,
    max: 1024,
    roles: SERVICE,
    help: 'Partitions of each topic when the service creates it.',
  }),
  replicationFactor: opt({
    kind: 'int',
    env: 'KAFKA_REPLICATION_FACTOR',
    default: 1,
    min: 1,
    max: 7,
    roles: SERVICE,
    help: 'Replication factor of topics the service creates.',
  }),
  retentionMs: opt({
    kind: 'int',
    env: 'KAFKA_RETENTION_MS',
    default: 7 * 24 * 3600 * 1000,
    min: -1,
    roles: SERVICE,
    help: 'Topic retention in ms (-1: keep forever). Retention is the replay depth of from_slot.',
  }),
  kafkaNodes: opt({
    kind: 'int',
    env: 'KAFKA_NODES',
    default: 1,
    oneOf: undefined,
    min: 1,
    max: 3,
    roles: ['kafka'],
    help: 'Local broker only: 1 node, or a 3-node KRaft cluster.',
  }),
  kafkaCompression: choice({
    env: 'KAFKA_COMPRESSION',
    default: 'zstd',
    oneOf: ['none', 'lz4', 'zstd', 'gzip', 'snappy'],
    roles: SERVICE,
    help: "Producers' record batch codec (librdkafka compression.codec); consumers read any. Chosen by bench/compression.ts.",
  }),
  kafkaCompressionLevel: opt({
    kind: 'int',
    env: 'KAFKA_COMPRESSION_LEVEL',
    default: -1,
    min: -1,
    max: 12,
    roles: SERVICE,
    help: 'Codec level (librdkafka compression.level): -1 the default (zstd 1, measured; lz4 and gzip their own); lz4 0-12, zstd 1-12, gzip 0-9.',
  }),
  keepKafkaData: opt({
    kind: 'bool',
    env: 'KAFKA_KEEP_DATA',
    default: false,
    roles: ['kafka', 'all'],
    help: 'Local broker only: keep its data folder (under --data-dir) after stop, so history survives restarts.',
  }),
  // ClickHouse
  clickhouseUrl: opt({
    kind: 'string',
    env: 'CLICKHOUSE_URL',
    default: '',
    roles: SERVICE,
    help: 'ClickHouse server URL (http://user:pass@host:8123). Empty: embedded chdb in --data-dir (all role only).',
  }),
  clickhouseDatabase: opt({
    kind: 'string',
    env: 'CLICKHOUSE_DATABASE',
    default: 'slotstream',
    roles: SERVICE,
    help: 'Database that holds the views.',
  }),
  clickhouseSessions: opt({
    kind: 'int',
    env: 'CLICKHOUSE_SESSIONS',
    default: 1,
    min: 1,
    max: 64,
    roles: SERVICE,
    help: 'Embedded ClickHouse: engine sessions used at once (chdb runs one query at a time per session; a call goes to the least busy). More let inserts and reads run in parallel (raise --rpc-max-running-queries with it) at the cost of CPU the streams share. Ignored with CLICKHOUSE_URL.',
  }),
  dataDir: opt({
    kind: 'string',
    env: 'SLOTSTREAM_DATA_DIR',
    default: '.data',
    roles: ALL,
    help: 'Folder for embedded ClickHouse data and a kept local broker.',
  }),
  // Ingest
  source: choice({
    env: 'INGEST_SOURCE',
    default: 'sim',
    oneOf: ['sim', 'file', 'yellowstone', 'rpc', 'none'],
    roles: INGEST,
    help: 'Chain source: sim (simulated chain), file (JSON lines), yellowstone, rpc; none (role all only): no ingest in this process, one runs apart (`slotstream ingest`) against the same brokers.',
  }),
  votes: choice({
    env: 'INGEST_VOTES',
    default: 'include',
    oneOf: ['include', 'exclude'],
    roles: INGEST,
    help: "Vote transactions and vote-account writes: include, or exclude before publishing (yellowstone: the upstream's vote: false too). See README 'Deployments without votes'.",
  }),
  sourcePath: opt({
    kind: 'string',
    env: 'INGEST_FILE',
    default: '',
    roles: INGEST,
    help: 'File source: path of the JSON-lines file, or - for standard input.',
  }),
  strict: opt({
    kind: 'bool',
    env: 'INGEST_STRICT',
    default: false,
    roles: INGEST,
    help: 'File source: stop at the first bad line instead of skipping it.',
  }),
  out: opt({
    kind: 'string',
    env: 'INGEST_OUT',
    default: '',
    roles: INGEST,
    help: "Write the source's events as JSON lines to this file (- for stdout) instead of publishing.",
  }),
  seed: opt({
    kind: 'int',
    env: 'SIM_SEED',
    default: 1,
    min: 0,
    roles: INGEST,
    help: 'Simulator: seed; the same seed gives the same chain.',
  }),
  slotMs: opt({
    kind: 'int',
    env: 'SIM_SLOT_MS',
    default: 400,
    min: 0,
    roles: INGEST,
    help: 'Simulator: slot duration in ms; 0 = as fast as possible.',
  }),
  tps: opt({ kind: 'int', env: 'SIM_TPS', default: 200, min: 0, roles: INGEST, help: 'Simulator: transactions per second of chain time.' }),
  skipRate: opt({
    kind: 'number',
    env: 'SIM_SKIP_RATE',
    default: 0.05,
    min: 0,
    max: 0.9,
    roles: INGEST,
    help: 'Simulator: share of skipped slots.',
  }),
  slotsPerEpoch: opt({
    kind: 'int',
    env: 'SIM_SLOTS_PER_EPOCH',
    default: 8192,
    min: 32,
    max: 432000,
    roles: INGEST,
    help: 'Simulator: slots per epoch (432000 as on mainnet).',
  }),
  validators: opt({
    kind: 'int',
    env: 'SIM_VALIDATORS',
    default: 50,
    min: 1,
    max: 5000,
    roles: INGEST,
    help: 'Simulator: number of validators.',
  }),
  fast: opt({
    kind: 'bool',
    env: 'SIM_FAST',
    default: false,
    roles: INGEST,
    help: 'Simulator: random unsigned signatures instead of ed25519 (benchmarks only; logged).',
  }),
  maxSlots: opt({
    kind: 'int',
    env: 'SIM_MAX_SLOTS',
    default: 0,
    min: 0,
    roles: INGEST,
    help: 'Simulator: stop after this many slots (0 = run forever).',
  }),
  simEntries: opt({
    kind: 'bool',
    env: 'SIM_ENTRIES',
    default: true,
    roles: INGEST,
    help: "Simulator: publish each block's PoH entries to <prefix>.entries.v1 (--sim-entries false: none; blockhashes stay the same).",
  }),
  deadRate: opt({
    kind: 'number',
    env: 'SIM_DEAD_RATE',
    default: 0.01,
    min: 0,
    max: 0.5,
    roles: INGEST,
    help: 'Simulator: share of slots that become a dead fork at processed instead of a block (0 = none).',
  }),
  simPumpMix: opt({
    kind: 'string',
    env: 'SIM_PUMP_MIX',
    default: '',
    roles: INGEST,
    help: "Simulator: shares of the October 2026 pump shapes, e.g. 'curve_v3=0.6,pool_v2=0.6,sweep=0.03,graduate=0.004' (v3 curve trades, PumpSwap v2 trades, fee sweeps, synthetic-migration buys; keys left out and '' keep today's mix, ingest/sources/sim/pump-mix.ts).",
  }),
  ingestName: opt({
    kind: 'string',
    env: 'INGEST_NAME',
    default: 'main',
    roles: INGEST,
    help: 'Name of this ingest, part of its Kafka transactional id (slotstream-ingest-<prefix>-<name>): 1-64 of a-z 0-9 . _ -. A second ingest with the same name on the same topic prefix stands by and takes over when the active one stops (ingest/publish/name-claim.ts).',
  }),
  ingestStallMs: opt({
    kind: 'int',
    env: 'INGEST_STALL_MS',
    default: 30_000,
    min: 100,
    roles: INGEST,
    help: "yellowstone and rpc sources: /health says behind when the upstream's tip has not advanced for this long.",
  }),
  ingestMaxLagSlots: opt({
    kind: 'int',
    env: 'INGEST_MAX_LAG_SLOTS',
    default: 150,
    min: 0,
    roles: INGEST,
    help: "yellowstone and rpc sources: /health says behind when the ingest trails the upstream's tip by more slots than this.",
  }),
  // Ingest: --source rpc (rpcUrl is also the JSON-RPC node other sources read leader schedules from)
  rpcUrl: opt({
    kind: 'string',
    env: 'INGEST_RPC_URL',
    default: '',
    roles: INGEST,
    help: 'Solana JSON-RPC node (http[s]://…): --source rpc reads blocks from it; also where epochs and leader schedules come from.',
  }),
  fromSlot: opt({
    kind: 'int',
    env: 'INGEST_FROM_SLOT',
    default: -1,
    min: -1,
    roles: INGEST,
    help: "rpc source: first slot to ingest (-1 = the node's confirmed tip). Never before the newest slot in the topics.",
  }),
  toSlot: opt({
    kind: 'int',
    env: 'INGEST_TO_SLOT',
    default: -1,
    min: -1,
    roles: INGEST,
    help: 'rpc source: last slot to ingest, then stop (-1 = follow the tip). A bounded run publishes finalized slots only.',
  }),
  rpcConcurrency: opt({
    kind: 'int',
    env: 'INGEST_RPC_CONCURRENCY',
    default: 8,
    min: 1,
    max: 256,
    roles: INGEST,
    help: 'rpc source: getBlock calls in flight while catching up (results are still published in slot order).',
  }),
  rpcTimeoutMs: opt({
    kind: 'int',
    env: 'INGEST_RPC_TIMEOUT_MS',
    default: 30_000,
    min: 100,
    roles: INGEST,
    help: 'rpc source: timeout of one JSON-RPC request; timed-out requests are retried with backoff.',
  }),
  rpcPollMs: opt({
    kind: 'int',
    env: 'INGEST_RPC_POLL_MS',
    default: 400,
    min: 10,
    roles: INGEST,
    help: 'rpc source: pause between polls of the tip once caught up.',
  }),
  rpcSnapshotPrograms: opt({
    kind: 'list',
    env: 'INGEST_RPC_SNAPSHOT_PROGRAMS',
    default: [],
    roles: INGEST,
    help: 'rpc source: base58 program ids whose accounts are read once at start with getProgramAccounts and published as is_startup account writes (JSON-RPC has no account stream).',
  }),
  // Ingest: --source yellowstone
  yellowstoneUrl: opt({
    kind: 'list',
    env: 'YELLOWSTONE_URL',
    default: [],
    roles: INGEST,
    help: 'yellowstone source: the Yellowstone gRPC endpoint, https://host[:port] (TLS) or http://host:port (plaintext); several, comma separated, are merged (each update published once, from the first to deliver it; one that fails, stalls or lags is resubscribed while the others carry on).',
  }),
  xToken: opt({
    kind: 'list',
    env: 'YELLOWSTONE_X_TOKEN',
    default: [],
    roles: INGEST,
    help: "yellowstone source: the endpoints' access token, sent as x-token metadata: one for every endpoint, or one per endpoint in --yellowstone-url's order (comma separated). Empty: none.",
  }),
  yellowstoneMaxLagSlots: opt({
    kind: 'int',
    env: 'YELLOWSTONE_MAX_LAG_SLOTS',
    default: 64,
    min: 1,
    roles: INGEST,
    help: 'yellowstone source with several --yellowstone-url: an upstream trailing the fastest by more slots than this is dropped and resubscribed.',
  }),
  yellowstoneSubscribe: opt({
    kind: 'list',
    env: 'YELLOWSTONE_SUBSCRIBE',
    default: ['transactions', 'accounts', 'entries'],
    roles: INGEST,
    help: 'yellowstone source: update kinds besides slot statuses and block meta (always on): any of transactions, accounts, entries.',
  }),
  yellowstoneTxAccountInclude: opt({
    kind: 'list',
    env: 'YELLOWSTONE_TX_ACCOUNT_INCLUDE',
    default: [],
    roles: INGEST,
    help: 'yellowstone source: only transactions that use any of these base58 keys (upstream filter).',
  }),
  yellowstoneTxAccountExclude: opt({
    kind: 'list',
    env: 'YELLOWSTONE_TX_ACCOUNT_EXCLUDE',
    default: [],
    roles: INGEST,
    help: 'yellowstone source: no transactions that use any of these base58 keys (upstream filter).',
  }),
  yellowstoneTxAccountRequired: opt({
    kind: 'list',
    env: 'YELLOWSTONE_TX_ACCOUNT_REQUIRED',
    default: [],
    roles: INGEST,
    help: 'yellowstone source: only transactions that use all of these base58 keys (upstream filter).',
  }),
  yellowstoneAccounts: opt({
    kind: 'list',
    env: 'YELLOWSTONE_ACCOUNTS',
    default: [],
    roles: INGEST,
    help: 'yellowstone source: only writes of these base58 accounts (upstream filter; empty: all).',
  }),
  yellowstoneOwners: opt({
    kind: 'list',
    env: 'YELLOWSTONE_OWNERS',
    default: [],
    roles: INGEST,
    help: 'yellowstone source: only writes of accounts owned by these base58 programs (upstream filter; empty: all).',
  }),
  yellowstoneBackoffMs: opt({
    kind: 'int',
    env: 'YELLOWSTONE_BACKOFF_MS',
    default: 500,
    min: 1,
    roles: INGEST,
    help: 'yellowstone source: first reconnect delay in ms; doubles per failed attempt up to 30 s.',
  }),
  // Projector
  batchRows: opt({
    kind: 'int',
    env: 'PROJECTOR_BATCH_ROWS',
    default: 20000,
    min: 1,
    roles: PROJECTOR,
    help: 'Projector: flush a batch at this many events.',
  }),
  batchMs: opt({
    kind: 'int',
    env: 'PROJECTOR_BATCH_MS',
    default: 200,
    min: 1,
    roles: PROJECTOR,
    help: 'Projector: flush a batch at least this often.',
  }),
  groupId: opt({
    kind: 'string',
    env: 'PROJECTOR_GROUP',
    default: 'slotstream-projector',
    roles: PROJECTOR,
    help: 'Projector: Kafka consumer group shared by all copies.',
  }),
  retentionAccountHistoryS: opt({
    kind: 'int',
    env: 'RETENTION_ACCOUNT_HISTORY_S',
    default: 0,
    min: 0,
    roles: PROJECTOR,
    help: "Projector: seconds of account write history ClickHouse keeps (older writes roll up into each account's newest; 0: forever).",
  }),
  retentionTransactionsS: opt({
    kind: 'int',
    env: 'RETENTION_TRANSACTIONS_S',
    default: 0,
    min: 0,
    roles: PROJECTOR,
    help: 'Projector: seconds of blocks and transactions ClickHouse keeps (getFirstAvailableBlock moves with it; 0: forever).',
  }),
  // API
  host: opt({
    kind: 'string',
    env: 'API_HOST',
    default: '127.0.0.1',
    // Every service role: an ingest's or projector's metrics server must be reachable by Prometheus in a container.
    roles: SERVICE,
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
  pumpIdl: opt({
    kind: 'string',
    env: 'PUMP_IDL',
    default: '',
    roles: DECODE,
    help: "pump.fun's decoder table: an Anchor IDL file (pump-public-docs idl/pump.json) or a compact table (scripts/gen-pump-tables.ts); empty: the bundled one (October 2026). Reloaded on SIGHUP and when the file changes, without a restart.",
  }),
  pumpAmmIdl: opt({
    kind: 'string',
    env: 'PUMP_AMM_IDL',
    default: '',
    roles: DECODE,
    help: "PumpSwap's decoder table (idl/pump_amm.json or a compact table), as --pump-idl.",
  }),
  pumpFeesIdl: opt({
    kind: 'string',
    env: 'PUMP_FEES_IDL',
    default: '',
    roles: DECODE,
    help: "Pump Fees' decoder table (idl/pump_fees.json or a compact table), as --pump-idl.",
  }),
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
  // API: PubSub (WebSocket)
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
  // Every role
  metricsPort: opt({
    kind: 'int',
    env: 'METRICS_PORT',
    default: 9090,
    min: 0,
    max: 65535,
    roles: SERVICE,
    help: 'Prometheus /metrics and /health port (0 = any free port).',
  }),
  logLevel: choice({
    env: 'LOG_LEVEL',
    default: 'info',
    oneOf: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'],
    roles: ALL,
    help: 'Log level (logs go to stderr).',
  }),
  logFormat: choice({
    env: 'LOG_FORMAT',
    default: 'auto',
    oneOf: ['auto', 'json', 'pretty'],
    roles: ALL,
    help: 'Log format: json (one JSON object per line), pretty (one readable line per entry), auto (pretty when stderr is a terminal, else json).',
  }),
} satisfies Record<string, OptionSpec>;

type Options = typeof OPTIONS;
type ValueOf<S> =
  S extends OptionSpec<infer K, infer V>
    ? K extends 'int' | 'number'
      ? number
      : K extends 'bool'
        ? boolean
        : K extends 'list'
          ? readonly string[]
          : V
    : never;

export type Config = Readonly<{ [N in keyof Options]: ValueOf<Options[N]> }> & { readonly role: Role };

/**
 * A configuration mistake (catalogue code SLOTSTREAM_CONFIG_INVALID, or SLOTSTREAM_CONFIG_UNKNOWN_OPTION when
 * `option` names an option that does not exist or does not apply); the CLI maps the codes to its exit code.
 */
export class ConfigError extends SlotstreamError<'SLOTSTREAM_CONFIG_INVALID' | 'SLOTSTREAM_CONFIG_UNKNOWN_OPTION'> {
  override name = 'ConfigError';
  constructor(message: string, option?: string) {
    if (option === undefined) super('SLOTSTREAM_CONFIG_INVALID', message, {});
    else super('SLOTSTREAM_CONFIG_UNKNOWN_OPTION', message, { option });
  }
}

/** `--kafka-brokers` for `kafkaBrokers`. */
export const flagOf = (name: string): string => '--' + name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

function parseValue(name: string, spec: OptionSpec, raw: string, origin: string): unknown {
  const bad = (why: string) => new ConfigError(`${origin}: ${why} (got ${JSON.stringify(raw)})`);
  switch (spec.kind) {
    case 'string':
      if (spec.oneOf && !spec.oneOf.includes(raw)) throw bad(`must be one of ${spec.oneOf.join(', ')}`);
      return raw;
    case 'bool':
      if (['true', '1', 'yes', ''].includes(raw)) return true;
      if (['false', '0', 'no'].includes(raw)) return false;
      throw bad('must be true or false');
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    case 'int':
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw bad('must be a number');
      if (spec.kind === 'int' && !Number.isSafeInteger(n)) throw bad('must be a whole number');
      if (spec.min !== undefined && n < spec.min) throw bad(`must be at least ${spec.min}`);
      if (spec.max !== undefined && n > spec.max) throw bad(`must be at most ${spec.max}`);
      return n;
    }
  }
  throw new ConfigError(`option ${name} has no parser`);
}

export interface ParsedArgs {
  config: Config;
  /** Positional arguments after the role (e.g. `projector rebuild`). */
  positionals: string[];
  help: boolean;
}

/**
 * Builds the config of a role from argv (after the role) and env. Flags: `--name value` or `--name=value`;
 * a bool flag alone means true. Env variables apply only to options of the role.
 */
export function parseConfig(role: string, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ParsedArgs {
  if (!isRole(role)) throw new ConfigError(`unknown role ${JSON.stringify(role)}: expected one of ${ROLES.join(', ')}`);
  const r = role;
  const byFlag = new Map<string, string>();
  for (const name of Object.keys(OPTIONS)) byFlag.set(flagOf(name), name);
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(OPTIONS) as [string, OptionSpec][]) {
    values[name] = spec.default;
    const raw = env[spec.env];
    if (raw !== undefined && spec.roles.includes(r)) values[name] = parseValue(name, spec, raw, `environment ${spec.env}`);
  }
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    const name = byFlag.get(flag);
    if (name === undefined) throw new ConfigError(`unknown option ${flag} for role ${r} (see slotstream ${r} --help)`, flag);
    const spec = (OPTIONS as Record<string, OptionSpec>)[name]!;
    if (!spec.roles.includes(r)) throw new ConfigError(`option ${flag} does not apply to role ${r}`, flag);
    let raw: string;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else if (spec.kind === 'bool' && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('--'))) raw = 'true';
    else if (argv[i + 1] === undefined) throw new ConfigError(`option ${flag} needs a value`);
    else raw = argv[++i]!;
    values[name] = parseValue(name, spec, raw, `option ${flag}`);
  }
  return { config: Object.freeze({ ...values, role: r }) as Config, positionals, help };
}

/** Config for tests and embedding: defaults plus overrides, validated like the CLI's. */
export function makeConfig(role: Role, overrides: Partial<Omit<Config, 'role'>> = {}): Config {
  for (const name of Object.keys(overrides)) {
    if (!(name in OPTIONS)) throw new ConfigError(`unknown option ${name}`, name);
  }
  const base = parseConfig(role, [], {}).config;
  return Object.freeze({ ...base, ...overrides });
}

export function helpText(role: Role): string {
  const lines = [`slotstream ${role} [options]`, '', 'Options (flag, environment variable, default):'];
  for (const [name, spec] of Object.entries(OPTIONS) as [string, OptionSpec][]) {
    if (!spec.roles.includes(role)) continue;
    const def = Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default);
    lines.push(`  ${flagOf(name)} (${spec.env}, default ${JSON.stringify(def)})`, `      ${spec.help}`);
  }
  return lines.join('\n');
}

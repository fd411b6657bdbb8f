// Rules that span several options (each option alone is checked by parseConfig). Pure: the CLI runs them,
// with the file checks of cli/validate.ts, before it starts anything, so a mistake costs a second and
// not a broker start (issue 10: "config errors that can be known before starting anything").
import { decodeBase58Exact } from '../schemas/decode-input.js';
import { compressionOf } from '../platform/kafka/options.js';
import { ConfigError, flagOf, OPTIONS, type Config, type Role } from './config.js';

/** Sources the ingest can run today; the others are accepted names that fail here, not after a broker start. */
export const IMPLEMENTED_SOURCES: readonly string[] = ['sim', 'file', 'rpc', 'yellowstone', 'none'];

/** Positional arguments each role accepts (`projector rebuild`). */
const POSITIONALS: Readonly<Record<Role, readonly string[]>> = {
  projector: ['rebuild'],
  ingest: [],
  api: [],
  all: [],
  kafka: [],
};

const hasIngest = (role: Role) => role === 'ingest' || role === 'all';
const hasApi = (role: Role) => role === 'api' || role === 'all';

export function checkConfigRules(config: Config, positionals: readonly string[]): void {
  checkPositionals(config.role, positionals);
  if (config.role === 'kafka' && config.kafkaNodes !== 1 && config.kafkaNodes !== 3) {
    throw new ConfigError(`option ${flagOf('kafkaNodes')}: must be 1 or 3 (got ${config.kafkaNodes})`);
  }
  if (hasIngest(config.role)) checkIngest(config);
  if (config.role !== 'kafka') compressionOf(config);
  if (hasApi(config.role)) checkLiveTopics(config);
  checkServe(config);
  checkPorts(config);
}

/** --views-url is where a stream-only api reads the views; with anything else it would be ignored. */
function checkServe(config: Config): void {
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

function checkPositionals(role: Role, positionals: readonly string[]): void {
  const allowed = POSITIONALS[role];
  const extra = positionals.length > 1 ? positionals[1] : positionals.find((p) => !allowed.includes(p));
  if (extra === undefined) return;
  const expected = allowed.length > 0 ? ` (expected: ${allowed.join(', ')})` : '';
  throw new ConfigError(`unexpected argument ${JSON.stringify(extra)} for role ${role}${expected}`);
}

function checkIngest(config: Config): void {
  if (!IMPLEMENTED_SOURCES.includes(config.source)) {
    throw new ConfigError(`ingest source ${config.source} is not implemented yet (available: ${IMPLEMENTED_SOURCES.join(', ')})`);
  }
  // `all` without its ingest: the projector and the api share one process (one embedded ClickHouse) while the
  // ingest, the CPU-heaviest role on a mainnet-shaped load (issue 22's soak), runs in a process of its own.
  if (config.source === 'none' && config.role !== 'all') {
    throw new ConfigError(
      `--source none applies only to role all (it runs the projector and the api without an ingest); role ${config.role} needs a source`,
    );
  }
  if (config.source === 'file' && config.sourcePath === '') {
    throw new ConfigError(`--source file needs ${flagOf('sourcePath')} <file> (or - for standard input)`);
  }
  // A path or --strict given with another source would be silently ignored: almost surely a mistake.
  if (config.source !== 'file' && config.sourcePath !== '') {
    throw new ConfigError(`option ${flagOf('sourcePath')} applies only to --source file (source is ${config.source})`);
  }
  if (config.source !== 'file' && config.strict) {
    throw new ConfigError(`option ${flagOf('strict')} applies only to --source file (source is ${config.source})`);
  }
  checkIngestName(config.ingestName);
  checkRpcSource(config);
  checkYellowstoneSource(config);
  checkUpstreamOptions(config);
  if (config.out !== '' && config.role !== 'ingest') {
    throw new ConfigError(`option ${flagOf('out')} writes events to a file instead of Kafka: use it with the ingest role`);
  }
  if (config.out !== '' && config.out !== '-' && config.out === config.sourcePath) {
    throw new ConfigError(`options ${flagOf('out')} and ${flagOf('sourcePath')} name the same file (${config.out})`);
  }
}

/** --source rpc needs a node; its range options mean nothing to other sources. */
function checkRpcSource(config: Config): void {
  if (config.source === 'rpc') {
    if (!/^https?:\/\/./.test(config.rpcUrl)) {
      throw new ConfigError(`--source rpc needs ${flagOf('rpcUrl')} http(s)://<node> (got ${JSON.stringify(config.rpcUrl)})`);
    }
    if (config.toSlot >= 0 && config.fromSlot >= 0 && config.toSlot < config.fromSlot) {
      throw new ConfigError(`option ${flagOf('toSlot')} ${config.toSlot} is before ${flagOf('fromSlot')} ${config.fromSlot}`);
    }
    const bad = config.rpcSnapshotPrograms.find((p) => !isPubkey(p));
    if (bad !== undefined)
      throw new ConfigError(`option ${flagOf('rpcSnapshotPrograms')}: ${JSON.stringify(bad)} is not a base58 program id`);
    return;
  }
  for (const name of ['fromSlot', 'toSlot'] as const) {
    if (config[name] !== -1) throw new ConfigError(`option ${flagOf(name)} applies only to --source rpc (source is ${config.source})`);
  }
  if (config.rpcSnapshotPrograms.length > 0) {
    throw new ConfigError(`option ${flagOf('rpcSnapshotPrograms')} applies only to --source rpc (source is ${config.source})`);
  }
}

/** 32 bytes in base58 (the one strict decoder of outside input). */
const isPubkey = (s: string): boolean => decodeBase58Exact(s, 32).ok;

/** Lowercase, so the transactional id and the claim's group name are the same however it is typed. */
const INGEST_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function checkIngestName(name: string): void {
  if (!INGEST_NAME.test(name)) {
    throw new ConfigError(
      `option ${flagOf('ingestName')}: must be 1-64 characters of a-z, 0-9, '.', '_', '-', starting with a letter or digit (got ${JSON.stringify(name)})`,
    );
  }
}

/** Lag and stall limits are about an upstream: the simulator and a file have none. */
function checkUpstreamOptions(config: Config): void {
  if (config.source === 'rpc' || config.source === 'yellowstone') return;
  for (const name of ['ingestStallMs', 'ingestMaxLagSlots'] as const) {
    if (config[name] !== OPTIONS[name].default)
      throw new ConfigError(`option ${flagOf(name)} applies only to --source rpc and yellowstone (source is ${config.source})`);
  }
}

const YELLOWSTONE_ONLY = [
  'yellowstoneUrl',
  'xToken',
  'yellowstoneSubscribe',
  'yellowstoneTxAccountInclude',
  'yellowstoneTxAccountExclude',
  'yellowstoneTxAccountRequired',
  'yellowstoneAccounts',
  'yellowstoneOwners',
  'yellowstoneBackoffMs',
  'yellowstoneMaxLagSlots',
] as const;
const YELLOWSTONE_STREAMS = ['transactions', 'accounts', 'entries'];

/** --source yellowstone needs an endpoint; its options given with another source would be ignored. */
function checkYellowstoneSource(config: Config): void {
  if (config.source !== 'yellowstone') {
    for (const name of YELLOWSTONE_ONLY) {
      if (JSON.stringify(config[name]) !== JSON.stringify(OPTIONS[name].default)) {
        throw new ConfigError(`option ${flagOf(name)} applies only to --source yellowstone (source is ${config.source})`);
      }
    }
    return;
  }
  const urls = config.yellowstoneUrl;
  const badUrl = urls.length === 0 ? '' : urls.find((u) => !/^https?:\/\/./.test(u));
  if (badUrl !== undefined) {
    throw new ConfigError(
      `--source yellowstone needs ${flagOf('yellowstoneUrl')} https://<host>[:port] or http://<host>:<port> (got ${JSON.stringify(badUrl)})`,
    );
  }
  const twice = urls.find((u, i) => urls.indexOf(u) !== i);
  if (twice !== undefined) throw new ConfigError(`option ${flagOf('yellowstoneUrl')}: ${twice} is given twice`);
  if (config.xToken.length > 1 && config.xToken.length !== urls.length) {
    throw new ConfigError(
      `option ${flagOf('xToken')}: ${config.xToken.length} tokens for ${urls.length} endpoints: give one token for all, or one per endpoint in ${flagOf('yellowstoneUrl')}'s order`,
    );
  }
  if (urls.length === 1 && config.yellowstoneMaxLagSlots !== OPTIONS.yellowstoneMaxLagSlots.default) {
    throw new ConfigError(`option ${flagOf('yellowstoneMaxLagSlots')} applies only to several ${flagOf('yellowstoneUrl')} endpoints`);
  }
  const bad = config.yellowstoneSubscribe.find((s) => !YELLOWSTONE_STREAMS.includes(s));
  if (bad !== undefined) {
    throw new ConfigError(
      `option ${flagOf('yellowstoneSubscribe')}: ${JSON.stringify(bad)} is not one of ${YELLOWSTONE_STREAMS.join(', ')}`,
    );
  }
  if (config.rpcUrl !== '' && !/^https?:\/\/./.test(config.rpcUrl)) {
    throw new ConfigError(`option ${flagOf('rpcUrl')} must be an http(s):// URL (got ${JSON.stringify(config.rpcUrl)})`);
  }
}

const LIVE_TOPICS = ['transactions', 'accounts', 'entries', 'parsed'];

/** --live-topics names data topics the live layer can read, each once (the slots topic is always read). */
function checkLiveTopics(config: Config): void {
  const bad = config.liveTopics.find((t) => !LIVE_TOPICS.includes(t));
  if (bad !== undefined)
    throw new ConfigError(
      `option ${flagOf('liveTopics')}: ${JSON.stringify(bad)} is not one of ${LIVE_TOPICS.join(', ')} (the slots topic is always read)`,
    );
  const twice = config.liveTopics.find((t, i) => config.liveTopics.indexOf(t) !== i);
  if (twice !== undefined) throw new ConfigError(`option ${flagOf('liveTopics')}: ${twice} is named twice`);
}

/** Servers of one process cannot share a port (0 = any free port, always fine). */
function checkPorts(config: Config): void {
  if (config.role === 'kafka') return;
  const ports: [string, number][] = [['metricsPort', config.metricsPort]];
  if (hasApi(config.role)) ports.push(['grpcPort', config.grpcPort], ['rpcPort', config.rpcPort], ['pubsubPort', config.pubsubPort]);
  if (config.role === 'api' && config.viewsPort > 0) ports.push(['viewsPort', config.viewsPort]);
  const seen = new Map<number, string>();
  for (const [name, port] of ports) {
    if (port === 0) continue;
    const other = seen.get(port);
    if (other !== undefined) throw new ConfigError(`options ${flagOf(other)} and ${flagOf(name)} both use port ${port}`);
    seen.set(port, name);
  }
}

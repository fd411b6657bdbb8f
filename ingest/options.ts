// The ingest's section of the config: the source and what every source shares (votes, the name, --out, the lag
// limits), with each source's own section (ingest/sources/<name>/options.ts) composed in; the typed value is
// what ingest/run.ts takes.
import { choice, composeOptions, ConfigError, defineSection, flagOf, opt, type Role, type ValuesOf } from '../platform/options.js';
import type { LagOptions } from './sources/shared/lag.js';
import type { VoteSelection } from './sources/shared/votes.js';
import { RPC_SOURCE_OPTIONS, RPC_SOURCE_SECTION, type RpcSection } from './sources/rpc/options.js';
import { SIM_OPTIONS, SIM_SECTION, type SimOptions } from './sources/sim/options.js';
import { YELLOWSTONE_SOURCE_OPTIONS, YELLOWSTONE_SOURCE_SECTION, type YellowstoneSection } from './sources/yellowstone/options.js';

const INGEST: readonly Role[] = ['ingest', 'all'];

const SOURCE_OPTIONS = {
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
    help: "Vote transactions and vote-account writes: include, or exclude before publishing (yellowstone: the upstream's vote: false too). See docs/operations.md, 'Deployments without votes'.",
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
};

const PUBLISH_OPTIONS = {
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
};

/** In --help's order: the source, the simulator, the name and lag limits, the rpc source, the yellowstone source. */
export const INGEST_OPTIONS = composeOptions(SOURCE_OPTIONS, SIM_OPTIONS, PUBLISH_OPTIONS, RPC_SOURCE_OPTIONS, YELLOWSTONE_SOURCE_OPTIONS);

type IngestValues = ValuesOf<typeof INGEST_OPTIONS>;
export type Source = IngestValues['source'];

/** The topics an ingest publishes to (and its sources' dead letters go to). */
export interface IngestKafkaTarget {
  brokers: readonly string[];
  topicPrefix: string;
}

export interface IngestSection {
  source: Source;
  /** Votes published or dropped (ingest/sources/shared/votes.ts); ingest/run.ts hands it to the simulator and maps it onto Yellowstone's filter. */
  votes: VoteSelection;
  /** The topics the ingest publishes to (and its sources' dead letters go to), when it publishes to Kafka. */
  kafka: IngestKafkaTarget;
  /** Part of the Kafka transactional id (ingest/publish/name-claim.ts). */
  name: string;
  /** Fixture mode: the source's events go to this file (- for stdout) instead of Kafka; '' for Kafka. */
  out: string;
  /** When /health says behind (yellowstone and rpc sources). */
  lag: LagOptions;
  sim: Omit<SimOptions, 'votes'>;
  file: { path: string; strict: boolean };
  rpc: RpcSection;
  yellowstone: YellowstoneSection;
}

/** Sources the ingest can run today; the others are accepted names that fail here, not after a broker start. */
export const IMPLEMENTED_SOURCES: readonly string[] = ['sim', 'file', 'rpc', 'yellowstone', 'none'];

/** Besides its own: the role and the Kafka section's brokers and topic prefix (platform/kafka/options.ts). */
type IngestConfig = IngestValues & { role: Role; kafkaBrokers: readonly string[]; topicPrefix: string };

function checkIngest(config: IngestConfig): void {
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
  RPC_SOURCE_SECTION.check(config);
  YELLOWSTONE_SOURCE_SECTION.check(config);
  checkUpstreamOptions(config);
  if (config.out !== '' && config.role !== 'ingest') {
    throw new ConfigError(`option ${flagOf('out')} writes events to a file instead of Kafka: use it with the ingest role`);
  }
  if (config.out !== '' && config.out !== '-' && config.out === config.sourcePath) {
    throw new ConfigError(`options ${flagOf('out')} and ${flagOf('sourcePath')} name the same file (${config.out})`);
  }
}

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
function checkUpstreamOptions(config: IngestConfig): void {
  if (config.source === 'rpc' || config.source === 'yellowstone') return;
  for (const name of ['ingestStallMs', 'ingestMaxLagSlots'] as const) {
    if (config[name] !== PUBLISH_OPTIONS[name].default)
      throw new ConfigError(`option ${flagOf(name)} applies only to --source rpc and yellowstone (source is ${config.source})`);
  }
}

export const INGEST_SECTION = defineSection(
  INGEST_OPTIONS,
  (c: IngestConfig): IngestSection => ({
    source: c.source,
    votes: c.votes,
    kafka: { brokers: c.kafkaBrokers, topicPrefix: c.topicPrefix },
    name: c.ingestName,
    out: c.out,
    lag: { stallMs: c.ingestStallMs, maxLagSlots: c.ingestMaxLagSlots },
    sim: SIM_SECTION.value(c),
    file: { path: c.sourcePath, strict: c.strict },
    rpc: RPC_SOURCE_SECTION.value(c),
    yellowstone: YELLOWSTONE_SOURCE_SECTION.value(c),
  }),
  checkIngest,
);

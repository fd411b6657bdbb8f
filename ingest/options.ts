// The ingest's section of the config: the source and what every source shares (votes, the name, --out, the lag
// limits), with each source's own section (ingest/sources/<name>/options.ts) composed in; the typed value is
// what ingest/run.ts takes.
import { choice, composeOptions, defineSection, opt, type Role, type ValuesOf } from '../platform/options.js';
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

/** Besides its own: the Kafka section's brokers and topic prefix (platform/kafka/options.ts). */
export const INGEST_SECTION = defineSection(INGEST_OPTIONS, (c: IngestValues & IngestKafkaTargetValues): IngestSection => ({
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
}));

type IngestKafkaTargetValues = { kafkaBrokers: readonly string[]; topicPrefix: string };

// The rpc source's section of the config: a Solana JSON-RPC node read block by block (--rpc-url is also where
// the other sources read epochs and leader schedules from).
import { ConfigError, defineSection, flagOf, opt, type Role, type ValuesOf } from '../../../platform/options.js';
import { decodeBase58Exact } from '../../../schemas/decode-input.js';
import type { RpcSourceOptions } from './source.js';

const INGEST: readonly Role[] = ['ingest', 'all'];

export const RPC_SOURCE_OPTIONS = {
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
};

export type RpcSection = Pick<
  RpcSourceOptions,
  'url' | 'fromSlot' | 'toSlot' | 'concurrency' | 'timeoutMs' | 'pollMs' | 'snapshotPrograms'
>;

/** -1 (the option's "none") as undefined, a slot otherwise. */
const slotOrNone = (n: number): bigint | undefined => (n >= 0 ? BigInt(n) : undefined);

/** Besides its own: the ingest's --source (its options mean nothing to other sources). */
type RpcConfig = ValuesOf<typeof RPC_SOURCE_OPTIONS> & { source: string };

/** 32 bytes in base58 (the one strict decoder of outside input). */
const isPubkey = (s: string): boolean => decodeBase58Exact(s, 32).ok;

/** --source rpc needs a node; its range options mean nothing to other sources. */
function checkRpcSource(config: RpcConfig): void {
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

export const RPC_SOURCE_SECTION = defineSection(
  RPC_SOURCE_OPTIONS,
  (c: RpcConfig): RpcSection => ({
    url: c.rpcUrl,
    fromSlot: slotOrNone(c.fromSlot),
    toSlot: slotOrNone(c.toSlot),
    concurrency: c.rpcConcurrency,
    timeoutMs: c.rpcTimeoutMs,
    pollMs: c.rpcPollMs,
    snapshotPrograms: c.rpcSnapshotPrograms,
  }),
  checkRpcSource,
);

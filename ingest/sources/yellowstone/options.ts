// The yellowstone source's options and its section of the config (index.ts builds the options from it).
import type { Logger } from '../../../platform/log.js';
import { choice, ConfigError, defineSection, flagOf, opt, type Role, type ValuesOf } from '../../../platform/options.js';
import type { SlotStatus } from '../../../schemas/codec.js';
import type { DeadLetterSink } from '../shared/dead-letter-sink.js';
import type { Filters } from './subscription.js';

/** One Yellowstone endpoint and its token. */
export interface Upstream {
  /** http://host:port (plaintext) or https://host[:port] (TLS). */
  url: string;
  xToken?: string;
}

export interface YellowstoneSourceOptions {
  /** One endpoint, or several merged (merged-loop.ts): each update goes out once, from the first to deliver it. */
  upstreams: readonly Upstream[];
  /** With several upstreams: one more than this many slots behind the fastest is dropped and resubscribed. */
  maxLagSlots?: number;
  filters: Filters;
  /** The upstream's JSON-RPC, for epochs and leaders; undefined: blocks without leader, no epoch records. */
  rpc?: { url: string; timeoutMs: number };
  log: Logger;
  /** First reconnect delay; doubles up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How many later slots must be whole before a slot still lacking its block, or part of what its block meta
   * announced, goes out without it (assembler.ts). */
  waitSlots?: number;
  /** `pieces`: the lowest slot under way goes out as its data arrives (assembler.ts); `slots`: each slot once whole. */
  publish?: 'slots' | 'pieces';
  /** A stream silent this long (Yellowstone pings every few seconds) is taken as dead and reopened. */
  idleMs?: number;
  /** Every slot the upstream announces (statuses, block meta), for the lag (ingest/sources/shared/lag.ts). */
  onUpstreamSlot?: (slot: bigint) => void;
  /** Where updates the conversion rejects go (the dead-letter topic); without, they are logged only. */
  deadLetters?: DeadLetterSink;
  /** The statuses Kafka holds for slots from `fromSlot` on (published-statuses.ts): on a restart the source
   * replays recent slots and publishes the confirmed/finalized statuses that arrived while it was down. */
  publishedStatuses?: (fromSlot: bigint) => Promise<ReadonlyMap<bigint, ReadonlySet<SlotStatus>>>;
}

const INGEST: readonly Role[] = ['ingest', 'all'];

export const YELLOWSTONE_SOURCE_OPTIONS = {
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
  yellowstoneWaitSlots: opt({
    kind: 'int',
    env: 'YELLOWSTONE_WAIT_SLOTS',
    default: 2,
    min: 1,
    max: 1000,
    roles: INGEST,
    help: 'yellowstone source: how many later slots must be whole before a slot that began but still lacks its block meta and processed status (a fork that has not finished, or never will) is given up, its records going out with the next slot, or a slot short of what its block meta announced goes out without the rest. More waits longer behind a slow fork and loses less from an upstream that delivers blocks out of slot order.',
  }),
  yellowstonePublish: choice({
    env: 'YELLOWSTONE_PUBLISH',
    default: 'slots',
    oneOf: ['slots', 'pieces'],
    roles: INGEST,
    help: "yellowstone source: slots publishes each slot once it is whole (block meta, processed status, everything announced); pieces publishes the lowest slot under way as it arrives (transactions in index order, account writes, entries), the rest with its end: streams see a transaction ~a slot's wait sooner. Transactions sent before their block meta carry no block time in Kafka (JSON-RPC answers the block's). See ingest/sources/yellowstone/README.md.",
  }),
};

/** `subscribe` is checked against the source's streams by the config rules and mapped onto them by index.ts. */
export type YellowstoneSection = Pick<YellowstoneSourceOptions, 'upstreams' | 'backoffMs' | 'waitSlots'> & {
  publish: 'slots' | 'pieces';
  maxLagSlots: number;
  subscribe: readonly string[];
  filters: Omit<Filters, 'streams'>;
  /** The JSON-RPC node that names leaders (--rpc-url), when one is given. */
  leaders: YellowstoneSourceOptions['rpc'];
};

/** Besides its own: the ingest's --source and --votes, and the rpc source's node (ingest/sources/rpc/options.ts), for leaders. */
type YellowstoneConfig = ValuesOf<typeof YELLOWSTONE_SOURCE_OPTIONS> & {
  source: string;
  votes: 'include' | 'exclude';
  rpcUrl: string;
  rpcTimeoutMs: number;
};

const YELLOWSTONE_STREAMS = ['transactions', 'accounts', 'entries'];

/** --source yellowstone needs an endpoint; its options given with another source would be ignored. */
function checkYellowstoneSource(config: YellowstoneConfig): void {
  if (config.source !== 'yellowstone') {
    for (const [name, spec] of Object.entries(YELLOWSTONE_SOURCE_OPTIONS)) {
      if (JSON.stringify(config[name as keyof typeof YELLOWSTONE_SOURCE_OPTIONS]) !== JSON.stringify(spec.default)) {
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
  if (urls.length === 1 && config.yellowstoneMaxLagSlots !== YELLOWSTONE_SOURCE_OPTIONS.yellowstoneMaxLagSlots.default) {
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

export const YELLOWSTONE_SOURCE_SECTION = defineSection(
  YELLOWSTONE_SOURCE_OPTIONS,
  (c: YellowstoneConfig): YellowstoneSection => ({
    // One token for all endpoints, or one per endpoint (the config rules check the count).
    upstreams: c.yellowstoneUrl.map((url, i) => {
      const token = c.xToken.length === 1 ? c.xToken[0]! : (c.xToken[i] ?? '');
      return token !== '' ? { url, xToken: token } : { url };
    }),
    maxLagSlots: c.yellowstoneMaxLagSlots,
    backoffMs: c.yellowstoneBackoffMs,
    waitSlots: c.yellowstoneWaitSlots,
    publish: c.yellowstonePublish,
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
  }),
  checkYellowstoneSource,
);

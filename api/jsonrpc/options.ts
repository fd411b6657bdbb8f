// JSON-RPC's section of the config: its request limits, answers it is configured with and the head cache, and
// the admission of the views' queries it shares with PubSub's look-ups; the port and address are the api's.
import { defineSection, opt, type Role, type ValuesOf } from '../../platform/options.js';
import type { AdmissionOptions } from '../views/admission.js';
import type { JsonRpcOptions } from './server.js';

const API: readonly Role[] = ['api', 'all'];

export const JSONRPC_OPTIONS = {
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
  rpcHeadCacheAccounts: opt({
    kind: 'bool',
    env: 'RPC_HEAD_CACHE_ACCOUNTS',
    default: true,
    roles: API,
    help: 'JSON-RPC head cache: also hold the account writes of its slots, so getAccountInfo, getBalance and getMultipleAccounts of an account written in them answer without ClickHouse (the JSON-RPC process then reads the accounts topic too, when the streams run in processes of their own). false: account reads always ask the views.',
  }),
};

export type JsonRpcSection = Pick<
  JsonRpcOptions,
  'host' | 'port' | 'database' | 'maxBodyBytes' | 'maxBatch' | 'maxSlotLag' | 'maxProgramAccounts' | 'identity' | 'genesisHash'
> & {
  /** Slots the head cache holds (api/head/); 0: no cache. */
  headCacheSlots: number;
  /** The head cache holds account writes too. */
  headCacheAccounts: boolean;
};

/** Besides its own: the api's address and JSON-RPC port (api/options.ts), the views' database (platform/clickhouse-options.ts). */
type JsonRpcConfig = ValuesOf<typeof JSONRPC_OPTIONS> & { host: string; rpcPort: number; clickhouseDatabase: string };

export const JSONRPC_SECTION = defineSection(
  JSONRPC_OPTIONS,
  (c: JsonRpcConfig): { jsonrpc: JsonRpcSection; admission: AdmissionOptions } => ({
    jsonrpc: {
      host: c.host,
      port: c.rpcPort,
      database: c.clickhouseDatabase,
      maxBodyBytes: c.rpcMaxBodyBytes,
      maxBatch: c.rpcMaxBatch,
      maxSlotLag: c.maxSlotLag,
      maxProgramAccounts: c.rpcMaxProgramAccounts,
      identity: c.rpcIdentity || undefined,
      genesisHash: c.rpcGenesisHash || undefined,
      headCacheSlots: c.rpcHeadCacheSlots,
      headCacheAccounts: c.rpcHeadCacheAccounts,
    },
    admission: { maxRunning: c.rpcMaxRunningQueries, maxPerClient: c.rpcMaxQueriesPerClient },
  }),
);

// Pure: the params of every PubSub method, with Agave's rules (rpc/src/rpc_pubsub.rs): a bad pubkey or
// signature is -32602 `Invalid Request: Invalid <thing> provided`, `mentions` takes exactly one address,
// config structs ignore unknown members, commitment defaults to finalized, accountSubscribe and
// programSubscribe default to the legacy `binary` encoding. Parameter shapes the client got wrong (a
// number for a pubkey, an unknown logs filter) are the project's `Invalid params` with `data` naming the
// parameter, as the JSON-RPC endpoint answers them. Every function throws RpcError; none does I/O.
import { decodeBase58Exact } from '../../schemas/decode-input.js';
import { Commitment } from '../filters/index.js';
import type { PubSubProgramFilter, PubSubRequest } from '../filters/from-pubsub.js';
import { parseDataSlice, parseEncoding, type AccountEncoding, type DataSlice } from '../solana-json/accounts.js';
import { invalidParam, invalidParams } from '../solana-json/errors.js';
import {
  optionalBool,
  parseCommitment,
  parseConfig,
  parseNoParams,
  parseU64,
  positional,
  type ParamsConfig,
} from '../solana-json/params.js';
import { parseProgramAccountsConfig } from '../solana-json/program-accounts-config.js';
import type { BlockOptions } from '../solana-json/block.js';
import { parseBlockSubscribe, parseTransactionSubscribe } from './stream-params.js';

/** How account data is written in account and program notifications. */
export interface AccountView {
  readonly encoding: AccountEncoding;
  readonly dataSlice: DataSlice | undefined;
}

export type SubscriptionKind =
  'account' | 'program' | 'logs' | 'signature' | 'slot' | 'root' | 'slotsUpdates' | 'block' | 'vote' | 'transaction';

export interface ParsedSubscribe {
  readonly request: PubSubRequest;
  /** Account and program subscriptions. */
  readonly view?: AccountView;
  /** Account and program subscriptions: slotstream's non-standard `snapshot` member (issue 23), state first. */
  readonly snapshot?: boolean;
  /** Block and transaction subscriptions: how transactions are written. */
  readonly options?: BlockOptions;
  /**
   * Members that change nothing here but are part of the subscription's params in Agave (programSubscribe's
   * `withContext`, signatureSubscribe's `enableReceivedNotification`), so two subscriptions that differ in them are
   * not the same subscription (subscription-key.ts).
   */
  readonly inert?: Readonly<Record<string, boolean>>;
}

/** The config member asking for the current state first (other servers ignore unknown members). */
export const SNAPSHOT_MEMBER = 'snapshot';

/** Subscribe method -> what it subscribes to. */
export const SUBSCRIBE_METHODS: ReadonlyMap<string, SubscriptionKind> = new Map([
  ['accountSubscribe', 'account'],
  ['programSubscribe', 'program'],
  ['logsSubscribe', 'logs'],
  ['signatureSubscribe', 'signature'],
  ['slotSubscribe', 'slot'],
  ['rootSubscribe', 'root'],
  ['slotsUpdatesSubscribe', 'slotsUpdates'],
  ['blockSubscribe', 'block'],
  ['voteSubscribe', 'vote'],
  // Helius's enhanced WebSocket method.
  ['transactionSubscribe', 'transaction'],
]);

/** Agave removes a subscription by id whichever `…Unsubscribe` names it; these are the ones it has. */
export const UNSUBSCRIBE_METHODS: ReadonlySet<string> = new Set([
  'accountUnsubscribe',
  'programUnsubscribe',
  'logsUnsubscribe',
  'signatureUnsubscribe',
  'slotUnsubscribe',
  'rootUnsubscribe',
  'slotsUpdatesUnsubscribe',
  'blockUnsubscribe',
  'voteUnsubscribe',
  'transactionUnsubscribe',
]);

const commitmentOf = (config: ParamsConfig): Commitment => parseCommitment(config);

/** Agave's `param::<T>()`: a string that does not parse as the type. */
function keyParam(v: unknown, size: 32 | 64, thing: string, name: string): Uint8Array {
  if (typeof v !== 'string') throw invalidParams(`${name}: expected a base-58 ${size === 32 ? 'public key' : 'signature'} string`);
  const d = decodeBase58Exact(v, size);
  if (!d.ok) throw invalidParam(`Invalid Request: Invalid ${thing} provided`);
  return d.bytes;
}

const noParams = {
  slot: parseNoParams('slotSubscribe'),
  root: parseNoParams('rootSubscribe'),
  slotsUpdates: parseNoParams('slotsUpdatesSubscribe'),
  vote: parseNoParams('voteSubscribe'),
};

export function parseSubscribe(kind: SubscriptionKind, params: unknown): ParsedSubscribe {
  switch (kind) {
    case 'account':
      return parseAccountSubscribe(params);
    case 'program':
      return parseProgramSubscribe(params);
    case 'logs':
      return parseLogsSubscribe(params);
    case 'signature':
      return parseSignatureSubscribe(params);
    case 'slot':
    case 'root':
    case 'slotsUpdates':
    case 'vote':
      noParams[kind](params);
      return { request: { kind } };
    case 'block':
      return parseBlockSubscribe(params);
    case 'transaction':
      return parseTransactionSubscribe(params);
  }
}

function parseAccountSubscribe(params: unknown): ParsedSubscribe {
  const p = positional(params, 1, 2);
  const pubkey = keyParam(p[0], 32, 'pubkey', 'pubkey');
  const config = parseConfig(p[1], 'config');
  return {
    request: { kind: 'account', pubkey, commitment: commitmentOf(config) },
    view: { encoding: parseEncoding(config, 'binary'), dataSlice: parseDataSlice(config) },
    snapshot: optionalBool(config, SNAPSHOT_MEMBER) === true,
  };
}

function parseProgramSubscribe(params: unknown): ParsedSubscribe {
  const p = positional(params, 1, 2);
  const program = keyParam(p[0], 32, 'pubkey', 'pubkey');
  const config = parseConfig(p[1], 'config');
  // Agave's RpcProgramAccountsConfig, as getProgramAccounts reads it (filter rules: at most 4,
  // dataSize/memcmp, memcmp limits); the encoding is PubSub's own (legacy `binary` allowed and the default).
  const rest = parseProgramAccountsConfig(config);
  const filters: PubSubProgramFilter[] = rest.filters.map((f) =>
    f.kind === 'dataSize' ? { kind: 'dataSize', size: f.size } : { kind: 'memcmp', offset: f.offset, bytes: f.bytes },
  );
  return {
    request: { kind: 'program', program, filters, commitment: rest.commitment },
    view: { encoding: parseEncoding(config, 'binary'), dataSlice: rest.dataSlice },
    snapshot: optionalBool(config, SNAPSHOT_MEMBER) === true,
    inert: { withContext: rest.withContext },
  };
}

function parseLogsSubscribe(params: unknown): ParsedSubscribe {
  const p = positional(params, 1, 2);
  const config = parseConfig(p[1], 'config');
  const commitment = commitmentOf(config);
  if (p[0] === 'all' || p[0] === 'allWithVotes')
    return { request: { kind: 'logs', mentions: undefined, votes: p[0] === 'allWithVotes', commitment } };
  const f = p[0];
  if (typeof f !== 'object' || f === null || Array.isArray(f) || !Object.hasOwn(f, 'mentions')) {
    throw invalidParams('filter: expected "all", "allWithVotes" or {"mentions": [<address>]}');
  }
  const mentions = (f as ParamsConfig).mentions;
  if (!Array.isArray(mentions)) throw invalidParams('filter.mentions: expected an array holding one base-58 address');
  if (mentions.length !== 1) throw invalidParam('Invalid Request: Only 1 address supported');
  return {
    request: { kind: 'logs', mentions: keyParam(mentions[0], 32, 'mentions', 'filter.mentions[0]'), votes: true, commitment },
  };
}

function parseSignatureSubscribe(params: unknown): ParsedSubscribe {
  const p = positional(params, 1, 2);
  const signature = keyParam(p[0], 64, 'signature', 'signature');
  const config = parseConfig(p[1], 'config');
  // Accepted as Agave does; a read-only service never receives transactions, so it never fires.
  const received = optionalBool(config, 'enableReceivedNotification') ?? false;
  return {
    request: { kind: 'signature', signature, commitment: commitmentOf(config) },
    inert: { enableReceivedNotification: received },
  };
}

/** The subscription id of an `…Unsubscribe`. */
export function parseUnsubscribe(params: unknown): number {
  const p = positional(params, 1, 1);
  return Number(parseU64(p[0], 'subscription id'));
}

// getTransactionsForAddress's params (spec/provider-methods.md section 3), parsed. Pure. Every invalid member
// answers -32602 naming it. `filters` and its range objects are closed (Helius's schema has
// additionalProperties: false there): an unknown member is an error, not silently ignored, since ignoring a
// misspelt bound would widen the answer. Other config members follow the Agave rule (unknown ones ignored).
import { describeValue } from '../../platform/describe-value.js';
import { invalidParams } from '../solana-json/errors.js';
import {
  optionalString,
  parseConfig,
  parseContextConfig,
  parsePubkey,
  parseSignature,
  parseU64,
  parseUsize,
  positional,
  type ContextConfig,
  type ParamsConfig,
} from '../solana-json/params.js';
import { parseMaxSupportedVersion, parseTransactionEncoding, type TransactionEncoding } from '../solana-json/transactions.js';
import { parsePaginationToken, type BlockPosition, type Bounds } from './history-range.js';

/** Both modes: 1..1000, default 1000 (the newest Helius docs; spec decision). */
export const MAX_HISTORY_LIMIT = 1000;

export type TokenAccountsMode = 'none' | 'balanceChanged' | 'all';
export type StatusFilter = 'any' | 'succeeded' | 'failed';

export interface SignatureFilter {
  gte?: string;
  gt?: string;
  lte?: string;
  lt?: string;
}

export interface GetTransactionsForAddressParams extends ContextConfig {
  address: string;
  details: 'signatures' | 'full';
  order: 'asc' | 'desc';
  limit: number;
  /** The previous page's last position. */
  after: BlockPosition | undefined;
  encoding: TransactionEncoding;
  maxSupportedVersion: number | undefined;
  slots: Bounds;
  /** Inclusive unix-second bounds on the block time; a transaction without one never matches a bound. */
  blockTime: Bounds;
  signatures: SignatureFilter;
  status: StatusFilter;
  tokenAccounts: TokenAccountsMode;
}

function oneOf<T extends string>(v: unknown, name: string, allowed: readonly T[], fallback: T): T {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw invalidParams(`${name}: expected one of ${allowed.join(', ')}, got ${describeValue(v)}`);
  }
  return v as T;
}

function closedObject(v: unknown, name: string, members: readonly string[]): ParamsConfig | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParams(`${name}: expected an object, got ${describeValue(v)}`);
  for (const k of Object.keys(v)) {
    if (!members.includes(k)) throw invalidParams(`${name}.${k}: unknown member; expected ${members.join(', ')}`);
  }
  return v as ParamsConfig;
}

const maxOf = (a: bigint | undefined, b: bigint): bigint => (a === undefined || b > a ? b : a);
const minOf = (a: bigint | undefined, b: bigint): bigint => (a === undefined || b < a ? b : a);

/** A numeric range filter (gte, gt, lte, lt, eq) as inclusive bounds; a contradiction leaves min > max. */
function parseRangeFilter(v: unknown, name: string, value: (v: unknown, name: string) => bigint): Bounds {
  const o = closedObject(v, name, ['gte', 'gt', 'lte', 'lt', 'eq']);
  const out: Bounds = { min: undefined, max: undefined };
  if (o === undefined) return out;
  const get = (k: string): bigint | undefined => (o[k] === undefined || o[k] === null ? undefined : value(o[k], `${name}.${k}`));
  const [gte, gt, lte, lt, eq] = ['gte', 'gt', 'lte', 'lt', 'eq'].map(get);
  if (gte !== undefined) out.min = maxOf(out.min, gte);
  if (gt !== undefined) out.min = maxOf(out.min, gt + 1n);
  if (eq !== undefined) {
    out.min = maxOf(out.min, eq);
    out.max = minOf(out.max, eq);
  }
  if (lte !== undefined) out.max = minOf(out.max, lte);
  if (lt !== undefined) out.max = minOf(out.max, lt - 1n);
  return out;
}

/** filters.slot: gte, gt, lte, lt, and eq (which the SDK's type offers; Helius's schema leaves it out). */
export const parseSlotFilter = (v: unknown): Bounds => parseRangeFilter(v, 'filters.slot', parseU64);

function parseUnixTime(v: unknown, name: string): bigint {
  if (typeof v !== 'number' || !Number.isSafeInteger(v))
    throw invalidParams(`${name}: expected a whole number of unix seconds, got ${describeValue(v)}`);
  return BigInt(v);
}

/** filters.blockTime: gte, gt, lte, lt, eq (unix seconds). */
export const parseBlockTimeFilter = (v: unknown): Bounds => parseRangeFilter(v, 'filters.blockTime', parseUnixTime);

export function parseSignatureFilter(v: unknown): SignatureFilter {
  const o = closedObject(v, 'filters.signature', ['gte', 'gt', 'lte', 'lt']);
  const out: SignatureFilter = {};
  if (o === undefined) return out;
  for (const k of ['gte', 'gt', 'lte', 'lt'] as const) {
    if (o[k] !== undefined && o[k] !== null) out[k] = parseSignature(o[k], `filters.signature.${k}`);
  }
  return out;
}

export function parseGetTransactionsForAddress(params: unknown): GetTransactionsForAddressParams {
  const p = positional(params, 1, 2);
  const address = parsePubkey(p[0], 'address');
  const config = parseConfig(p[1], 'config');
  if (config.transactionDetails === 'accounts') {
    throw invalidParams('transactionDetails: "accounts" is not offered by getTransactionsForAddress; expected signatures or full');
  }
  const details = oneOf(config.transactionDetails, 'transactionDetails', ['signatures', 'full'] as const, 'signatures');
  const order = oneOf(config.sortOrder, 'sortOrder', ['desc', 'asc'] as const, 'desc');
  let limit = MAX_HISTORY_LIMIT;
  if (config.limit !== undefined && config.limit !== null) {
    limit = parseUsize(config.limit, 'limit');
    if (limit < 1 || limit > MAX_HISTORY_LIMIT) {
      throw invalidParams(`limit: expected 1 to ${MAX_HISTORY_LIMIT}, got ${limit}`);
    }
  }
  const token = config.paginationToken;
  const filters = closedObject(config.filters, 'filters', ['slot', 'blockTime', 'signature', 'status', 'tokenAccounts']) ?? {};
  optionalString(config, 'encoding');
  return {
    address,
    details,
    order,
    limit,
    after: token === undefined || token === null ? undefined : parsePaginationToken(token, 'paginationToken'),
    // Validated in both modes; used with `full` only (signatures carry no transaction to encode).
    encoding: parseTransactionEncoding(config.encoding),
    maxSupportedVersion: parseMaxSupportedVersion(config.maxSupportedTransactionVersion),
    slots: parseSlotFilter(filters.slot),
    blockTime: parseBlockTimeFilter(filters.blockTime),
    signatures: parseSignatureFilter(filters.signature),
    status: oneOf(filters.status, 'filters.status', ['any', 'succeeded', 'failed'] as const, 'any'),
    tokenAccounts: oneOf(filters.tokenAccounts, 'filters.tokenAccounts', ['none', 'balanceChanged', 'all'] as const, 'none'),
    ...parseContextConfig(config, true),
  };
}

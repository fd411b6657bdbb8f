// The paging members the provider methods add to getProgramAccounts' and getTokenAccountsByOwner's config
// (getProgramAccountsV2, getTokenAccountsByOwnerV2; spec/provider-methods.md 1 and 1.2): `limit` 1..10,000
// (default 1,000), `paginationKey` (the base-58 pubkey a page ended at; absent or null = first page) and
// `changedSinceSlot` (inclusive; absent or 0 = no filter). Pure; throws RpcError -32602 naming the member.
import { decodeBase58Exact } from '../../schemas/decode-input.js';
import { describeValue } from '../../platform/describe-value.js';
import { invalidParams } from './errors.js';
import type { ParamsConfig } from './params.js';

export const MAX_PAGE_LIMIT = 10_000;
export const DEFAULT_PAGE_LIMIT = 1_000;

export interface PageConfig {
  limit: number;
  /** The pubkey bytes the previous page ended at: this page holds only pubkeys strictly greater. */
  after: Uint8Array | undefined;
  /** Only accounts whose newest write at or below the context slot is at or after this slot. */
  changedSinceSlot: bigint | undefined;
}

export function parsePageConfig(config: ParamsConfig): PageConfig {
  return {
    limit: parseLimit(config.limit),
    after: parsePaginationKey(config.paginationKey),
    changedSinceSlot: parseChangedSince(config.changedSinceSlot),
  };
}

function parseLimit(v: unknown): number {
  if (v === undefined || v === null) return DEFAULT_PAGE_LIMIT;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_PAGE_LIMIT) {
    throw invalidParams(`limit: expected a whole number from 1 to ${MAX_PAGE_LIMIT}, got ${describeValue(v)}`);
  }
  return v;
}

function parsePaginationKey(v: unknown): Uint8Array | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalidParams(`paginationKey: expected the base-58 string of a previous page, got ${describeValue(v)}`);
  const d = decodeBase58Exact(v, 32);
  if (!d.ok) throw invalidParams(`paginationKey: ${describeValue(v)} is not a key this service gave out: ${d.reason}`);
  return d.bytes;
}

function parseChangedSince(v: unknown): bigint | undefined {
  if (v === undefined || v === null || v === 0) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw invalidParams(`changedSinceSlot: expected a non-negative whole slot number, got ${describeValue(v)}`);
  }
  if (!Number.isSafeInteger(v)) throw invalidParams(`changedSinceSlot: ${v} is above 2^53-1, the largest exact JSON number accepted`);
  return BigInt(v);
}

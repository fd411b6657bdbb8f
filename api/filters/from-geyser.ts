// geyser.Geyser's adapter: Yellowstone's SubscribeRequest (from the published @triton-one/yellowstone-grpc
// package's codecs) -> SubscriptionSpec, validated with Yellowstone's rules and its error texts
// (rpcpool/yellowstone-grpc, yellowstone-grpc-proto/src/plugin/filter: filter.rs, limits.rs, name.rs), each
// prefixed with the field's path so a client can find it. Pure: never throws on any decoded request.
//
// Two things Yellowstone has that the transport-neutral model has not, kept here rather than in the model:
// - `transactions_status` is a second list of transaction filters answered with a different message: both
//   lists go into the model's one transaction list under tagged names (GEYSER_TX / GEYSER_TX_STATUS + the
//   client's name), and the geyser adapter splits the matched names back (`splitTransactionNames`);
// - accounts' `nonempty_txn_signature` is checked by the adapter on the matched names
//   (`GeyserRequest.nonemptyTxnSignature`), after the shared matcher applied everything else.
import type {
  SubscribeRequest,
  SubscribeRequestAccountsDataSlice,
  SubscribeRequestFilterAccounts,
  SubscribeRequestFilterAccountsFilter,
  SubscribeRequestFilterAccountsFilterMemcmp,
  SubscribeRequestFilterBlocks,
  SubscribeRequestFilterTransactions,
} from '@triton-one/yellowstone-grpc';
import { compileSubscription } from './compile.js';
import { CuckooFilterError, CuckooSet } from './cuckoo.js';
import type { TokenAccountsMode } from './token-owners.js';
import { commitmentOfLevelNumber } from '../../schemas/commitment.js';
import { decodeBase58, decodeBase58Exact, decodeBase64 } from '../../schemas/decode-input.js';
import {
  Commitment,
  EMPTY_SUBSCRIPTION,
  type AccountDataFilter,
  type AccountFilterSpec,
  type BlocksFilterSpec,
  type DataSliceSpec,
  type SubscriptionSpec,
  type TransactionFilterSpec,
} from './model.js';
import { Reject, asFilterError, quote } from './reject.js';
import { transactionFilterBase } from './transaction-filter-base.js';
import type { CompiledSubscription, FilterError } from './types.js';

/** Operator limits of geyser.Geyser (Yellowstone's FilterLimits, reduced to the ones we make configurable). */
export interface GeyserFilterLimits {
  /** Named filters per kind (accounts, slots, transactions, transactions_status, blocks, blocks_meta, entry). */
  readonly maxFiltersPerKind: number;
  /** Keys per list (account, owner, account_include, account_exclude, account_required). */
  readonly maxKeysPerFilter: number;
  /** Bytes of memcmp data after decoding (Yellowstone: 128). */
  readonly maxMemcmpBytes: number;
  /** UTF-8 bytes of a filter name (Yellowstone: 128). */
  readonly maxFilterNameBytes: number;
  /** Entries of accounts_data_slice. */
  readonly maxDataSlices: number;
  /** Bytes of one cuckoo filter's `data` (Yellowstone's cuckoo_max_size; 8 bytes per bucket of 4 keys). */
  readonly maxCuckooBytes: number;
}

export const DEFAULT_GEYSER_LIMITS: GeyserFilterLimits = Object.freeze({
  maxFiltersPerKind: 100,
  maxKeysPerFilter: 10_000,
  maxMemcmpBytes: 128,
  maxFilterNameBytes: 128,
  maxDataSlices: 16,
  // Within the gRPC host's 4 MiB request cap (behaviour.md): 2^18 buckets hold ~1M keys (2 MiB). A 10M-key
  // set (2^22 buckets, 32 MiB) needs --geyser-max-cuckoo-bytes 33554432, which raises the cap with it.
  maxCuckooBytes: 3 * 1024 * 1024,
});

/** Yellowstone's fixed caps on memcmp text (filter.rs) and on data filters per account filter. */
const MAX_ACCOUNT_DATA_FILTERS = 4;
const MAX_BASE58_CHARS = 175;
const MAX_BASE64_CHARS = 172;

/** Name tags of the model's transaction list: which Yellowstone list a filter came from. */
export const GEYSER_TX = 'T';
export const GEYSER_TX_STATUS = 'S';

export interface GeyserRequest {
  readonly compiled: CompiledSubscription;
  /** Account filter name -> the nonempty_txn_signature value it requires (only filters that set it). */
  readonly nonemptyTxnSignature: ReadonlyMap<string, boolean>;
  /** The request's ping id: answer with pong and change nothing (Yellowstone). */
  readonly ping: number | undefined;
}

export type GeyserCompileResult = { ok: true; value: GeyserRequest } | { ok: false; error: FilterError };

export function compileGeyserRequest(req: SubscribeRequest, limits: GeyserFilterLimits): GeyserCompileResult {
  try {
    const nonempty = new Map<string, boolean>();
    const spec: SubscriptionSpec = {
      ...EMPTY_SUBSCRIPTION,
      accounts: named('accounts', req.accounts, limits, (path, name, f) => accountFilter(path, name, f, limits, nonempty)),
      slots: named('slots', req.slots, limits, (_p, name, f) => ({
        name,
        filterByCommitment: f.filterByCommitment ?? false,
        interslotUpdates: f.interslotUpdates ?? false,
      })),
      transactions: [
        ...named('transactions', req.transactions, limits, (p, name, f) => transactionFilter(p, GEYSER_TX + name, f, limits)),
        ...named('transactions_status', req.transactionsStatus, limits, (p, name, f) =>
          transactionFilter(p, GEYSER_TX_STATUS + name, f, limits),
        ),
      ],
      blocks: named('blocks', req.blocks, limits, (p, name, f) => blocksFilter(p, name, f, limits)),
      blocksMeta: named('blocks_meta', req.blocksMeta, limits, (_p, name) => ({ name })),
      entry: named('entry', req.entry, limits, (_p, name) => ({ name })),
      commitment: commitmentOf(req.commitment),
      accountsDataSlice: dataSlices(req.accountsDataSlice ?? [], limits),
      fromSlot: req.fromSlot === undefined ? undefined : BigInt(req.fromSlot),
    };
    return { ok: true, value: { compiled: compileSubscription(spec), nonemptyTxnSignature: nonempty, ping: req.ping?.id } };
  } catch (err) {
    const error = asFilterError(err);
    if (error === undefined) throw err;
    return { ok: false, error };
  }
}

/** Matched transaction names (tagged, sorted) split into the two Yellowstone lists, tags removed. */
export function splitTransactionNames(names: readonly string[]): { transactions: string[]; status: string[] } {
  const transactions: string[] = [];
  const status: string[] = [];
  for (const n of names) (n.startsWith(GEYSER_TX) ? transactions : status).push(n.slice(1));
  return { transactions, status };
}

function named<F, S>(
  kind: string,
  filters: Record<string, F | undefined> | undefined,
  limits: GeyserFilterLimits,
  convert: (path: string, name: string, filter: F) => S,
): S[] {
  // Validated in name order, so the first error reported does not depend on the client's map order.
  const names = Object.keys(filters ?? {}).sort();
  if (names.length > limits.maxFiltersPerKind) {
    throw new Reject(kind, `Max amount of filters/data_slices reached, only ${limits.maxFiltersPerKind} allowed`);
  }
  return names.map((name) => {
    const path = `${kind}[${quote(name, 140)}]`;
    const size = Buffer.byteLength(name, 'utf8');
    if (size > limits.maxFilterNameBytes) {
      throw new Reject(path, `oversized filter name (max allowed size ${limits.maxFilterNameBytes}), found ${size}`);
    }
    // A map entry without a value is the default (empty) message, as on the wire.
    return convert(path, name, filters![name] ?? ({} as F));
  });
}

function keyList(path: string, list: readonly string[] | undefined, limits: GeyserFilterLimits): Uint8Array[] {
  if (!list) return [];
  if (list.length > limits.maxKeysPerFilter)
    throw new Reject(path, `Max amount of Pubkeys reached, only ${limits.maxKeysPerFilter} allowed`);
  return list.map((text, i) => {
    const d = decodeBase58Exact(text, 32);
    // Yellowstone's texts (solana_pubkey's ParsePubkeyError) with the value and our reason.
    if (!d.ok)
      throw new Reject(
        `${path}[${i}]`,
        `${d.kind === 'size' ? 'String is the wrong size' : 'Invalid Base58 string'} ${quote(text)}: ${d.reason}`,
      );
    return d.bytes;
  });
}

/** A CuckooFilter message (cuckoo_accounts_filter, cuckoo_account_include) as a matcher; absent: undefined. */
function cuckoo(
  path: string,
  m: Parameters<typeof CuckooSet.fromMessage>[0] | undefined,
  limits: GeyserFilterLimits,
): CuckooSet | undefined {
  if (m === undefined) return undefined;
  try {
    return CuckooSet.fromMessage(m, limits.maxCuckooBytes);
  } catch (err) {
    if (err instanceof CuckooFilterError) throw new Reject(`${path}.${err.field}`, err.message);
    throw err;
  }
}

/** Yellowstone's TokenAccountExpansionControlFlag: ALL (0), BALANCE_CHANGED (1); absent: no expansion. */
function tokenAccountsMode(path: string, v: number | undefined): TokenAccountsMode | undefined {
  if (v === undefined) return undefined;
  if (v === 0) return 'all';
  if (v === 1) return 'balanceChanged';
  throw new Reject(path, `invalid token_accounts mode value ${v}; expected ALL (0) or BALANCE_CHANGED (1)`);
}

function transactionFilter(
  path: string,
  name: string,
  f: SubscribeRequestFilterTransactions,
  limits: GeyserFilterLimits,
): TransactionFilterSpec {
  let signature: Uint8Array | undefined;
  if (f.signature !== undefined) {
    const d = decodeBase58Exact(f.signature, 64);
    if (!d.ok) {
      const what = d.kind === 'size' ? 'string decoded to wrong size for signature' : 'failed to decode string to signature';
      throw new Reject(`${path}.signature`, `${what} ${quote(f.signature)}: ${d.reason}`);
    }
    signature = d.bytes;
  }
  return {
    ...transactionFilterBase(path, name, f, (at, list) => keyList(at, list, limits)),
    signature,
    accountIncludeCuckoo: cuckoo(`${path}.cuckoo_account_include`, f.cuckooAccountInclude, limits),
    tokenAccounts: tokenAccountsMode(`${path}.token_accounts`, f.tokenAccounts),
  };
}

function accountFilter(
  path: string,
  name: string,
  f: SubscribeRequestFilterAccounts,
  limits: GeyserFilterLimits,
  nonempty: Map<string, boolean>,
): AccountFilterSpec {
  const account = keyList(`${path}.account`, f.account, limits);
  const accountCuckoo = cuckoo(`${path}.cuckoo_accounts_filter`, f.cuckooAccountsFilter, limits);
  const owner = keyList(`${path}.owner`, f.owner, limits);
  const entries = f.filters ?? [];
  if (entries.length > MAX_ACCOUNT_DATA_FILTERS)
    throw new Reject(`${path}.filters`, `Too many filters provided; max ${MAX_ACCOUNT_DATA_FILTERS}`);
  let datasize = false;
  const filters = entries.map((e: SubscribeRequestFilterAccountsFilter | undefined, i): AccountDataFilter => {
    const at = `${path}.filters[${i}]`;
    if (e?.memcmp !== undefined) return memcmp(`${at}.memcmp`, e.memcmp, limits);
    if (e?.datasize !== undefined) {
      if (datasize) throw new Reject(`${at}.datasize`, 'datasize used more than once');
      datasize = true;
      return { kind: 'datasize', size: BigInt(e.datasize) };
    }
    if (e?.tokenAccountState !== undefined) {
      if (!e.tokenAccountState) throw new Reject(`${at}.token_account_state`, 'token_account_state only allowed to be true');
      return { kind: 'tokenAccountState' };
    }
    if (e?.lamports !== undefined) {
      const l = e.lamports;
      if (l.eq !== undefined) return { kind: 'lamports', op: 'eq', value: BigInt(l.eq) };
      if (l.ne !== undefined) return { kind: 'lamports', op: 'ne', value: BigInt(l.ne) };
      if (l.lt !== undefined) return { kind: 'lamports', op: 'lt', value: BigInt(l.lt) };
      if (l.gt !== undefined) return { kind: 'lamports', op: 'gt', value: BigInt(l.gt) };
      throw new Reject(`${at}.lamports`, 'cmp for lamports should be defined');
    }
    throw new Reject(at, 'filter should be defined');
  });
  if (f.nonemptyTxnSignature !== undefined) nonempty.set(name, f.nonemptyTxnSignature);
  return { name, account, accountCuckoo, owner, filters };
}

function memcmp(path: string, m: SubscribeRequestFilterAccountsFilterMemcmp, limits: GeyserFilterLimits): AccountDataFilter {
  let bytes: Uint8Array;
  if (m.bytes !== undefined)
    bytes = Uint8Array.from(m.bytes); // a copy: the filter outlives the request
  else if (m.base58 !== undefined) {
    if (m.base58.length > MAX_BASE58_CHARS) throw new Reject(`${path}.base58`, 'data too large');
    const d = decodeBase58(m.base58);
    if (!d.ok) throw new Reject(`${path}.base58`, `invalid base58 ${quote(m.base58)}`);
    bytes = d.bytes;
  } else if (m.base64 !== undefined) {
    if (m.base64.length > MAX_BASE64_CHARS) throw new Reject(`${path}.base64`, 'data too large');
    const d = decodeBase64(m.base64);
    if (!d.ok) throw new Reject(`${path}.base64`, `invalid base64 ${quote(m.base64)}: ${d.reason}`);
    bytes = d.bytes;
  } else throw new Reject(path, 'data for memcmp should be defined');
  if (bytes.length > limits.maxMemcmpBytes)
    throw new Reject(path, `data too large (${bytes.length} bytes, at most ${limits.maxMemcmpBytes})`);
  return { kind: 'memcmp', offset: BigInt(m.offset || '0'), bytes };
}

function blocksFilter(path: string, name: string, f: SubscribeRequestFilterBlocks, limits: GeyserFilterLimits): BlocksFilterSpec {
  // Yellowstone's defaults: transactions unless switched off; accounts and entries only when asked for.
  return {
    name,
    accountInclude: keyList(`${path}.account_include`, f.accountInclude, limits),
    accountIncludeCuckoo: cuckoo(`${path}.cuckoo_account_include`, f.cuckooAccountInclude, limits),
    includeTransactions: f.includeTransactions ?? true,
    includeAccounts: f.includeAccounts ?? false,
    includeEntries: f.includeEntries ?? false,
  };
}

/** Yellowstone's CommitmentLevel number (unset: processed) to the level's name: the proto edge. */
function commitmentOf(level: number | undefined): Commitment {
  if (level === undefined) return Commitment.processed;
  const c = commitmentOfLevelNumber(level);
  if (c === undefined) throw new Reject('commitment', `failed to create CommitmentLevel from ${level}`);
  return c;
}

/** Yellowstone's rules: at most the limit, in offset order, not overlapping (adjacent is fine). */
function dataSlices(slices: readonly SubscribeRequestAccountsDataSlice[], limits: GeyserFilterLimits): DataSliceSpec[] {
  if (slices.length > limits.maxDataSlices) {
    throw new Reject('accounts_data_slice', `Max amount of filters/data_slices reached, only ${limits.maxDataSlices} allowed`);
  }
  const out = slices.map((s) => ({ offset: BigInt(s?.offset || '0'), length: BigInt(s?.length || '0') }));
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1]!;
    const cur = out[i]!;
    if (prev.offset > cur.offset) throw new Reject(`accounts_data_slice[${i}]`, 'data slices out of order');
    if (prev.offset + prev.length > cur.offset) throw new Reject(`accounts_data_slice[${i}]`, 'data slices overlapped');
  }
  return out;
}

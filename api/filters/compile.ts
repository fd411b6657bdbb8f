// SubscribeRequest -> CompiledSubscription: validates every field against behaviour.md and decodes keys once,
// so matching never parses strings. Pure: no I/O, never throws on any request shape the proto decoder produces.
import {
  CommitmentLevel,
  type SubscribeRequest,
  type SubscribeRequestAccountsDataSlice,
  type SubscribeRequestFilterAccounts,
  type SubscribeRequestFilterAccountsFilter,
  type SubscribeRequestFilterAccountsFilterMemcmp,
  type SubscribeRequestFilterTransactions,
} from '../../proto/gen/stream.js';
import { decodeBase58, decodeBase58Exact, decodeBase64 } from './decode-input.js';
import { keyId } from './key-id.js';
import {
  MAX_DATA_SLICES,
  MAX_FILTER_ENTRIES,
  MAX_FILTER_NAME_BYTES,
  MAX_MEMCMP_BASE58_CHARS,
  MAX_MEMCMP_BASE64_CHARS,
  MAX_MEMCMP_BYTES,
  type CompiledAccountFilter,
  type CompiledLamports,
  type CompiledMemcmp,
  type CompiledSubscription,
  type CompiledTransactionFilter,
  type DataSlice,
  type FilterError,
  type FilterLimits,
} from './types.js';

export type CompileResult = { ok: true; value: CompiledSubscription } | { ok: false; error: FilterError };

/** Thrown inside this module only; compileSubscribeRequest turns it into a FilterError. */
class Reject extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const toSafeNumber = (v: bigint): number => (v > MAX_SAFE ? Infinity : Number(v));

/** Client text quoted for an error message, cut so a huge value cannot blow up the status message. */
function quote(text: string, max = 64): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

export function compileSubscribeRequest(req: SubscribeRequest, limits: FilterLimits): CompileResult {
  try {
    const value: CompiledSubscription = Object.freeze({
      transactions: compileNamed('transactions', req.transactions ?? {}, limits, compileTransactionFilter),
      accounts: compileNamed('accounts', req.accounts ?? {}, limits, compileAccountFilter),
      commitment: compileCommitment(req.commitment),
      accountsDataSlice: compileDataSlices(req.accountsDataSlice ?? []),
      fromSlot: req.fromSlot,
    });
    return { ok: true, value };
  } catch (err) {
    if (err instanceof Reject) {
      return { ok: false, error: Object.freeze({ code: 'INVALID_FILTER', path: err.path, message: err.message }) };
    }
    throw err;
  }
}

function compileNamed<F, C>(
  kind: 'transactions' | 'accounts',
  filters: Record<string, F>,
  limits: FilterLimits,
  compileOne: (path: string, name: string, filter: F, limits: FilterLimits) => C,
): readonly C[] {
  // Sorted so that errors are deterministic and matches come out in name order without sorting per event.
  const names = Object.keys(filters).sort();
  if (names.length > limits.maxFiltersPerKind) {
    throw new Reject(kind, `${names.length} filters, at most ${limits.maxFiltersPerKind} allowed`);
  }
  const compiled: C[] = [];
  for (const name of names) {
    const path = `${kind}[${quote(name, 140)}]`;
    const bytes = Buffer.byteLength(name, 'utf8');
    if (bytes > MAX_FILTER_NAME_BYTES) {
      throw new Reject(path, `filter name is ${bytes} bytes, at most ${MAX_FILTER_NAME_BYTES} allowed`);
    }
    // A map entry without a value is the default (empty) message, as on the wire.
    compiled.push(compileOne(path, name, filters[name] ?? ({} as F), limits));
  }
  return Object.freeze(compiled);
}

function compileKeyList(
  path: string,
  list: readonly string[] | undefined,
  limits: FilterLimits,
): ReadonlySet<string> {
  const keys = new Set<string>();
  if (!list) return keys;
  if (list.length > limits.maxKeysPerList) {
    throw new Reject(path, `${list.length} keys, at most ${limits.maxKeysPerList} allowed`);
  }
  list.forEach((text, i) => {
    const decoded = decodeBase58Exact(text, 32);
    if (!decoded.ok) throw new Reject(`${path}[${i}]`, `invalid pubkey ${quote(text)}: ${decoded.reason}`);
    keys.add(keyId(decoded.bytes)); // duplicates collapse: a set, as in Yellowstone
  });
  return keys;
}

function compileTransactionFilter(
  path: string,
  name: string,
  f: SubscribeRequestFilterTransactions,
  limits: FilterLimits,
): CompiledTransactionFilter {
  let signature: string | undefined;
  if (f.signature !== undefined) {
    const decoded = decodeBase58Exact(f.signature, 64);
    if (!decoded.ok) {
      throw new Reject(`${path}.signature`, `invalid signature ${quote(f.signature)}: ${decoded.reason}`);
    }
    signature = keyId(decoded.bytes);
  }
  return Object.freeze({
    name,
    accountInclude: compileKeyList(`${path}.account_include`, f.accountInclude, limits),
    accountExclude: compileKeyList(`${path}.account_exclude`, f.accountExclude, limits),
    accountRequired: compileKeyList(`${path}.account_required`, f.accountRequired, limits),
    vote: f.vote,
    failed: f.failed,
    signature,
  });
}

function compileAccountFilter(
  path: string,
  name: string,
  f: SubscribeRequestFilterAccounts,
  limits: FilterLimits,
): CompiledAccountFilter {
  const account = compileKeyList(`${path}.account`, f.account, limits);
  const owner = compileKeyList(`${path}.owner`, f.owner, limits);
  const entries = f.filters ?? [];
  if (entries.length > MAX_FILTER_ENTRIES) {
    throw new Reject(`${path}.filters`, `${entries.length} entries, at most ${MAX_FILTER_ENTRIES} allowed`);
  }
  const memcmp: CompiledMemcmp[] = [];
  const lamports: CompiledLamports[] = [];
  let datasize: number | undefined;
  entries.forEach((entry: SubscribeRequestFilterAccountsFilter, i) => {
    const at = `${path}.filters[${i}]`;
    const filter = entry?.filter;
    switch (filter?.$case) {
      case 'memcmp':
        memcmp.push(compileMemcmp(`${at}.memcmp`, filter.value));
        break;
      case 'datasize':
        if (datasize !== undefined) throw new Reject(`${at}.datasize`, 'at most one datasize per filter');
        datasize = toSafeNumber(filter.value);
        break;
      case 'lamports': {
        const cmp = filter.value?.cmp;
        if (!cmp) throw new Reject(`${at}.lamports`, 'no comparison set (one of eq, ne, lt, gt)');
        lamports.push(Object.freeze({ op: cmp.$case, value: cmp.value }));
        break;
      }
      default:
        throw new Reject(at, 'no filter set (one of memcmp, datasize, lamports)');
    }
  });
  return Object.freeze({
    name,
    account,
    owner,
    memcmp: Object.freeze(memcmp),
    datasize,
    lamports: Object.freeze(lamports),
  });
}

function compileMemcmp(path: string, m: SubscribeRequestFilterAccountsFilterMemcmp): CompiledMemcmp {
  const data = m?.data;
  let bytes: Uint8Array;
  switch (data?.$case) {
    case 'bytes':
      bytes = Uint8Array.from(data.value);
      break;
    case 'base58': {
      if (data.value.length > MAX_MEMCMP_BASE58_CHARS) {
        throw new Reject(`${path}.base58`, `${data.value.length} characters, at most ${MAX_MEMCMP_BASE58_CHARS} allowed`);
      }
      const decoded = decodeBase58(data.value);
      if (!decoded.ok) throw new Reject(`${path}.base58`, `invalid base58 ${quote(data.value)}: ${decoded.reason}`);
      bytes = decoded.bytes;
      break;
    }
    case 'base64': {
      if (data.value.length > MAX_MEMCMP_BASE64_CHARS) {
        throw new Reject(`${path}.base64`, `${data.value.length} characters, at most ${MAX_MEMCMP_BASE64_CHARS} allowed`);
      }
      const decoded = decodeBase64(data.value);
      if (!decoded.ok) throw new Reject(`${path}.base64`, `invalid base64 ${quote(data.value)}: ${decoded.reason}`);
      bytes = decoded.bytes;
      break;
    }
    default:
      throw new Reject(path, 'no data set (one of bytes, base58, base64)');
  }
  if (bytes.length > MAX_MEMCMP_BYTES) {
    throw new Reject(`${path}.${data.$case}`, `${bytes.length} bytes, at most ${MAX_MEMCMP_BYTES} allowed`);
  }
  return Object.freeze({ offset: toSafeNumber(m.offset ?? 0n), bytes });
}

function compileCommitment(level: CommitmentLevel | undefined): CommitmentLevel {
  if (level === undefined) return CommitmentLevel.PROCESSED;
  if (level === CommitmentLevel.PROCESSED || level === CommitmentLevel.CONFIRMED || level === CommitmentLevel.FINALIZED) {
    return level;
  }
  throw new Reject('commitment', `unknown commitment level ${String(level)} (PROCESSED = 0, CONFIRMED = 1, FINALIZED = 2)`);
}

/** Sorted by offset (clients may send any order); overlapping slices are rejected; adjacent ones are fine. */
function compileDataSlices(slices: readonly SubscribeRequestAccountsDataSlice[]): readonly DataSlice[] {
  if (slices.length > MAX_DATA_SLICES) {
    throw new Reject('accounts_data_slice', `${slices.length} slices, at most ${MAX_DATA_SLICES} allowed`);
  }
  const sorted = slices
    .map((s, i) => ({ offset: s?.offset ?? 0n, length: s?.length ?? 0n, i }))
    .sort((a, b) => (a.offset < b.offset ? -1 : a.offset > b.offset ? 1 : a.i - b.i));
  for (let k = 1; k < sorted.length; k++) {
    const prev = sorted[k - 1]!;
    const cur = sorted[k]!;
    if (prev.offset + prev.length > cur.offset) {
      throw new Reject(
        'accounts_data_slice',
        `slices [${prev.i}] (offset ${prev.offset}, length ${prev.length}) and [${cur.i}] (offset ${cur.offset}, length ${cur.length}) overlap`,
      );
    }
  }
  return Object.freeze(sorted.map((s) => Object.freeze({ offset: toSafeNumber(s.offset), length: toSafeNumber(s.length) })));
}

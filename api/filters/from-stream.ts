// stream.Stream's adapter: SubscribeRequest (stream.proto) -> SubscriptionSpec, validated with stream.Stream's
// rules and limits (behaviour.md "Subscribe: transaction/account filters", "stream lifecycle"; decisions in
// ./README.md). stream.Stream has transactions, accounts, commitment, data slices and from_slot; the other kinds
// of the model stay empty. Pure: never throws on any request shape the proto decoder produces.
import {
  CommitmentLevel,
  type SubscribeRequest,
  type SubscribeRequestAccountsDataSlice,
  type SubscribeRequestFilterAccounts,
  type SubscribeRequestFilterAccountsFilter,
  type SubscribeRequestFilterAccountsFilterMemcmp,
  type SubscribeRequestFilterTransactions,
  type SubscribeRequestFilterTransactionsInstruction,
} from '../../proto/gen/stream.js';
import { compileSubscription } from './compile.js';
import { decodeBase58, decodeBase58Exact, decodeBase64 } from '../../schemas/decode-input.js';
import {
  Commitment,
  EMPTY_SUBSCRIPTION,
  type AccountDataFilter,
  type AccountFilterSpec,
  type DataSliceSpec,
  type InstructionConditionSpec,
  type SubscriptionSpec,
  type TransactionFilterSpec,
} from './model.js';
import { Reject, asFilterError, quote } from './reject.js';
import { transactionFilterBase } from './transaction-filter-base.js';
import {
  DEFAULT_MAX_INSTRUCTION_CONDITIONS,
  MAX_DATA_SLICES,
  MAX_FILTER_ENTRIES,
  MAX_FILTER_NAME_BYTES,
  MAX_INSTRUCTION_DISCRIMINATOR_BYTES,
  MAX_INSTRUCTION_MEMCMP_OFFSET,
  MAX_MEMCMP_BASE58_CHARS,
  MAX_MEMCMP_BASE64_CHARS,
  MAX_MEMCMP_BYTES,
  type CompiledSubscription,
  type FilterError,
  type FilterLimits,
} from './types.js';

export type SpecResult = { ok: true; value: SubscriptionSpec } | { ok: false; error: FilterError };
export type CompileResult = { ok: true; value: CompiledSubscription } | { ok: false; error: FilterError };

/** The stream.Stream entry point: validate and convert, then compile for the matcher and the index. */
export function compileSubscribeRequest(req: SubscribeRequest, limits: FilterLimits): CompileResult {
  const spec = specFromStreamRequest(req, limits);
  return spec.ok ? { ok: true, value: compileSubscription(spec.value) } : spec;
}

export function specFromStreamRequest(req: SubscribeRequest, limits: FilterLimits): SpecResult {
  try {
    const value: SubscriptionSpec = {
      ...EMPTY_SUBSCRIPTION,
      transactions: named('transactions', req.transactions ?? NO_FILTERS, limits, transactionFilter),
      accounts: named('accounts', req.accounts ?? NO_FILTERS, limits, accountFilter),
      commitment: commitmentOf(req.commitment),
      accountsDataSlice: dataSlices(req.accountsDataSlice ?? []),
      fromSlot: req.fromSlot,
    };
    return { ok: true, value };
  } catch (err) {
    const error = asFilterError(err);
    if (error === undefined) throw err;
    return { ok: false, error };
  }
}

const NO_FILTERS: ReadonlyMap<string, never> = new Map<string, never>();

/** The map fields decode into Maps (proto/buf.gen.yaml `useMapType`), so any name is a key, `__proto__` too. */
function named<F, S>(
  kind: 'transactions' | 'accounts',
  filters: ReadonlyMap<string, F>,
  limits: FilterLimits,
  convert: (path: string, name: string, filter: F, limits: FilterLimits) => S,
): S[] {
  // Validated in name order, so the first error reported is the same whatever order the client's map had.
  const names = [...filters.keys()].sort();
  if (names.length > limits.maxFiltersPerKind) {
    throw new Reject(kind, `${names.length} filters, at most ${limits.maxFiltersPerKind} allowed`);
  }
  return names.map((name) => {
    const path = `${kind}[${quote(name, 140)}]`;
    const bytes = Buffer.byteLength(name, 'utf8');
    if (bytes > MAX_FILTER_NAME_BYTES) {
      throw new Reject(path, `filter name is ${bytes} bytes, at most ${MAX_FILTER_NAME_BYTES} allowed`);
    }
    // A map entry without a value is the default (empty) message, as on the wire.
    return convert(path, name, filters.get(name) ?? ({} as F), limits);
  });
}

function keyList(path: string, list: readonly string[] | undefined, limits: FilterLimits): Uint8Array[] {
  if (!list) return [];
  if (list.length > limits.maxKeysPerList) {
    throw new Reject(path, `${list.length} keys, at most ${limits.maxKeysPerList} allowed`);
  }
  return list.map((text, i) => {
    const decoded = decodeBase58Exact(text, 32);
    if (!decoded.ok) throw new Reject(`${path}[${i}]`, `invalid pubkey ${quote(text)}: ${decoded.reason}`);
    return decoded.bytes;
  });
}

function transactionFilter(path: string, name: string, f: SubscribeRequestFilterTransactions, limits: FilterLimits): TransactionFilterSpec {
  let signature: Uint8Array | undefined;
  if (f.signature !== undefined) {
    const decoded = decodeBase58Exact(f.signature, 64);
    if (!decoded.ok) {
      throw new Reject(`${path}.signature`, `invalid signature ${quote(f.signature)}: ${decoded.reason}`);
    }
    signature = decoded.bytes;
  }
  return {
    ...transactionFilterBase(path, name, f, (at, list) => keyList(at, list, limits)),
    signature,
    instructions: instructionConditions(`${path}.instructions`, f.instructions ?? [], limits),
  };
}

function instructionConditions(
  path: string,
  list: readonly SubscribeRequestFilterTransactionsInstruction[],
  limits: FilterLimits,
): InstructionConditionSpec[] {
  const max = limits.maxInstructionConditions ?? DEFAULT_MAX_INSTRUCTION_CONDITIONS;
  if (list.length > max) throw new Reject(path, `${list.length} conditions, at most ${max} allowed`);
  return list.map((c, i) => instructionCondition(`${path}[${i}]`, c ?? {}));
}

function instructionCondition(path: string, c: Partial<SubscribeRequestFilterTransactionsInstruction>): InstructionConditionSpec {
  const text = c.programId ?? '';
  const program = decodeBase58Exact(text, 32);
  if (!program.ok) throw new Reject(`${path}.program_id`, `invalid program id ${quote(text)}: ${program.reason}`);
  const includeInner = c.includeInner ?? false;
  const data = c.data;
  switch (data?.$case) {
    case undefined:
      return { programId: program.bytes, includeInner };
    case 'discriminator': {
      const n = data.value.length;
      if (n === 0) throw new Reject(`${path}.discriminator`, 'empty; leave it unset to match every instruction of the program');
      if (n > MAX_INSTRUCTION_DISCRIMINATOR_BYTES) {
        throw new Reject(`${path}.discriminator`, `${n} bytes, at most ${MAX_INSTRUCTION_DISCRIMINATOR_BYTES} allowed`);
      }
      // A copy: the compiled filter outlives the request and must not share its buffer.
      return { programId: program.bytes, data: { offset: 0n, bytes: Uint8Array.from(data.value) }, includeInner };
    }
    case 'memcmp': {
      const offset = data.value?.offset ?? 0n;
      const bytes = data.value?.bytes ?? new Uint8Array();
      if (offset > BigInt(MAX_INSTRUCTION_MEMCMP_OFFSET)) {
        throw new Reject(`${path}.memcmp.offset`, `${offset}, at most ${MAX_INSTRUCTION_MEMCMP_OFFSET} allowed`);
      }
      if (bytes.length === 0) throw new Reject(`${path}.memcmp.bytes`, 'empty; leave data unset to match every instruction of the program');
      if (bytes.length > MAX_MEMCMP_BYTES)
        throw new Reject(`${path}.memcmp.bytes`, `${bytes.length} bytes, at most ${MAX_MEMCMP_BYTES} allowed`);
      return { programId: program.bytes, data: { offset, bytes: Uint8Array.from(bytes) }, includeInner };
    }
  }
}

function accountFilter(path: string, name: string, f: SubscribeRequestFilterAccounts, limits: FilterLimits): AccountFilterSpec {
  const account = keyList(`${path}.account`, f.account, limits);
  const owner = keyList(`${path}.owner`, f.owner, limits);
  const entries = f.filters ?? [];
  if (entries.length > MAX_FILTER_ENTRIES) {
    throw new Reject(`${path}.filters`, `${entries.length} entries, at most ${MAX_FILTER_ENTRIES} allowed`);
  }
  let datasizes = 0;
  const filters = entries.map((entry: SubscribeRequestFilterAccountsFilter, i): AccountDataFilter => {
    const at = `${path}.filters[${i}]`;
    const filter = entry?.filter;
    switch (filter?.$case) {
      case 'memcmp':
        return memcmp(`${at}.memcmp`, filter.value);
      case 'datasize':
        if (++datasizes > 1) throw new Reject(`${at}.datasize`, 'at most one datasize per filter');
        return { kind: 'datasize', size: filter.value };
      case 'lamports': {
        const cmp = filter.value?.cmp;
        if (!cmp) throw new Reject(`${at}.lamports`, 'no comparison set (one of eq, ne, lt, gt)');
        return { kind: 'lamports', op: cmp.$case, value: cmp.value };
      }
      default:
        throw new Reject(at, 'no filter set (one of memcmp, datasize, lamports)');
    }
  });
  return { name, account, owner, filters };
}

function memcmp(path: string, m: SubscribeRequestFilterAccountsFilterMemcmp): AccountDataFilter {
  const data = m?.data;
  let bytes: Uint8Array;
  switch (data?.$case) {
    case 'bytes':
      // A copy: the compiled filter outlives the request and must not share its buffer.
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
  return { kind: 'memcmp', offset: m.offset ?? 0n, bytes };
}

function commitmentOf(level: CommitmentLevel | undefined): Commitment {
  switch (level) {
    case undefined:
    case CommitmentLevel.PROCESSED:
      return Commitment.processed;
    case CommitmentLevel.CONFIRMED:
      return Commitment.confirmed;
    case CommitmentLevel.FINALIZED:
      return Commitment.finalized;
    default:
      throw new Reject('commitment', `unknown commitment level ${String(level)} (PROCESSED = 0, CONFIRMED = 1, FINALIZED = 2)`);
  }
}

/** Sorted by offset (clients may send any order); overlapping slices are rejected; adjacent ones are fine. */
function dataSlices(slices: readonly SubscribeRequestAccountsDataSlice[]): DataSliceSpec[] {
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
  return sorted.map(({ offset, length }) => ({ offset, length }));
}

// SubscriptionSpec (the transport-neutral model, already validated by a service adapter) -> CompiledSubscription:
// key bytes become key ids, uint64 values become numbers where the matcher compares them with lengths, every
// list is sorted by name and everything is frozen. Pure and total on any spec that keeps model.ts's
// invariants: client mistakes were rejected by the adapter, so nothing here is a client error.
import { describeValue } from '../../platform/describe-value.js';
import { keyId } from './key-id.js';
import type {
  AccountFilterSpec,
  BlocksFilterSpec,
  DataSliceSpec,
  InstructionConditionSpec,
  SlotFilterSpec,
  SubscriptionSpec,
  TransactionFilterSpec,
} from './model.js';
import type {
  CompiledAccountFilter,
  CompiledBlocksFilter,
  CompiledInstructionCondition,
  CompiledLamports,
  CompiledMemcmp,
  CompiledNamedFilter,
  CompiledSlotFilter,
  CompiledSubscription,
  CompiledTransactionFilter,
  DataSlice,
} from './types.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Offsets and sizes beyond 2^53 cannot be reached by any data: Infinity never matches and slices nothing. */
const toSafeNumber = (v: bigint): number => (v > MAX_SAFE ? Infinity : Number(v));

export function compileSubscription(spec: SubscriptionSpec): CompiledSubscription {
  return Object.freeze({
    transactions: byName('transactions', spec.transactions, compileTransactionFilter),
    accounts: byName('accounts', spec.accounts, compileAccountFilter),
    slots: byName('slots', spec.slots, compileSlotFilter),
    blocks: byName('blocks', spec.blocks, compileBlocksFilter),
    blocksMeta: byName('blocksMeta', spec.blocksMeta, compileNamedFilter),
    entry: byName('entry', spec.entry, compileNamedFilter),
    parsed: byName('parsed', spec.parsed, compileNamedFilter),
    commitment: spec.commitment,
    accountsDataSlice: compileDataSlices(spec.accountsDataSlice),
    fromSlot: spec.fromSlot,
  });
}

/** Sorted by name (JS string order) so matches come out in name order without sorting per event. */
function byName<F extends { readonly name: string }, C>(kind: string, filters: readonly F[], compileOne: (f: F) => C): readonly C[] {
  const sorted = [...filters].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) {
    // An adapter bug, not a client mistake: every wire format names filters through a map.
    if (sorted[i]!.name === sorted[i - 1]!.name) throw new Error(`${kind}: duplicate filter name ${describeValue(sorted[i]!.name)}`);
  }
  return Object.freeze(sorted.map(compileOne));
}

/** Duplicate keys collapse: a set, as in Yellowstone. */
function keySet(keys: readonly Uint8Array[]): ReadonlySet<string> {
  return new Set(keys.map(keyId));
}

function compileTransactionFilter(f: TransactionFilterSpec): CompiledTransactionFilter {
  return Object.freeze({
    name: f.name,
    accountInclude: keySet(f.accountInclude),
    accountExclude: keySet(f.accountExclude),
    accountRequired: keySet(f.accountRequired),
    vote: f.vote,
    failed: f.failed,
    signature: f.signature === undefined ? undefined : keyId(f.signature),
    instructions: compileInstructionConditions(f.instructions ?? []),
    accountIncludeCuckoo: f.accountIncludeCuckoo,
    tokenAccounts: f.tokenAccounts,
  });
}

/** Identical conditions collapse (the list is an OR, so a duplicate adds nothing); first occurrence order kept. */
function compileInstructionConditions(conditions: readonly InstructionConditionSpec[]): readonly CompiledInstructionCondition[] {
  const out = new Map<string, CompiledInstructionCondition>();
  for (const c of conditions) {
    const program = keyId(c.programId);
    const data = c.data === undefined ? undefined : Object.freeze({ offset: toSafeNumber(c.data.offset), bytes: c.data.bytes });
    const id = `${program}\u0001${data === undefined ? '' : `${data.offset}:${keyId(data.bytes)}`}\u0001${c.includeInner ? 1 : 0}`;
    if (!out.has(id)) out.set(id, Object.freeze({ program, data, includeInner: c.includeInner }));
  }
  return Object.freeze([...out.values()]);
}

function compileAccountFilter(f: AccountFilterSpec): CompiledAccountFilter {
  const memcmp: CompiledMemcmp[] = [];
  const lamports: CompiledLamports[] = [];
  let datasize: number | undefined;
  let tokenAccountState = false;
  for (const entry of f.filters) {
    switch (entry.kind) {
      case 'memcmp':
        memcmp.push(Object.freeze({ offset: toSafeNumber(entry.offset), bytes: entry.bytes }));
        break;
      case 'datasize': {
        const size = toSafeNumber(entry.size);
        // All entries must pass: two different sizes can never both hold.
        datasize = datasize === undefined || datasize === size ? size : Infinity;
        break;
      }
      case 'lamports':
        lamports.push(Object.freeze({ op: entry.op, value: entry.value }));
        break;
      case 'tokenAccountState':
        tokenAccountState = true;
        break;
    }
  }
  return Object.freeze({
    name: f.name,
    account: keySet(f.account),
    accountCuckoo: f.accountCuckoo,
    owner: keySet(f.owner),
    memcmp: Object.freeze(memcmp),
    datasize,
    lamports: Object.freeze(lamports),
    tokenAccountState,
  });
}

function compileSlotFilter(f: SlotFilterSpec): CompiledSlotFilter {
  return Object.freeze({ name: f.name, filterByCommitment: f.filterByCommitment, interslotUpdates: f.interslotUpdates });
}

function compileBlocksFilter(f: BlocksFilterSpec): CompiledBlocksFilter {
  return Object.freeze({
    name: f.name,
    accountInclude: keySet(f.accountInclude),
    accountIncludeCuckoo: f.accountIncludeCuckoo,
    includeTransactions: f.includeTransactions,
    includeAccounts: f.includeAccounts,
    includeEntries: f.includeEntries,
  });
}

function compileNamedFilter(f: { readonly name: string }): CompiledNamedFilter {
  return Object.freeze({ name: f.name });
}

/** Sorted by offset (a stable sort: equal offsets keep their order); the adapter has rejected overlaps. */
function compileDataSlices(slices: readonly DataSliceSpec[]): readonly DataSlice[] {
  const sorted = [...slices].sort((a, b) => (a.offset < b.offset ? -1 : a.offset > b.offset ? 1 : 0));
  return Object.freeze(sorted.map((s) => Object.freeze({ offset: toSafeNumber(s.offset), length: toSafeNumber(s.length) })));
}

// The compiled form of a subscription: built once per request by compileSubscription (./compile.ts) from
// the transport-neutral model (./model.ts), and never mutated afterwards: objects and arrays are frozen,
// sets are typed read-only (treat them as immutable; they are shared with the FilterIndex). Keys are key
// ids (./key-id.ts), so matching never parses strings. Also: the operator limits and the coded error that
// the service adapters (./from-stream.ts) use.
import type { CuckooSet } from './cuckoo.js';
import type { Commitment, LamportsOp } from './model.js';
import type { TokenAccountsMode } from './token-owners.js';

export type { LamportsOp };

/** Operator limits (behaviour.md: configurable, with defaults). */
export interface FilterLimits {
  /** Named filters per kind (transactions, accounts). */
  readonly maxFiltersPerKind: number;
  /** Entries per key list (account_include, account_exclude, account_required, account, owner). */
  readonly maxKeysPerList: number;
  /** Instruction conditions per transaction filter (stream.Stream); absent: DEFAULT_MAX_INSTRUCTION_CONDITIONS. */
  readonly maxInstructionConditions?: number;
}

export const DEFAULT_FILTER_LIMITS: FilterLimits = Object.freeze({ maxFiltersPerKind: 100, maxKeysPerList: 10_000 });

/** stream.Stream's fixed limits from behaviour.md, plus our own cap on data slices. */
export const MAX_FILTER_ENTRIES = 4;
export const MAX_MEMCMP_BYTES = 128;
export const MAX_MEMCMP_BASE58_CHARS = 175;
export const MAX_MEMCMP_BASE64_CHARS = 172;
export const MAX_FILTER_NAME_BYTES = 128;
export const MAX_DATA_SLICES = 16;
/** Instruction conditions (issue 20): default cap per transaction filter (operator-configurable). */
export const DEFAULT_MAX_INSTRUCTION_CONDITIONS = 64;
/** Longest discriminator: Anchor's are 8 bytes, native programs' 4, SPL Token's 1; 16 leaves room. */
export const MAX_INSTRUCTION_DISCRIMINATOR_BYTES = 16;
/** Largest instruction memcmp offset: no instruction data is longer than Agave's MAX_CPI_INSTRUCTION_DATA_LEN
 * (10 KiB; top-level data is bounded by the transaction size, far below). */
export const MAX_INSTRUCTION_MEMCMP_OFFSET = 10 * 1024;

/** Why a request was rejected. The server answers INVALID_ARGUMENT `failed to create filter: <message>`. */
export interface FilterError {
  readonly code: 'INVALID_FILTER';
  /** Where in the request, e.g. `transactions["bots"].account_include[3]`. */
  readonly path: string;
  /** Path and reason, e.g. `transactions["bots"].account_include[3]: invalid pubkey "xyz": not base58`. */
  readonly message: string;
}

export interface CompiledTransactionFilter {
  readonly name: string;
  /** Key ids (see keyId): latin1 strings of the 32 raw bytes. */
  readonly accountInclude: ReadonlySet<string>;
  readonly accountExclude: ReadonlySet<string>;
  readonly accountRequired: ReadonlySet<string>;
  /** undefined: no constraint; true: only votes; false: votes excluded. */
  readonly vote: boolean | undefined;
  /** undefined: no constraint; true: only failed (err present); false: failed excluded. */
  readonly failed: boolean | undefined;
  /** Key id of the 64-byte first signature, when set. */
  readonly signature: string | undefined;
  /** Instruction conditions (OR); empty: no constraint. Duplicates collapsed. */
  readonly instructions: readonly CompiledInstructionCondition[];
  /** A key in this set passes the include test like a key of accountInclude. */
  readonly accountIncludeCuckoo: CuckooSet | undefined;
  /** The key tests also see these token balance owners; undefined: no expansion. */
  readonly tokenAccounts: TokenAccountsMode | undefined;
}

export interface CompiledInstructionCondition {
  /** Key id of the program id. */
  readonly program: string;
  /** The data must hold `bytes` at `offset`; undefined: any data. `offset` is a number (limited by the adapter). */
  readonly data: CompiledMemcmp | undefined;
  /** Inner (CPI) instructions are tested too. */
  readonly includeInner: boolean;
}

export interface CompiledMemcmp {
  /** Number(offset); offsets beyond 2^53 become Infinity (they can never match). */
  readonly offset: number;
  readonly bytes: Uint8Array;
}

export interface CompiledLamports {
  readonly op: LamportsOp;
  readonly value: bigint;
}

export interface CompiledAccountFilter {
  readonly name: string;
  /** Key ids of accepted pubkeys (any of); empty (and no accountCuckoo): no constraint. */
  readonly account: ReadonlySet<string>;
  /** A pubkey in this set is accepted like one in `account`. */
  readonly accountCuckoo: CuckooSet | undefined;
  /** Key ids of accepted owners (any of); empty: no constraint. */
  readonly owner: ReadonlySet<string>;
  readonly memcmp: readonly CompiledMemcmp[];
  /** Required data length; Infinity when the requested size exceeds 2^53 or two sizes differ (never matches). */
  readonly datasize: number | undefined;
  readonly lamports: readonly CompiledLamports[];
  /** Only initialized SPL Token / Token-2022 accounts. */
  readonly tokenAccountState: boolean;
}

export interface CompiledSlotFilter {
  readonly name: string;
  readonly filterByCommitment: boolean;
  readonly interslotUpdates: boolean;
}

export interface CompiledBlocksFilter {
  readonly name: string;
  /** Key ids; empty (and no accountIncludeCuckoo): every transaction and account of the block. */
  readonly accountInclude: ReadonlySet<string>;
  readonly accountIncludeCuckoo: CuckooSet | undefined;
  readonly includeTransactions: boolean;
  readonly includeAccounts: boolean;
  readonly includeEntries: boolean;
}

/** blocks_meta and entry filters have nothing but a name. */
export interface CompiledNamedFilter {
  readonly name: string;
}

export interface DataSlice {
  /** Infinity when beyond 2^53: such a slice is always empty. */
  readonly offset: number;
  readonly length: number;
}

export interface CompiledSubscription {
  /** Every list sorted by name (JS string order), so matches come out sorted. */
  readonly transactions: readonly CompiledTransactionFilter[];
  readonly accounts: readonly CompiledAccountFilter[];
  readonly slots: readonly CompiledSlotFilter[];
  readonly blocks: readonly CompiledBlocksFilter[];
  readonly blocksMeta: readonly CompiledNamedFilter[];
  readonly entry: readonly CompiledNamedFilter[];
  readonly parsed: readonly CompiledNamedFilter[];
  /** The same numbers as stream.proto's CommitmentLevel (PROCESSED = 0). */
  readonly commitment: Commitment;
  /** Sorted by offset, non-overlapping. Empty: full data. */
  readonly accountsDataSlice: readonly DataSlice[];
  readonly fromSlot: bigint | undefined;
}

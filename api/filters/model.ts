// The transport-neutral filter model: what a client asked for, after its service's adapter has validated
// the request with that service's rules and limits (./from-stream.ts for stream.Stream) and decoded every
// key. It knows no wire format: stream.Stream, geyser.Geyser and PubSub requests all convert into it, and
// ./compile.ts turns it into the frozen, indexable form the matcher and FilterIndex use.
//
// Invariants an adapter guarantees (compileSubscription relies on them):
// - keys are raw bytes: 32 for pubkeys, 64 for signatures;
// - names are unique within a kind (they come from a map on every wire format);
// - data slices do not overlap.

import { Commitment } from '../../schemas/commitment.js';
import type { CuckooSet } from './cuckoo.js';
import type { TokenAccountsMode } from './token-owners.js';

/** Commitment levels: the codebase's one vocabulary (schemas/commitment.ts); adapters map wire numbers at their edge. */
export { Commitment };

/** A transaction filter: every set field must pass (AND); empty lists add no constraint. */
export interface TransactionFilterSpec {
  readonly name: string;
  /** Passes when any of these keys is in the transaction (static keys plus loaded addresses). */
  readonly accountInclude: readonly Uint8Array[];
  /** Fails when any of these keys is in the transaction. */
  readonly accountExclude: readonly Uint8Array[];
  /** Passes only when every one of these keys is in the transaction. */
  readonly accountRequired: readonly Uint8Array[];
  /** undefined: no constraint; true: only votes; false: votes excluded. */
  readonly vote?: boolean;
  /** undefined: no constraint; true: only failed transactions; false: failed ones excluded. */
  readonly failed?: boolean;
  /** Only the transaction whose first signature this is. */
  readonly signature?: Uint8Array;
  /**
   * Instruction conditions (stream.Stream's extension of issue 20). Absent or empty: no constraint.
   * Otherwise at least one instruction must satisfy at least one condition (OR within the list).
   */
  readonly instructions?: readonly InstructionConditionSpec[];
  /**
   * A compressed address set (Yellowstone's cuckoo_account_include): a transaction holding a key in it passes
   * the include test as one holding a key of `accountInclude` does (either suffices).
   */
  readonly accountIncludeCuckoo?: CuckooSet;
  /** Yellowstone's token_accounts: the key lists (and the cuckoo set) also see the owners of the token
   * balances this mode selects (./token-owners.ts). Absent: no expansion. */
  readonly tokenAccounts?: TokenAccountsMode;
}

/** One instruction condition: the instruction's program, and optionally a test of its data. */
export interface InstructionConditionSpec {
  /** 32 raw bytes. */
  readonly programId: Uint8Array;
  /**
   * The data holds `bytes` at `offset` (a discriminator is offset 0); past the end of the data: no match.
   * Absent: any data.
   */
  readonly data?: { readonly offset: bigint; readonly bytes: Uint8Array };
  /** Inner (CPI) instructions from the transaction's meta are tested too, not only top-level ones. */
  readonly includeInner: boolean;
}

export type LamportsOp = 'eq' | 'ne' | 'lt' | 'gt';

/** One entry of an account filter's data filters; all entries must pass. */
export type AccountDataFilter =
  /** The data at `offset` equals `bytes`; past the end of the data: no match. */
  | { readonly kind: 'memcmp'; readonly offset: bigint; readonly bytes: Uint8Array }
  /** The data length equals `size`. */
  | { readonly kind: 'datasize'; readonly size: bigint }
  /** Compares the account's lamports with `value`. */
  | { readonly kind: 'lamports'; readonly op: LamportsOp; readonly value: bigint }
  /** The data is an initialized SPL Token or Token-2022 account (Agave's TokenAccountState filter). */
  | { readonly kind: 'tokenAccountState' };

/** An account filter: `account` (any of, or in `accountCuckoo`) AND `owner` (any of) AND every data filter. */
export interface AccountFilterSpec {
  readonly name: string;
  readonly account: readonly Uint8Array[];
  /** A compressed address set (Yellowstone's cuckoo_accounts_filter): the pubkey is in `account` OR in this set. */
  readonly accountCuckoo?: CuckooSet;
  readonly owner: readonly Uint8Array[];
  readonly filters: readonly AccountDataFilter[];
}

/** Slot status updates (Yellowstone's `slots`). */
export interface SlotFilterSpec {
  readonly name: string;
  /** Only statuses at the subscription's commitment, instead of every status change. */
  readonly filterByCommitment: boolean;
  /** Also the progress statuses between levels (first shred received, created bank, completed). */
  readonly interslotUpdates: boolean;
}

/** Whole blocks (Yellowstone's `blocks`); the adapter resolves its wire defaults into plain booleans. */
export interface BlocksFilterSpec {
  readonly name: string;
  /** Transactions and accounts in the block limited to those touching any of these keys (or a key of
   * `accountIncludeCuckoo`); both empty: all. */
  readonly accountInclude: readonly Uint8Array[];
  readonly accountIncludeCuckoo?: CuckooSet;
  readonly includeTransactions: boolean;
  readonly includeAccounts: boolean;
  readonly includeEntries: boolean;
}

/** Block meta updates (Yellowstone's `blocks_meta`): no options. */
export interface BlocksMetaFilterSpec {
  readonly name: string;
}

/** Entry updates (Yellowstone's `entry`): no options. */
export interface EntryFilterSpec {
  readonly name: string;
}

/** SubscribeParsed's updates (the parsed topic, ingest/publish/parsed-slot.ts): every one goes to the filter; the request's own
 * filters (api/pumpfun/parsed-filter.ts) select among them in the transport. */
export interface ParsedFilterSpec {
  readonly name: string;
}

export interface DataSliceSpec {
  readonly offset: bigint;
  readonly length: bigint;
}

/** A whole subscription: named filters per kind (OR across names), plus stream-wide options. */
export interface SubscriptionSpec {
  readonly transactions: readonly TransactionFilterSpec[];
  readonly accounts: readonly AccountFilterSpec[];
  readonly slots: readonly SlotFilterSpec[];
  readonly blocks: readonly BlocksFilterSpec[];
  readonly blocksMeta: readonly BlocksMetaFilterSpec[];
  readonly entry: readonly EntryFilterSpec[];
  readonly parsed: readonly ParsedFilterSpec[];
  readonly commitment: Commitment;
  /** Trims account data in account updates; empty: full data. */
  readonly accountsDataSlice: readonly DataSliceSpec[];
  /** Replay from this slot, then continue live. */
  readonly fromSlot: bigint | undefined;
}

/** A subscription with nothing in it: adapters start from this and fill in what their service has. */
export const EMPTY_SUBSCRIPTION: SubscriptionSpec = Object.freeze({
  transactions: [],
  accounts: [],
  slots: [],
  blocks: [],
  blocksMeta: [],
  entry: [],
  parsed: [],
  commitment: Commitment.processed,
  accountsDataSlice: [],
  fromSlot: undefined,
});

// Coded JSON-RPC errors. Methods and the envelope throw or return RpcError; only the server turns them
// into response objects. Codes and messages are those of interface.md and behaviour.md, exactly.

import { u64Json } from './json.js';

export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const BLOCK_CLEANED_UP = -32001;
export const BLOCK_NOT_AVAILABLE = -32004;
export const NODE_UNHEALTHY = -32005;
export const UNAVAILABLE = -32007;
export const TRANSACTION_HISTORY_NOT_AVAILABLE = -32011;
export const SCAN_ERROR = -32012;
export const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;
/** Agave's FilterTransactionNotFound (since 4.0, PR #7937): a history cursor naming no transaction it can locate. */
export const FILTER_TRANSACTION_NOT_FOUND = -32020;
/** Helius's code for an account read older than the history held (getHistoricalAccountInfo). */
export const ACCOUNT_HISTORY_NOT_AVAILABLE = -32018;

export const parseError = (data?: string): RpcError => new RpcError(PARSE_ERROR, 'Parse error', data);
export const invalidRequest = (data?: string): RpcError => new RpcError(INVALID_REQUEST, 'Invalid request', data);
export const methodNotFound = (): RpcError => new RpcError(METHOD_NOT_FOUND, 'Method not found');
/** The generic -32602: message exactly `Invalid params`, `data` says which parameter and why. */
export const invalidParams = (data: string): RpcError => new RpcError(INVALID_PARAMS, 'Invalid params', data);
/** A -32602 whose message interface.md fixes (e.g. `Invalid param: limit must be positive`). */
export const invalidParam = (message: string): RpcError => new RpcError(INVALID_PARAMS, message);
export const internalError = (): RpcError => new RpcError(INTERNAL_ERROR, 'Internal error');
export const unavailable = (message: string): RpcError => new RpcError(UNAVAILABLE, message);
export const minContextSlotNotReached = (contextSlot: bigint): RpcError =>
  new RpcError(MIN_CONTEXT_SLOT_NOT_REACHED, 'Minimum context slot has not been reached', { contextSlot: u64Json(contextSlot) });
/**
 * An account read as of a slot the commitment has not reached: the same code and data as minContextSlot (the
 * slot asked for is the least context slot the answer can have; retrying later helps), the slots in the message.
 */
export const asOfSlotNotReached = (slot: bigint, commitment: string, contextSlot: bigint): RpcError =>
  new RpcError(
    MIN_CONTEXT_SLOT_NOT_REACHED,
    `Minimum context slot has not been reached: slot ${slot} is above the newest ${commitment} slot, ${contextSlot}`,
    { contextSlot: u64Json(contextSlot) },
  );
/** An account read as of a slot older than the account history the views hold (Helius's -32018 and message). */
export const accountHistoryNotAvailable = (slot: bigint, oldestSlot: bigint): RpcError =>
  new RpcError(ACCOUNT_HISTORY_NOT_AVAILABLE, `Account history not available for slot ${slot}: the oldest slot held is ${oldestSlot}`, {
    oldestSlot: u64Json(oldestSlot),
  });

/**
 * getProgramAccounts over the operator's limit of accounts per answer: Agave's ScanError (-32012), which Agave
 * answers when a scan's results pass its own bound (--accounts-index-scan-results-limit-mb); the message names the
 * limit and the paged method that serves any size.
 */
export const programAccountsOverLimit = (limit: number): RpcError =>
  new RpcError(
    SCAN_ERROR,
    `getProgramAccounts answer over ${limit} accounts, this service's limit per answer (rpcMaxProgramAccounts); ` +
      'read them page by page with getProgramAccountsV2 (limit up to 10000, paginationKey), or narrow them with filters',
  );

/** -32600 with Agave's message for base58 account data over 128 bytes. */
export const base58TooLarge = (): RpcError =>
  new RpcError(INVALID_REQUEST, 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');

// Agave's custom errors (rpc-client-api custom_error.rs), with its messages and data members.
export const blockCleanedUp = (slot: bigint, firstAvailable: bigint): RpcError =>
  new RpcError(BLOCK_CLEANED_UP, `Block ${slot} cleaned up, does not exist on node. First available block: ${firstAvailable}`);
export const blockNotAvailable = (slot: bigint): RpcError => new RpcError(BLOCK_NOT_AVAILABLE, `Block not available for slot ${slot}`);
export const slotSkipped = (slot: bigint): RpcError =>
  new RpcError(UNAVAILABLE, `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`);
/**
 * A history cursor (a `before`/`until` signature, a signature filter, a pagination token) that names no transaction
 * the views hold at the request's commitment: Agave's code and message (`Transaction {signature} not found`), with
 * `data` saying why (not held at all, above the commitment's newest slot, on a lost fork).
 */
export const filterTransactionNotFound = (cursor: string, why: string): RpcError =>
  new RpcError(FILTER_TRANSACTION_NOT_FOUND, `Transaction ${cursor} not found`, why);
/** Agave's TransactionHistoryNotAvailable; `data` says what is missing (views filled before their migration). */
export const transactionHistoryNotAvailable = (data: string): RpcError =>
  new RpcError(TRANSACTION_HISTORY_NOT_AVAILABLE, 'Transaction history is not available from this node', data);
/** getHealth when not healthy: behind by a known number of slots, or unknown (null). */
export const nodeUnhealthy = (numSlotsBehind: bigint | undefined): RpcError =>
  new RpcError(NODE_UNHEALTHY, numSlotsBehind === undefined ? 'Node is unhealthy' : `Node is behind by ${numSlotsBehind} slots`, {
    numSlotsBehind: numSlotsBehind === undefined ? null : u64Json(numSlotsBehind),
  });

/**
 * Methods that write to the chain: the node does not offer them (-32601, as for any method it lacks), with a
 * message that says why, since clients show the message (web3.js puts it in the thrown error).
 */
export const readOnlyService = (method: string): RpcError =>
  new RpcError(
    METHOD_NOT_FOUND,
    `Method not found: slotstream is a read-only service and cannot ${READ_ONLY_VERBS[method] ?? 'serve ' + method}; send it to a validator's RPC endpoint`,
  );
const READ_ONLY_VERBS: Readonly<Record<string, string>> = {
  sendTransaction: 'send transactions (sendTransaction)',
  simulateTransaction: 'simulate transactions (simulateTransaction)',
  requestAirdrop: 'airdrop lamports (requestAirdrop)',
};

// Agave's custom errors of issue 21's methods (rpc-client-api custom_error.rs), codes, messages and data as there.
export const NO_SNAPSHOT = -32008;
export const EPOCH_REWARDS_PERIOD_ACTIVE = -32017;
export const SLOT_NOT_EPOCH_BOUNDARY = -32018;
export const noSnapshot = (): RpcError => new RpcError(NO_SNAPSHOT, 'No snapshot');
export const epochRewardsPeriodActive = (slot: bigint, currentBlockHeight: bigint, rewardsCompleteBlockHeight: bigint): RpcError =>
  new RpcError(EPOCH_REWARDS_PERIOD_ACTIVE, `Epoch rewards period still active at slot ${slot}`, {
    currentBlockHeight: u64Json(currentBlockHeight),
    rewardsCompleteBlockHeight: u64Json(rewardsCompleteBlockHeight),
    slot: u64Json(slot),
  });
export const slotNotEpochBoundary = (slot: bigint): RpcError =>
  new RpcError(
    SLOT_NOT_EPOCH_BOUNDARY,
    `Rewards cannot be found because slot ${slot} is not the epoch boundary. This may be due to gap in the queried node's local ledger or long-term storage`,
    { slot: u64Json(slot) },
  );

/**
 * An Agave read method slotstream does not serve: -32601, as for any method a node lacks, with a message
 * saying why (clients show it), like the write methods' refusal above.
 */
export const notServed = (method: string, why: string): RpcError =>
  new RpcError(METHOD_NOT_FOUND, `Method not found: slotstream does not serve ${method}: ${why}`);

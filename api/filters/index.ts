// Public surface of the filter engine (pure: no gRPC, Kafka or ClickHouse). A service adapter turns its
// request into the transport-neutral model (./model.ts), validated with its rules; compileSubscription turns
// the model into what the matcher and the index use.
export { compileSubscribeRequest, specFromStreamRequest, type CompileResult, type SpecResult } from './from-stream.js';
export { compileSubscription } from './compile.js';
export { Reject, asFilterError, quote } from './reject.js';
export { isTokenAccountData } from './token-account.js';
export {
  Commitment,
  EMPTY_SUBSCRIPTION,
  type AccountDataFilter,
  type AccountFilterSpec,
  type BlocksFilterSpec,
  type BlocksMetaFilterSpec,
  type DataSliceSpec,
  type EntryFilterSpec,
  type InstructionConditionSpec,
  type LamportsOp,
  type SlotFilterSpec,
  type SubscriptionSpec,
  type TransactionFilterSpec,
} from './model.js';
export {
  matchTransaction,
  matchAccount,
  matchTransactionView,
  matchAccountView,
  scannedAccountView,
  scannedTransactionView,
} from './match.js';
export { FilterIndex } from './filter-index.js';
export { applyDataSlices, dataSliceKey } from './slice.js';
export { keyId } from './key-id.js';
export {
  DEFAULT_FILTER_LIMITS,
  DEFAULT_MAX_INSTRUCTION_CONDITIONS,
  MAX_DATA_SLICES,
  MAX_FILTER_ENTRIES,
  MAX_FILTER_NAME_BYTES,
  MAX_INSTRUCTION_DISCRIMINATOR_BYTES,
  MAX_INSTRUCTION_MEMCMP_OFFSET,
  MAX_MEMCMP_BASE58_CHARS,
  MAX_MEMCMP_BASE64_CHARS,
  MAX_MEMCMP_BYTES,
  type CompiledAccountFilter,
  type CompiledBlocksFilter,
  type CompiledInstructionCondition,
  type CompiledNamedFilter,
  type CompiledSlotFilter,
  type CompiledSubscription,
  type CompiledTransactionFilter,
  type DataSlice,
  type FilterError,
  type FilterLimits,
} from './types.js';
export { matchSlotStatus, matchBlockMeta, matchEntry, matchParsedUpdates } from './match-chain.js';

// Public surface of the filter engine (pure: no gRPC, Kafka or ClickHouse).
export { compileSubscribeRequest, type CompileResult } from './compile.js';
export { matchTransaction, matchAccount } from './match.js';
export { FilterIndex } from './filter-index.js';
export { applyDataSlices } from './slice.js';
export { keyId } from './key-id.js';
export {
  DEFAULT_FILTER_LIMITS,
  MAX_DATA_SLICES,
  MAX_FILTER_ENTRIES,
  MAX_FILTER_NAME_BYTES,
  MAX_MEMCMP_BASE58_CHARS,
  MAX_MEMCMP_BASE64_CHARS,
  MAX_MEMCMP_BYTES,
  type CompiledAccountFilter,
  type CompiledSubscription,
  type CompiledTransactionFilter,
  type DataSlice,
  type FilterError,
  type FilterLimits,
} from './types.js';

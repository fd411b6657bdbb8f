// Public surface of the pump.fun and PumpSwap decoders (pure: no gRPC, Kafka or ClickHouse).
export { decodePumpInstruction, pumpInstructionName, PUMP_PROGRAM_ID, type PumpInstruction } from '../../schemas/pumpfun/decode.js';
export { PUMP_DISCRIMINATORS, anchorDiscriminator, type PumpInstructionName } from '../../schemas/pumpfun/discriminators.js';
export {
  parsePumpTransaction,
  bondingCurveOf,
  scanPumpTransaction,
  type PumpTransactionScan,
} from '../../schemas/pumpfun/parse-transaction.js';
export {
  accountNames,
  decodeEvent,
  decodeEventInstruction,
  decodeInstruction,
  EVENT_IX_TAG,
  isEventInstruction,
  PUMP_PROGRAMS,
  type Decode,
  type EventDecode,
  type InstructionDecode,
} from '../../schemas/pumpfun/decoder.js';
export {
  extractPumpTransaction,
  keyAt,
  type PumpEventAt,
  type PumpInstructionAt,
  type PumpTransaction,
} from '../../schemas/pumpfun/extract.js';
export type { Fields, Value } from '../../schemas/pumpfun/layout.js';
export type { EventDef, InstructionDef, ProgramTable, PumpProgramName } from '../../schemas/pumpfun/program-table.js';
export { PUMP } from '../../schemas/pumpfun/pump-table.js';
export { PUMP_AMM } from '../../schemas/pumpfun/pump-amm-table.js';
export { toProtoEvent, toProtoInstruction } from '../../schemas/pumpfun/to-proto.js';
export { scanParsedTransaction, type ParsedScan } from '../../schemas/pumpfun/parsed-scan.js';
export {
  compileParsedFilter,
  matchParsed,
  hasParsedOptions,
  DEFAULT_PARSED_FILTER,
  MAX_PARSED_FILTER_ENTRIES,
  type ParsedFilter,
  type ParsedFilterResult,
} from './parsed-filter.js';

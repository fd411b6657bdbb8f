// Public surface of the pump.fun and PumpSwap decoders (pure: no gRPC, Kafka or ClickHouse).
export { decodePumpInstruction, pumpInstructionName, PUMP_PROGRAM_ID, type PumpInstruction } from './decode.js';
export { PUMP_DISCRIMINATORS, anchorDiscriminator, type PumpInstructionName } from './discriminators.js';
export { parsePumpTransaction, bondingCurveOf, scanPumpTransaction, type PumpTransactionScan } from './parse-transaction.js';
export { PumpJoin, type JoinedEmit, type JoinOptions, type JoinSubject, type JoinWrite } from './join.js';
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
} from './decoder.js';
export { extractPumpTransaction, keyAt, type PumpEventAt, type PumpInstructionAt, type PumpTransaction } from './extract.js';
export type { Fields, Value } from './layout.js';
export type { EventDef, InstructionDef, ProgramTable, PumpProgramName } from './program-table.js';
export { PUMP } from './pump-table.js';
export { PUMP_AMM } from './pump-amm-table.js';
export { toProtoEvent, toProtoInstruction } from './to-proto.js';
export { scanParsedTransaction, type ParsedScan } from './parsed-scan.js';
export {
  compileParsedFilter,
  matchParsed,
  hasParsedOptions,
  DEFAULT_PARSED_FILTER,
  MAX_PARSED_FILTER_ENTRIES,
  type ParsedFilter,
  type ParsedFilterResult,
} from './parsed-filter.js';

// Public surface of the pump.fun decoder (pure: no gRPC, Kafka or ClickHouse).
export { decodePumpInstruction, pumpInstructionName, PUMP_PROGRAM_ID, type PumpInstruction } from './decode.js';
export { PUMP_DISCRIMINATORS, anchorDiscriminator, type PumpInstructionName } from './discriminators.js';
export { parsePumpTransaction, bondingCurveOf, scanPumpTransaction, type PumpTransactionScan } from './parse-transaction.js';
export { PumpJoin, type JoinedEmit } from './join.js';

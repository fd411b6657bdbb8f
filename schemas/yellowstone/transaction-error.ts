// Transaction errors between Agave's JSON form (the event model's `err`, what getTransaction and
// getSignaturesForAddress show) and Yellowstone's binary form (`TransactionError.err`: the Rust enum
// `TransactionError` serialized with bincode's default options).
//
// bincode layout: a variant is its index as u32 little-endian, then its fields in order (u8 as one
// byte, u32 little-endian, String as u64 little-endian length + UTF-8). serde_json's layout: a unit
// variant is its name as a string; a newtype variant {"Name": value}; a tuple variant {"Name": [..]};
// a struct variant {"Name": {"field": value}}. Variant order is Agave's (solana-sdk crates
// `transaction-error` and `instruction-error`); new variants are only ever appended there.

import { ByteError, ByteReader } from '../byte-reader.js';
import { ByteWriter } from '../byte-writer.js';

/** Unit variants of TransactionError by index; payload-carrying ones are null and handled by name. */
const TX_VARIANTS: readonly string[] = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'InstructionError', // (u8, InstructionError)
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'DuplicateInstruction', // (u8)
  'InsufficientFundsForRent', // { account_index: u8 }
  'MaxLoadedAccountsDataSizeExceeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'ResanitizationNeeded',
  'ProgramExecutionTemporarilyRestricted', // { account_index: u8 }
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
];

const IX_VARIANTS: readonly string[] = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'Custom', // (u32)
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'BorshIoError', // unit today; (String) in blocks from before solana-sdk 2.2
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BailOut',
];

const TX_INDEX = new Map(TX_VARIANTS.map((n, i) => [n, i]));
const IX_INDEX = new Map(IX_VARIANTS.map((n, i) => [n, i]));
const STRUCT_VARIANTS = new Set(['InsufficientFundsForRent', 'ProgramExecutionTemporarilyRestricted']);

export class TransactionErrorCodecError extends Error {
  override name = 'TransactionErrorCodecError';
}

// ---------------------------------------------------------------------------------------------
// Binary (bincode) to JSON

function instructionErrorJson(r: ByteReader): unknown {
  const i = r.u32('InstructionError variant');
  const name = IX_VARIANTS[i];
  if (name === undefined) throw new TransactionErrorCodecError(`unknown InstructionError variant ${i}`);
  if (name === 'Custom') return { Custom: r.u32('Custom code') };
  // The old String payload is recognizable: the variant is the last thing in the error.
  if (name === 'BorshIoError' && r.remaining >= 8) return { BorshIoError: r.bincodeString('BorshIoError message') };
  return name;
}

/** Yellowstone's `TransactionError.err` bytes to Agave's compact JSON text. Throws
 * TransactionErrorCodecError on bytes that are not a known error (unknown variant, short, trailing). */
export function transactionErrorToJson(bytes: Uint8Array): string {
  try {
    return errorJson(new ByteReader(bytes));
  } catch (err) {
    if (err instanceof ByteError) throw new TransactionErrorCodecError(`transaction error bytes: ${err.message}`);
    throw err;
  }
}

function errorJson(r: ByteReader): string {
  const i = r.u32('TransactionError variant');
  const name = TX_VARIANTS[i];
  if (name === undefined) throw new TransactionErrorCodecError(`unknown TransactionError variant ${i}`);
  let value: unknown;
  if (name === 'InstructionError') {
    const index = r.u8('instruction index');
    value = { InstructionError: [index, instructionErrorJson(r)] };
  } else if (name === 'DuplicateInstruction') value = { DuplicateInstruction: r.u8('instruction index') };
  else if (STRUCT_VARIANTS.has(name)) value = { [name]: { account_index: r.u8('account index') } };
  else value = name;
  if (r.remaining !== 0) throw new TransactionErrorCodecError(`${r.remaining} trailing bytes after ${name}`);
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// JSON to binary

function isInt(v: unknown, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}

/** The single key and value of a one-key object, or undefined. */
function only(v: unknown): [string, unknown] | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 ? [keys[0]!, (v as Record<string, unknown>)[keys[0]!]] : undefined;
}

function writeInstructionError(w: ByteWriter, v: unknown, text: string): void {
  if (typeof v === 'string') {
    const i = IX_INDEX.get(v);
    if (i === undefined || v === 'Custom') throw new TransactionErrorCodecError(`unknown InstructionError ${JSON.stringify(v)} in ${text}`);
    w.u32(i);
    return;
  }
  const kv = only(v);
  if (kv?.[0] === 'Custom' && isInt(kv[1], 0xffff_ffff)) {
    w.u32(IX_INDEX.get('Custom')!);
    w.u32(kv[1]);
    return;
  }
  if (kv?.[0] === 'BorshIoError' && typeof kv[1] === 'string') {
    w.u32(IX_INDEX.get('BorshIoError')!);
    w.bincodeString(kv[1]);
    return;
  }
  throw new TransactionErrorCodecError(`not an InstructionError: ${JSON.stringify(v)} in ${text}`);
}

/** Agave's JSON text (as in the event model's `err`) to Yellowstone's bincode bytes. Throws
 * TransactionErrorCodecError on text that is not a known error in Agave's form. */
export function transactionErrorFromJson(text: string): Uint8Array {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new TransactionErrorCodecError(`transaction error is not JSON: ${text}`);
  }
  const w = new ByteWriter(16);
  if (typeof v === 'string') {
    const i = TX_INDEX.get(v);
    if (i === undefined || v === 'InstructionError' || v === 'DuplicateInstruction' || STRUCT_VARIANTS.has(v)) {
      throw new TransactionErrorCodecError(`unknown or incomplete TransactionError ${text}`);
    }
    w.u32(i);
    return new Uint8Array(w.done());
  }
  const kv = only(v);
  if (kv === undefined) throw new TransactionErrorCodecError(`not a TransactionError: ${text}`);
  const [name, payload] = kv;
  if (name === 'InstructionError' && Array.isArray(payload) && payload.length === 2 && isInt(payload[0], 255)) {
    w.u32(TX_INDEX.get(name)!);
    w.u8(payload[0]);
    writeInstructionError(w, payload[1], text);
  } else if (name === 'DuplicateInstruction' && isInt(payload, 255)) {
    w.u32(TX_INDEX.get(name)!);
    w.u8(payload);
  } else if (STRUCT_VARIANTS.has(name)) {
    const f = only(payload);
    if (f?.[0] !== 'account_index' || !isInt(f[1], 255))
      throw new TransactionErrorCodecError(`${name} needs {"account_index": u8}: ${text}`);
    w.u32(TX_INDEX.get(name)!);
    w.u8(f[1]);
  } else {
    throw new TransactionErrorCodecError(`not a TransactionError: ${text}`);
  }
  return new Uint8Array(w.done());
}

/** Every variant name, for tests that cover each shape. */
export const TRANSACTION_ERROR_VARIANTS = TX_VARIANTS;
export const INSTRUCTION_ERROR_VARIANTS = IX_VARIANTS;

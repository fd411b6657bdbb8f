// The seed's decoding: pump.fun's six original instructions when top-level, as the seed's oneof only (no
// position fields). SubscribeParsed now uses parsed-scan.ts (both programs, inner too); this stays for callers
// of the seed's view; the program and account indexes address static keys, then loaded writable, then loaded
// readonly addresses (v0 lookup order).
import bs58 from 'bs58';
import type { Instruction } from '../../proto/gen/stream.js';
import type { TransactionEvent } from '../gen/events.js';
import { decodePumpInstruction, PUMP_PROGRAM_ID, type PumpInstruction } from './decode.js';
import { keyAt } from './extract.js';

/** An Instruction as the seed had it: the oneof alone. */
export type SeedInstruction = Pick<Instruction, 'instructionOneof'>;

const PROGRAM_ID = Buffer.from(bs58.decode(PUMP_PROGRAM_ID));

/** Position of bonding_curve in the instruction's accounts (pumpfun.md account orders). */
const BONDING_CURVE_ACCOUNT: Partial<Record<PumpInstruction['$case'], number>> = {
  create: 2,
  buy: 3,
  sell: 3,
  withdraw: 3,
};

export interface PumpTransactionScan {
  /** Decoded pump.fun instructions in transaction order. */
  readonly instructions: SeedInstruction[];
  /** Distinct bonding-curve keys the decoded instructions use, in first-use order. */
  readonly bondingCurves: Buffer[];
}

export function scanPumpTransaction(tx: TransactionEvent): PumpTransactionScan {
  const instructions: SeedInstruction[] = [];
  const bondingCurves: Buffer[] = [];
  for (const ix of tx.instructions) {
    const program = keyAt(tx, ix.programIdIndex);
    if (program === undefined || !PROGRAM_ID.equals(program)) continue;
    const decoded = decodePumpInstruction(ix.data);
    if (decoded === undefined) continue;
    instructions.push({ instructionOneof: decoded });
    const position = BONDING_CURVE_ACCOUNT[decoded.$case];
    if (position === undefined || position >= ix.accounts.length) continue;
    const curve = keyAt(tx, ix.accounts[position]!);
    if (curve !== undefined && !bondingCurves.some((c) => c.equals(curve))) bondingCurves.push(curve);
  }
  return { instructions, bondingCurves };
}

/** Decoded pump.fun top-level instructions in order; empty when there are none. */
export function parsePumpTransaction(tx: TransactionEvent): SeedInstruction[] {
  return scanPumpTransaction(tx).instructions;
}

/**
 * The bonding-curve key used by the transaction's decoded pump.fun instructions (the first one, when several
 * curves are touched), so the server can attach that account's update written by the same transaction.
 */
export function bondingCurveOf(tx: TransactionEvent): Buffer | undefined {
  return scanPumpTransaction(tx).bondingCurves[0];
}

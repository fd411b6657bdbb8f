// getMinimumBalanceForRentExemption [dataLength, commitment?]: Agave's Rent::minimum_balance:
// (128 + dataLength) bytes x lamports_per_byte_year x exemption_threshold years. The parameters are the Rent
// sysvar's as the source wrote it at the commitment's head (so the answer follows the chain it serves);
// without that account (or with a zeroed one), Rent::default (3,480 lamports per byte-year, 2 years), which every Solana cluster
// uses. Agave: a length over MAX_PERMITTED_DATA_LENGTH (10 MiB) is -32600 Invalid request.
import { SYSVAR_RENT } from '../../../schemas/programs.js';
import { invalidRequest } from '../../solana-json/errors.js';
import { u64Json } from '../../solana-json/json.js';
import { readAccounts } from '../account-state.js';
import { contextSlot, defineMethod } from '../method.js';
import { parseCommitment, parseConfig, parseU64, positional, type Commitment } from '../../solana-json/params.js';

export const MAX_PERMITTED_DATA_LENGTH = 10n * 1024n * 1024n;
/** solana_rent: the bytes every account is charged for beyond its data. */
export const ACCOUNT_STORAGE_OVERHEAD = 128n;

export interface Rent {
  lamportsPerByteYear: bigint;
  exemptionThreshold: number;
}
export const DEFAULT_RENT: Rent = { lamportsPerByteYear: 3480n, exemptionThreshold: 2 };

export interface GetMinimumBalanceParams {
  dataLength: bigint;
  commitment: Commitment;
}

export function parseGetMinimumBalanceForRentExemption(params: unknown): GetMinimumBalanceParams {
  const p = positional(params, 1, 2);
  const dataLength = parseU64(p[0], 'dataLength');
  if (dataLength > MAX_PERMITTED_DATA_LENGTH) {
    throw invalidRequest(`dataLength: ${dataLength} is over MAX_PERMITTED_DATA_LENGTH (${MAX_PERMITTED_DATA_LENGTH} bytes)`);
  }
  return { dataLength, commitment: parseCommitment(parseConfig(p[1], 'config')) };
}

/**
 * Pure: the Rent sysvar's bincode (u64 lamports_per_byte_year, f64 exemption_threshold, u8 burn_percent).
 * Zero or non-finite parameters are no cluster's rent (the simulator writes its sysvars as zeros): undefined.
 */
export function decodeRent(data: Buffer): Rent | undefined {
  if (data.length < 17) return undefined;
  const rent = { lamportsPerByteYear: data.readBigUInt64LE(0), exemptionThreshold: data.readDoubleLE(8) };
  if (rent.lamportsPerByteYear === 0n || !Number.isFinite(rent.exemptionThreshold) || rent.exemptionThreshold <= 0) return undefined;
  return rent;
}

/** Pure: Agave's Rent::minimum_balance (the f64 product truncated to u64, as Rust's `as u64`). */
export function minimumBalance(rent: Rent, dataLength: bigint): bigint {
  const bytes = ACCOUNT_STORAGE_OVERHEAD + dataLength;
  // Exact in integers for the whole-year thresholds every cluster uses; f64 otherwise, as Agave computes it.
  if (Number.isInteger(rent.exemptionThreshold)) return bytes * rent.lamportsPerByteYear * BigInt(rent.exemptionThreshold);
  return BigInt(Math.trunc(Number(bytes * rent.lamportsPerByteYear) * rent.exemptionThreshold));
}

const UNAVAILABLE = 'Account information unavailable';

export const getMinimumBalanceForRentExemption = defineMethod<GetMinimumBalanceParams>({
  name: 'getMinimumBalanceForRentExemption',
  unavailableMessage: UNAVAILABLE,
  parse: parseGetMinimumBalanceForRentExemption,
  run: async (ctx, p) => {
    const slot = contextSlot({ unavailableMessage: UNAVAILABLE }, ctx.state, p.commitment);
    const sysvar = (await readAccounts(ctx.ch, ctx.db, [SYSVAR_RENT], slot)).get(SYSVAR_RENT);
    const rent = (sysvar && decodeRent(Buffer.from(sysvar.data, 'base64'))) ?? DEFAULT_RENT;
    return u64Json(minimumBalance(rent, p.dataLength));
  },
});

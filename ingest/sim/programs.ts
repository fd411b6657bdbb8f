// Program ids, fixed addresses and discriminators the simulator uses (reference/solana.md, pumpfun.md).
// Discriminators are recomputed from their names, never copied.
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import * as ids from '../../schemas/programs.js';

export const pk = (base58: string): Buffer => {
  const b = Buffer.from(bs58.decode(base58));
  if (b.length !== 32) throw new Error(`not a 32-byte address: ${base58}`);
  return b;
};

// Solana's programs and sysvars: one definition, in schemas/programs.ts (base58), decoded here.
export const SYSTEM_PROGRAM = pk(ids.SYSTEM_PROGRAM);
export const VOTE_PROGRAM = pk(ids.VOTE_PROGRAM);
export const TOKEN_PROGRAM = pk(ids.TOKEN_PROGRAM);
export const ATA_PROGRAM = pk(ids.ATA_PROGRAM);
export const MEMO_PROGRAM = pk(ids.MEMO_PROGRAM);
export const COMPUTE_BUDGET_PROGRAM = pk(ids.COMPUTE_BUDGET_PROGRAM);
export const LOOKUP_TABLE_PROGRAM = pk(ids.LOOKUP_TABLE_PROGRAM);
export const BPF_LOADER_UPGRADEABLE = pk(ids.BPF_LOADER_UPGRADEABLE);
export const BPF_LOADER_2 = pk(ids.BPF_LOADER_2);
export const NATIVE_LOADER = pk(ids.NATIVE_LOADER);
export const SYSVAR_RENT = pk(ids.SYSVAR_RENT);
export const SYSVAR_CLOCK = pk(ids.SYSVAR_CLOCK);
export const SYSVAR_SLOT_HASHES = pk(ids.SYSVAR_SLOT_HASHES);
export const METADATA_PROGRAM = pk(ids.METADATA_PROGRAM);

export const PUMP_PROGRAM = pk('6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P');
export const PUMP_GLOBAL = pk('4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf');
export const PUMP_EVENT_AUTHORITY = pk('Ce6TQqeHC9p8KetsN6JsjHK7UTZk7nasjjnr7XxXp9F1');
export const PUMP_MINT_AUTHORITY = pk('TSLvdd1pWpHVjahSpsvCXUbgwsL3JAcvokwaKt1eokM');

const disc = (preimage: string): Buffer => createHash('sha256').update(preimage).digest().subarray(0, 8);

export const PUMP_IX = {
  initialize: disc('global:initialize'),
  setParams: disc('global:set_params'),
  create: disc('global:create'),
  buy: disc('global:buy'),
  sell: disc('global:sell'),
  withdraw: disc('global:withdraw'),
} as const;

export const PUMP_ACCOUNT = {
  bondingCurve: disc('account:BondingCurve'),
  global: disc('account:Global'),
  lastWithdraw: disc('account:LastWithdraw'),
} as const;

/** pump.fun custom errors (Anchor numbering from 6000). */
export const PUMP_ERR = {
  notAuthorized: 6000,
  alreadyInitialized: 6001,
  tooMuchSolRequired: 6002,
  tooLittleSolReceived: 6003,
  bondingCurveComplete: 6005,
  bondingCurveNotComplete: 6006,
} as const;

export const LAMPORTS_PER_SIGNATURE = 5000n;
export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** Rent-exempt minimum: (128 + data length) bytes at 3,480 lamports per byte-year, for two years. */
export function rentExempt(dataLen: number): bigint {
  return BigInt((128 + dataLen) * 3480 * 2);
}

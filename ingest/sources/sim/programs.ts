// Program ids, fixed addresses and discriminators the simulator uses (reference/solana.md, pumpfun.md).
// Discriminators are recomputed from their names, never copied.
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import * as ids from '../../../schemas/programs.js';

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
export const TOKEN_2022_PROGRAM = pk(ids.TOKEN_2022_PROGRAM);
export const NATIVE_MINT = pk(ids.NATIVE_MINT);
/** PumpSwap, pump.fun's AMM, where completed curves migrate; and its event authority PDA. */
export const PUMP_AMM_PROGRAM = pk('pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA');
export const PUMP_AMM_EVENT_AUTHORITY = pk('GS4CU59F31iL7aR2Q8zVS8DRrcRnXX1yjQ66TqNVQnaR');
/** pump fees (fee_config's program) and the mayhem program: named by today's account lists, never invoked here. */
export const PUMP_FEE_PROGRAM = pk('pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ');
export const PUMP_MAYHEM_PROGRAM = pk('MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e');
/**
 * The simulated trading router (Photon, Axiom, term9... on mainnet): a program that takes its fee and invokes
 * pump.fun or PumpSwap by CPI. Not a real program; a readable id that decodes to 32 bytes.
 */
export const SIM_ROUTER_PROGRAM = pk('SimRouter1111111111111111111111111111111111');

const disc = (preimage: string): Buffer => createHash('sha256').update(preimage).digest().subarray(0, 8);

export const PUMP_IX = {
  initialize: disc('global:initialize'),
  setParams: disc('global:set_params'),
  create: disc('global:create'),
  createV2: disc('global:create_v2'),
  buy: disc('global:buy'),
  buyExactSolIn: disc('global:buy_exact_sol_in'),
  buyV2: disc('global:buy_v2'),
  buyExactQuoteInV2: disc('global:buy_exact_quote_in_v2'),
  sell: disc('global:sell'),
  sellV2: disc('global:sell_v2'),
  migrate: disc('global:migrate'),
} as const;

export const PUMP_ACCOUNT = {
  bondingCurve: disc('account:BondingCurve'),
  global: disc('account:Global'),
  lastWithdraw: disc('account:LastWithdraw'),
  userVolumeAccumulator: disc('account:UserVolumeAccumulator'),
} as const;

/** pump.fun's events (Anchor: sha256("event:<Name>")[..8]). */
export const PUMP_EVENT = {
  trade: disc('event:TradeEvent'),
  create: disc('event:CreateEvent'),
  complete: disc('event:CompleteEvent'),
  completePumpAmmMigration: disc('event:CompletePumpAmmMigrationEvent'),
  setParams: disc('event:SetParamsEvent'),
} as const;

export const PUMP_AMM_IX = {
  createPool: disc('global:create_pool'),
  buy: disc('global:buy'),
  sell: disc('global:sell'),
} as const;

export const PUMP_AMM_ACCOUNT = {
  pool: disc('account:Pool'),
  globalConfig: disc('account:GlobalConfig'),
} as const;

export const PUMP_AMM_EVENT = {
  buy: disc('event:BuyEvent'),
  sell: disc('event:SellEvent'),
  createPool: disc('event:CreatePoolEvent'),
} as const;

/**
 * Anchor's EVENT_IX_TAG: a self-CPI event instruction's data starts with it. Anchor defines it as the u64
 * 0x1d9acb512ea545e4 (sha256("anchor:event")[..8] read big-endian) and writes it little-endian: e445a52e51cb9a1d.
 */
export const EVENT_IX_TAG = Buffer.from(disc('anchor:event')).reverse();

/** The router's one instruction (its own Anchor-style discriminator). */
export const ROUTER_IX = { route: disc('global:route') } as const;

/** pump.fun custom errors (Anchor numbering from 6000). */
export const PUMP_ERR = {
  notAuthorized: 6000,
  alreadyInitialized: 6001,
  tooMuchSolRequired: 6002,
  tooLittleSolReceived: 6003,
  bondingCurveComplete: 6005,
  bondingCurveNotComplete: 6006,
  notEnoughTokensToBuy: 6021,
  buySlippageBelowMinTokensOut: 6042,
} as const;

/** PumpSwap custom errors. */
export const PUMP_AMM_ERR = {
  exceededSlippage: 6004,
} as const;

export const LAMPORTS_PER_SIGNATURE = 5000n;
export const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** Rent-exempt minimum: (128 + data length) bytes at 3,480 lamports per byte-year, for two years. */
export function rentExempt(dataLen: number): bigint {
  return BigInt((128 + dataLen) * 3480 * 2);
}

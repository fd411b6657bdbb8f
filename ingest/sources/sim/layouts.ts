// Account data layouts the simulator writes: SPL Token (token account 165 bytes, mint 82 bytes),
// pump.fun Global/BondingCurve/LastWithdraw, address lookup tables, Metaplex metadata (prefix), and a
// compact vote state. Offsets follow the programs' own layouts so decoders can read them.
import { borsh } from './borsh.js';
import { PUMP_ACCOUNT, PUMP_AMM_ACCOUNT } from './programs.js';

export const TOKEN_ACCOUNT_LEN = 165;
export const MINT_LEN = 82;
export const BONDING_CURVE_LEN = 150;
export const PUMP_GLOBAL_LEN = 113;
export const METADATA_LEN = 679;
export const LAST_WITHDRAW_LEN = 16;
export const VOTE_STATE_LEN = 93;
export const LOOKUP_TABLE_META_LEN = 56;

export function tokenAccountData(mint: Uint8Array, owner: Uint8Array, amount: bigint, nativeRent?: bigint): Buffer {
  const d = Buffer.alloc(TOKEN_ACCOUNT_LEN);
  d.set(mint, 0);
  d.set(owner, 32);
  d.writeBigUInt64LE(amount, 64);
  // delegate COption at 72 stays None; state at 108 = Initialized; delegated_amount and close_authority
  // stay None/0; is_native (COption<u64> at 109) is Some(rent-exempt reserve) for wrapped SOL accounts.
  d[108] = 1;
  if (nativeRent !== undefined) {
    d.writeUInt32LE(1, 109);
    d.writeBigUInt64LE(nativeRent, 113);
  }
  return d;
}

/** Wrapped SOL accounts: the token amount is the lamports above the rent reserve. */
export const isNativeTokenAccount = (data: Buffer): boolean => data.length === TOKEN_ACCOUNT_LEN && data.readUInt32LE(109) === 1;

export const tokenAmount = (data: Buffer): bigint => data.readBigUInt64LE(64);
export const setTokenAmount = (data: Buffer, amount: bigint): void => {
  data.writeBigUInt64LE(amount, 64);
};

export function mintData(mintAuthority: Uint8Array | null, supply: bigint, decimals: number): Buffer {
  const d = Buffer.alloc(MINT_LEN);
  if (mintAuthority) {
    d.writeUInt32LE(1, 0);
    d.set(mintAuthority, 4);
  }
  d.writeBigUInt64LE(supply, 36);
  d[44] = decimals;
  d[45] = 1; // is_initialized; freeze authority (46..82) None
  return d;
}

export const mintSupply = (data: Buffer): bigint => data.readBigUInt64LE(36);

export interface CurveState {
  virtualTokenReserves: bigint;
  virtualSolReserves: bigint;
  realTokenReserves: bigint;
  realSolReserves: bigint;
  tokenTotalSupply: bigint;
  complete: boolean;
}

export function writeCurve(d: Buffer, c: CurveState): void {
  d.writeBigUInt64LE(c.virtualTokenReserves, 8);
  d.writeBigUInt64LE(c.virtualSolReserves, 16);
  d.writeBigUInt64LE(c.realTokenReserves, 24);
  d.writeBigUInt64LE(c.realSolReserves, 32);
  d.writeBigUInt64LE(c.tokenTotalSupply, 40);
  d[48] = c.complete ? 1 : 0;
}

export function readCurve(d: Buffer): CurveState {
  return {
    virtualTokenReserves: d.readBigUInt64LE(8),
    virtualSolReserves: d.readBigUInt64LE(16),
    realTokenReserves: d.readBigUInt64LE(24),
    realSolReserves: d.readBigUInt64LE(32),
    tokenTotalSupply: d.readBigUInt64LE(40),
    complete: d[48] === 1,
  };
}

/**
 * BondingCurve: discriminator, the six original fields, then (later versions) the creator at 49,
 * is_mayhem_mode at 81, is_cashback_coin at 82 and quote_mint at 83 (all zero here: no mayhem, no cashback,
 * quoted in SOL, which the program writes as the all-zero key).
 */
export function bondingCurveData(c: CurveState, creator: Uint8Array): Buffer {
  const d = Buffer.alloc(BONDING_CURVE_LEN);
  d.set(PUMP_ACCOUNT.bondingCurve, 0);
  writeCurve(d, c);
  d.set(creator, 49);
  return d;
}

export interface GlobalParams {
  authority: Uint8Array;
  feeRecipient: Uint8Array;
  initialVirtualTokenReserves: bigint;
  initialVirtualSolReserves: bigint;
  initialRealTokenReserves: bigint;
  tokenTotalSupply: bigint;
  feeBasisPoints: bigint;
  /** Not in the original Global layout the simulator writes; charged and reported in TradeEvent. */
  creatorFeeBasisPoints: bigint;
  poolMigrationFee: bigint;
}

/** Global, original layout: initialized, authority, fee_recipient, then five u64. */
export function pumpGlobalData(g: GlobalParams): Buffer {
  const d = Buffer.alloc(PUMP_GLOBAL_LEN);
  d.set(PUMP_ACCOUNT.global, 0);
  d[8] = 1;
  d.set(g.authority, 9);
  d.set(g.feeRecipient, 41);
  d.writeBigUInt64LE(g.initialVirtualTokenReserves, 73);
  d.writeBigUInt64LE(g.initialVirtualSolReserves, 81);
  d.writeBigUInt64LE(g.initialRealTokenReserves, 89);
  d.writeBigUInt64LE(g.tokenTotalSupply, 97);
  d.writeBigUInt64LE(g.feeBasisPoints, 105);
  return d;
}

export function lastWithdrawData(unixTimestamp: bigint): Buffer {
  const d = Buffer.alloc(LAST_WITHDRAW_LEN);
  d.set(PUMP_ACCOUNT.lastWithdraw, 0);
  d.writeBigInt64LE(unixTimestamp, 8);
  return d;
}

/**
 * Address lookup table: LookupTableMeta (u32 type 1, deactivation_slot u64 = max, last_extended_slot
 * u64, last_extended_slot_start_index u8, authority Option<Pubkey>, u16 padding) = 56 bytes, then addresses.
 */
export function lookupTableData(authority: Uint8Array, addresses: readonly Uint8Array[]): Buffer {
  const d = Buffer.alloc(LOOKUP_TABLE_META_LEN + 32 * addresses.length);
  d.writeUInt32LE(1, 0);
  d.writeBigUInt64LE(0xffff_ffff_ffff_ffffn, 4);
  d.writeBigUInt64LE(0n, 12);
  d[20] = 0;
  d[21] = 1;
  d.set(authority, 22);
  addresses.forEach((a, i) => d.set(a, LOOKUP_TABLE_META_LEN + 32 * i));
  return d;
}

/**
 * Compact vote state, NOT Agave's 3,762-byte VoteState: u32 version 2, node pubkey, authorized
 * withdrawer, commission, last voted slot, root slot, credits (93 bytes). Keeps the benchmark's byte
 * rate sensible while still changing on every vote.
 */
export function voteStateData(node: Uint8Array, withdrawer: Uint8Array, commission: number): Buffer {
  const d = Buffer.alloc(VOTE_STATE_LEN);
  d.writeUInt32LE(2, 0);
  d.set(node, 4);
  d.set(withdrawer, 36);
  d[68] = commission;
  return d;
}

export function recordVote(d: Buffer, votedSlot: bigint): void {
  d.writeBigUInt64LE(votedSlot, 69);
  d.writeBigUInt64LE(votedSlot > 32n ? votedSlot - 32n : 0n, 77);
  d.writeBigUInt64LE(d.readBigUInt64LE(85) + 1n, 85);
}

function borshString(s: string, pad: number): Buffer {
  const text = Buffer.from(s, 'utf8');
  const out = Buffer.alloc(4 + pad);
  out.writeUInt32LE(pad, 0);
  text.copy(out, 4, 0, Math.min(text.length, pad));
  return out;
}

/** Metaplex Metadata prefix (key 4, update authority, mint, padded name/symbol/uri, ...), 679 bytes. */
export function metadataData(updateAuthority: Uint8Array, mint: Uint8Array, name: string, symbol: string, uri: string): Buffer {
  const d = Buffer.alloc(METADATA_LEN);
  let o = 0;
  d[o++] = 4;
  d.set(updateAuthority, o);
  o += 32;
  d.set(mint, o);
  o += 32;
  for (const part of [borshString(name, 32), borshString(symbol, 10), borshString(uri, 200)]) {
    part.copy(d, o);
    o += part.length;
  }
  o += 2; // seller_fee_basis_points 0
  d[o++] = 0; // creators: None
  d[o++] = 0; // primary_sale_happened
  d[o] = 1; // is_mutable
  return d;
}

/** pump.fun UserVolumeAccumulator: user, needs_claim, token incentives, SOL volume, timestamps, cashback. */
export const USER_VOLUME_ACCUMULATOR_LEN = 8 + 98;
const UVA_SOL_VOLUME = 57;
const UVA_LAST_UPDATE = 65;

export function userVolumeAccumulatorData(user: Uint8Array): Buffer {
  const d = Buffer.alloc(USER_VOLUME_ACCUMULATOR_LEN);
  d.set(PUMP_ACCOUNT.userVolumeAccumulator, 0);
  d.set(user, 8);
  return d;
}

export const trackedSolVolume = (d: Buffer): bigint => d.readBigUInt64LE(UVA_SOL_VOLUME);

/** Adds a tracked trade's SOL to the user's volume; returns the new total. */
export function trackVolume(d: Buffer, sol: bigint, timestamp: bigint): bigint {
  const total = d.readBigUInt64LE(UVA_SOL_VOLUME) + sol;
  d.writeBigUInt64LE(total, UVA_SOL_VOLUME);
  d.writeBigInt64LE(timestamp, UVA_LAST_UPDATE);
  return total;
}

export interface PoolState {
  bump: number;
  index: number;
  creator: Uint8Array;
  baseMint: Uint8Array;
  quoteMint: Uint8Array;
  lpMint: Uint8Array;
  poolBaseTokenAccount: Uint8Array;
  poolQuoteTokenAccount: Uint8Array;
  lpSupply: bigint;
  coinCreator: Uint8Array;
}

/** PumpSwap Pool (IDL field order): bump, index, creator, mints, token accounts, lp_supply, coin_creator, flags. */
export function poolData(p: PoolState): Buffer {
  return borsh(256)
    .bytes(PUMP_AMM_ACCOUNT.pool)
    .u8(p.bump)
    .u16(p.index)
    .pubkey(p.creator)
    .pubkey(p.baseMint)
    .pubkey(p.quoteMint)
    .pubkey(p.lpMint)
    .pubkey(p.poolBaseTokenAccount)
    .pubkey(p.poolQuoteTokenAccount)
    .u64(p.lpSupply)
    .pubkey(p.coinCreator)
    .bool(false) // is_mayhem_mode
    .bool(false) // is_cashback_coin
    .done();
}

export interface AmmFees {
  lpFeeBasisPoints: bigint;
  protocolFeeBasisPoints: bigint;
  coinCreatorFeeBasisPoints: bigint;
}

/** PumpSwap GlobalConfig (IDL field order), as its admin configured it. */
export function ammGlobalConfigData(admin: Uint8Array, fees: AmmFees, protocolFeeRecipient: Uint8Array): Buffer {
  const w = borsh(1024)
    .bytes(PUMP_AMM_ACCOUNT.globalConfig)
    .pubkey(admin)
    .u64(fees.lpFeeBasisPoints)
    .u64(fees.protocolFeeBasisPoints)
    .u8(0);
  for (let i = 0; i < 8; i++) w.pubkey(i === 0 ? protocolFeeRecipient : ZERO_KEY);
  w.u64(fees.coinCreatorFeeBasisPoints).pubkey(admin).pubkey(ZERO_KEY).pubkey(ZERO_KEY).bool(false);
  for (let i = 0; i < 7; i++) w.pubkey(ZERO_KEY);
  w.bool(false);
  for (let i = 0; i < 8; i++) w.pubkey(ZERO_KEY);
  return w.u64(0n).done();
}

export const ZERO_KEY = Buffer.alloc(32);

/**
 * The October 2026 BondingCurve (IDL-2293, pump-2026-10.md §3.1) ends at 166: after quote_mint (83..115) come
 * creator_fee_bps, can_edit_creator_fee, is_holder_reward, then the fees v3 trades keep on the curve until a sweep
 * (creator_fee @125, protocol_fees @133), depth @141, initial_virtual_quote_reserves @142 and the synthetic
 * migration's pool part (post_complete_base_out @150, post_complete_quote_in @158). Older, shorter curves read
 * the missing fields as 0 and grow on their first v3 trade or sweep (rent top-up from the payer), as mainnet's do.
 */
export const BONDING_CURVE_2026_10_LEN = 166;

export interface CurveFees {
  creatorFee: bigint;
  protocolFees: bigint;
  postCompleteBaseOut: bigint;
  postCompleteQuoteIn: bigint;
}

const u64At = (d: Buffer, at: number): bigint => (d.length >= at + 8 ? d.readBigUInt64LE(at) : 0n);

export function readCurveFees(d: Buffer): CurveFees {
  return { creatorFee: u64At(d, 125), protocolFees: u64At(d, 133), postCompleteBaseOut: u64At(d, 150), postCompleteQuoteIn: u64At(d, 158) };
}

/** Writes the fee fields of a curve already grown to BONDING_CURVE_2026_10_LEN. */
export function writeCurveFees(d: Buffer, f: CurveFees): void {
  d.writeBigUInt64LE(f.creatorFee, 125);
  d.writeBigUInt64LE(f.protocolFees, 133);
  d.writeBigUInt64LE(f.postCompleteBaseOut, 150);
  d.writeBigUInt64LE(f.postCompleteQuoteIn, 158);
}

/** An older curve's data at the October 2026 length, initial_virtual_quote_reserves set (the rest 0). */
export function grownCurveData(d: Buffer, initialVirtualQuoteReserves: bigint): Buffer {
  if (d.length >= BONDING_CURVE_2026_10_LEN) return d;
  const out = Buffer.alloc(BONDING_CURVE_2026_10_LEN);
  d.copy(out);
  out.writeBigUInt64LE(initialVirtualQuoteReserves, 142);
  return out;
}

/**
 * The October 2026 Pool (AMM-IDL-8cda, pump-2026-10.md §3.2) ends at 287: after is_cashback_coin (244) come the
 * signed virtual_quote_reserves (i128 @245), creator_fee_bps @261, can_edit_creator_fee, is_holder_reward, and the
 * fees v2 trades keep in the quote vault until a sweep (protocol_fees @271, creator_fees @279). Effective quote
 * reserves = vault amount + virtual_quote_reserves; v2 trades subtract the fees they keep, sweeps add them back.
 */
export const POOL_2026_10_LEN = 287;

export interface PoolFees {
  virtualQuoteReserves: bigint;
  protocolFees: bigint;
  creatorFees: bigint;
}

export function readPoolFees(d: Buffer): PoolFees {
  if (d.length < POOL_2026_10_LEN) return { virtualQuoteReserves: 0n, protocolFees: 0n, creatorFees: 0n };
  const lo = d.readBigUInt64LE(245);
  const hi = d.readBigInt64LE(253);
  return { virtualQuoteReserves: (hi << 64n) | lo, protocolFees: d.readBigUInt64LE(271), creatorFees: d.readBigUInt64LE(279) };
}

export function writePoolFees(d: Buffer, f: PoolFees): void {
  const v = BigInt.asUintN(128, f.virtualQuoteReserves);
  d.writeBigUInt64LE(v & 0xffff_ffff_ffff_ffffn, 245);
  d.writeBigUInt64LE(v >> 64n, 253);
  d.writeBigUInt64LE(f.protocolFees, 271);
  d.writeBigUInt64LE(f.creatorFees, 279);
}

/** An older pool's data at the October 2026 length (the new fields 0). */
export function grownPoolData(d: Buffer): Buffer {
  if (d.length >= POOL_2026_10_LEN) return d;
  const out = Buffer.alloc(POOL_2026_10_LEN);
  d.copy(out);
  return out;
}

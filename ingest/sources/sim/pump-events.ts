// The events pump.fun and PumpSwap emit, in today's layouts, and how they reach the transaction's meta. Both
// programs emit each event twice, as mainnet shows: a `Program data: <base64>` log line (Anchor's `emit!`) and a
// self-CPI (`emit_cpi!`): the program invokes itself, signed by its `__event_authority` PDA, with data
// EVENT_IX_TAG + the event's 8-byte discriminator + its borsh fields. Field order and types follow the official
// IDLs (pump-public-docs 1b822158) plus the fields mainnet appended since (TradeEvent's last 3 and BuyEvent's last
// 6, pump-public-docs 8cda1fa3; see ../shared/data/mainnet/pump/README.md): every event is written whole.
import type { Acct } from './accounts.js';
import { borsh } from './borsh.js';
import { ZERO_KEY } from './layouts.js';
import { EVENT_IX_TAG, PUMP_AMM_EVENT, PUMP_EVENT } from './programs.js';
import type { Step } from './trace.js';

/** The log line and the self-CPI of one event (in the order the programs write them). The event is only
 * encoded when the transaction's meta is recorded (fast-forward records none). */
export function emitEvent(recording: boolean, program: Acct, eventAuthority: Acct, encode: () => Buffer): Step[] {
  if (!recording) return [];
  const data = encode();
  return [{ log: `Program data: ${data.toString('base64', 8)}` }, { program, accounts: [eventAuthority], data }];
}

/** Every encoder writes the self-CPI's data whole: EVENT_IX_TAG, then the event (the log line skips the tag). */
const event = (capacity: number, discriminator: Buffer) => borsh(capacity).bytes(EVENT_IX_TAG).bytes(discriminator);

type Key = Uint8Array;

export interface TradeEvent {
  mint: Key;
  solAmount: bigint;
  tokenAmount: bigint;
  isBuy: boolean;
  user: Key;
  timestamp: bigint;
  /** The curve after the trade. */
  virtualSolReserves: bigint;
  virtualTokenReserves: bigint;
  realSolReserves: bigint;
  realTokenReserves: bigint;
  feeRecipient: Key;
  feeBasisPoints: bigint;
  fee: bigint;
  creator: Key;
  creatorFeeBasisPoints: bigint;
  creatorFee: bigint;
  trackVolume: boolean;
  currentSolVolume: bigint;
  lastUpdateTimestamp: bigint;
  /** The handler's name as the program writes it (`buy`, `sell`, `buy_exact_sol_in`, `buy_exact_quote_in`). */
  ixName: string;
  /** Creator fee the creator has not collected yet (what its vault holds above rent). */
  creatorFeeUnclaimed: bigint;
}

/**
 * TradeEvent, 35 fields. No mayhem, cashback, buyback, shareholders or holder rewards are simulated (zeros, an
 * empty list); a SOL-quoted curve writes quote_mint as the all-zero key and repeats the SOL amount and reserves
 * as the quote ones (as record 23 of the real data shows).
 */
export function tradeEvent(e: TradeEvent): Buffer {
  return event(400, PUMP_EVENT.trade)
    .pubkey(e.mint)
    .u64(e.solAmount)
    .u64(e.tokenAmount)
    .bool(e.isBuy)
    .pubkey(e.user)
    .i64(e.timestamp)
    .u64(e.virtualSolReserves)
    .u64(e.virtualTokenReserves)
    .u64(e.realSolReserves)
    .u64(e.realTokenReserves)
    .pubkey(e.feeRecipient)
    .u64(e.feeBasisPoints)
    .u64(e.fee)
    .pubkey(e.creator)
    .u64(e.creatorFeeBasisPoints)
    .u64(e.creatorFee)
    .bool(e.trackVolume)
    .u64(0n) // total_unclaimed_tokens
    .u64(0n) // total_claimed_tokens
    .u64(e.currentSolVolume)
    .i64(e.lastUpdateTimestamp)
    .string(e.ixName)
    .bool(false) // mayhem_mode
    .u64(0n) // cashback_fee_basis_points
    .u64(0n) // cashback
    .u64(0n) // buyback_fee_basis_points
    .u64(0n) // buyback_fee
    .u32(0) // shareholders: empty
    .pubkey(ZERO_KEY) // quote_mint: SOL
    .u64(e.solAmount) // quote_amount
    .u64(e.virtualSolReserves) // virtual_quote_reserves
    .u64(e.realSolReserves) // real_quote_reserves
    .u64(0n) // holder_rewards_bps
    .u64(0n) // holder_rewards
    .u64(e.creatorFeeUnclaimed)
    .done();
}

export interface CreateEvent {
  name: string;
  symbol: string;
  uri: string;
  mint: Key;
  bondingCurve: Key;
  user: Key;
  creator: Key;
  timestamp: bigint;
  virtualTokenReserves: bigint;
  virtualSolReserves: bigint;
  realTokenReserves: bigint;
  tokenTotalSupply: bigint;
  tokenProgram: Key;
}

/** CreateEvent, the October 2026 IDL's 20 fields (IDL-2293: the 17 of May, then creator_fee_bps, is_holder_reward, depth). */
export function createEvent(e: CreateEvent): Buffer {
  return event(400, PUMP_EVENT.create)
    .string(e.name)
    .string(e.symbol)
    .string(e.uri)
    .pubkey(e.mint)
    .pubkey(e.bondingCurve)
    .pubkey(e.user)
    .pubkey(e.creator)
    .i64(e.timestamp)
    .u64(e.virtualTokenReserves)
    .u64(e.virtualSolReserves)
    .u64(e.realTokenReserves)
    .u64(e.tokenTotalSupply)
    .pubkey(e.tokenProgram)
    .bool(false) // is_mayhem_mode
    .bool(false) // is_cashback_enabled
    .pubkey(ZERO_KEY) // quote_mint: SOL
    .u64(e.virtualSolReserves) // virtual_quote_reserves
    .u64(0n) // creator_fee_bps: SOL quotes ignore it
    .bool(false) // is_holder_reward
    .u8(0) // depth: SOL-quoted
    .done();
}

export function completeEvent(e: { user: Key; mint: Key; bondingCurve: Key; timestamp: bigint }): Buffer {
  return event(160, PUMP_EVENT.complete).pubkey(e.user).pubkey(e.mint).pubkey(e.bondingCurve).i64(e.timestamp).pubkey(ZERO_KEY).done();
}

export interface MigrationEvent {
  user: Key;
  mint: Key;
  mintAmount: bigint;
  solAmount: bigint;
  poolMigrationFee: bigint;
  bondingCurve: Key;
  timestamp: bigint;
  pool: Key;
}

export function completePumpAmmMigrationEvent(e: MigrationEvent): Buffer {
  return event(256, PUMP_EVENT.completePumpAmmMigration)
    .pubkey(e.user)
    .pubkey(e.mint)
    .u64(e.mintAmount)
    .u64(e.solAmount)
    .u64(e.poolMigrationFee)
    .pubkey(e.bondingCurve)
    .i64(e.timestamp)
    .pubkey(e.pool)
    .pubkey(ZERO_KEY) // quote_mint: SOL
    .done();
}

export interface SetParamsEvent {
  initialVirtualTokenReserves: bigint;
  initialVirtualSolReserves: bigint;
  initialRealTokenReserves: bigint;
  finalRealSolReserves: bigint;
  tokenTotalSupply: bigint;
  feeBasisPoints: bigint;
  withdrawAuthority: Key;
  poolMigrationFee: bigint;
  creatorFeeBasisPoints: bigint;
  feeRecipient: Key;
  timestamp: bigint;
  authority: Key;
}

export function setParamsEvent(e: SetParamsEvent): Buffer {
  const w = event(512, PUMP_EVENT.setParams)
    .u64(e.initialVirtualTokenReserves)
    .u64(e.initialVirtualSolReserves)
    .u64(e.initialRealTokenReserves)
    .u64(e.finalRealSolReserves)
    .u64(e.tokenTotalSupply)
    .u64(e.feeBasisPoints)
    .pubkey(e.withdrawAuthority)
    .bool(true) // enable_migrate
    .u64(e.poolMigrationFee)
    .u64(e.creatorFeeBasisPoints);
  for (let i = 0; i < 8; i++) w.pubkey(i === 0 ? e.feeRecipient : ZERO_KEY);
  return w.i64(e.timestamp).pubkey(e.authority).pubkey(e.authority).done();
}

/** What PumpSwap's buy and sell events share: the pool and accounts, reserves BEFORE the trade, fees. */
export interface SwapEvent {
  timestamp: bigint;
  userBaseTokenReserves: bigint;
  userQuoteTokenReserves: bigint;
  poolBaseTokenReserves: bigint;
  poolQuoteTokenReserves: bigint;
  lpFeeBasisPoints: bigint;
  lpFee: bigint;
  protocolFeeBasisPoints: bigint;
  protocolFee: bigint;
  pool: Key;
  user: Key;
  userBaseTokenAccount: Key;
  userQuoteTokenAccount: Key;
  protocolFeeRecipient: Key;
  protocolFeeRecipientTokenAccount: Key;
  coinCreator: Key;
  coinCreatorFeeBasisPoints: bigint;
  coinCreatorFee: bigint;
}

export interface BuyEvent extends SwapEvent {
  baseAmountOut: bigint;
  maxQuoteAmountIn: bigint;
  quoteAmountIn: bigint;
  quoteAmountInWithLpFee: bigint;
  userQuoteAmountIn: bigint;
  trackVolume: boolean;
  baseSupply: bigint;
}

function swapMiddle(w: ReturnType<typeof borsh>, e: SwapEvent): void {
  w.pubkey(e.pool)
    .pubkey(e.user)
    .pubkey(e.userBaseTokenAccount)
    .pubkey(e.userQuoteTokenAccount)
    .pubkey(e.protocolFeeRecipient)
    .pubkey(e.protocolFeeRecipientTokenAccount)
    .pubkey(e.coinCreator)
    .u64(e.coinCreatorFeeBasisPoints)
    .u64(e.coinCreatorFee);
}

/** BuyEvent, 40 fields: the IDL's 34 and the 6 mainnet appended since. */
export function buyEvent(e: BuyEvent): Buffer {
  const w = event(512, PUMP_AMM_EVENT.buy)
    .i64(e.timestamp)
    .u64(e.baseAmountOut)
    .u64(e.maxQuoteAmountIn)
    .u64(e.userBaseTokenReserves)
    .u64(e.userQuoteTokenReserves)
    .u64(e.poolBaseTokenReserves)
    .u64(e.poolQuoteTokenReserves)
    .u64(e.quoteAmountIn)
    .u64(e.lpFeeBasisPoints)
    .u64(e.lpFee)
    .u64(e.protocolFeeBasisPoints)
    .u64(e.protocolFee)
    .u64(e.quoteAmountInWithLpFee)
    .u64(e.userQuoteAmountIn);
  swapMiddle(w, e);
  return w
    .bool(e.trackVolume)
    .u64(0n) // total_unclaimed_tokens
    .u64(0n) // total_claimed_tokens
    .u64(0n) // current_sol_volume (PumpSwap's volume accumulators are not simulated)
    .i64(0n) // last_update_timestamp
    .u64(0n) // min_base_amount_out: 0 for `buy` (it is buy_exact_quote_in's limit)
    .string('buy')
    .u64(0n) // cashback_fee_basis_points
    .u64(0n) // cashback
    .u64(0n) // buyback_fee_basis_points
    .u64(0n) // buyback_fee
    .i128(0n) // virtual_quote_reserves
    .bool(false) // can_boost
    .u64(e.baseSupply)
    .u64(0n) // holder_rewards_bps
    .u64(0n) // holder_rewards
    .u64(0n) // creator_fee_unclaimed
    .done();
}

export interface SellEvent extends SwapEvent {
  baseAmountIn: bigint;
  minQuoteAmountOut: bigint;
  quoteAmountOut: bigint;
  quoteAmountOutWithoutLpFee: bigint;
  userQuoteAmountOut: bigint;
  baseSupply: bigint;
}

/** SellEvent, the October 2026 IDL's 33 fields (AMM-IDL-8cda: the 27 of May, then the six BuyEvent also gained). */
export function sellEvent(e: SellEvent): Buffer {
  const w = event(512, PUMP_AMM_EVENT.sell)
    .i64(e.timestamp)
    .u64(e.baseAmountIn)
    .u64(e.minQuoteAmountOut)
    .u64(e.userBaseTokenReserves)
    .u64(e.userQuoteTokenReserves)
    .u64(e.poolBaseTokenReserves)
    .u64(e.poolQuoteTokenReserves)
    .u64(e.quoteAmountOut)
    .u64(e.lpFeeBasisPoints)
    .u64(e.lpFee)
    .u64(e.protocolFeeBasisPoints)
    .u64(e.protocolFee)
    .u64(e.quoteAmountOutWithoutLpFee)
    .u64(e.userQuoteAmountOut);
  swapMiddle(w, e);
  w.u64(0n).u64(0n).u64(0n).u64(0n); // cashback and buyback: none
  // virtual_quote_reserves i128 (0: no boost), can_boost, base_supply, holder_rewards_bps, holder_rewards, creator_fee_unclaimed
  return w.i128(0n).bool(false).u64(e.baseSupply).u64(0n).u64(0n).u64(0n).done();
}

export interface CreatePoolEvent {
  timestamp: bigint;
  creator: Key;
  baseMint: Key;
  quoteMint: Key;
  baseMintDecimals: number;
  quoteMintDecimals: number;
  baseAmountIn: bigint;
  quoteAmountIn: bigint;
  minimumLiquidity: bigint;
  initialLiquidity: bigint;
  lpTokenAmountOut: bigint;
  poolBump: number;
  pool: Key;
  lpMint: Key;
  userBaseTokenAccount: Key;
  userQuoteTokenAccount: Key;
  coinCreator: Key;
}

/** CreatePoolEvent, the October 2026 IDL's 24 fields (AMM-IDL-8cda: the 21 of May, then creator_fee_bps,
 * can_edit_creator_fee, is_holder_reward; index 0: the canonical pool; what went in is what the pool holds). */
export function createPoolEvent(e: CreatePoolEvent): Buffer {
  return event(512, PUMP_AMM_EVENT.createPool)
    .i64(e.timestamp)
    .u16(0)
    .pubkey(e.creator)
    .pubkey(e.baseMint)
    .pubkey(e.quoteMint)
    .u8(e.baseMintDecimals)
    .u8(e.quoteMintDecimals)
    .u64(e.baseAmountIn)
    .u64(e.quoteAmountIn)
    .u64(e.baseAmountIn) // pool_base_amount
    .u64(e.quoteAmountIn) // pool_quote_amount
    .u64(e.minimumLiquidity)
    .u64(e.initialLiquidity)
    .u64(e.lpTokenAmountOut)
    .u8(e.poolBump)
    .pubkey(e.pool)
    .pubkey(e.lpMint)
    .pubkey(e.userBaseTokenAccount)
    .pubkey(e.userQuoteTokenAccount)
    .pubkey(e.coinCreator)
    .bool(false) // is_mayhem_mode
    .u64(0n) // creator_fee_bps
    .bool(false) // can_edit_creator_fee
    .bool(false) // is_holder_reward
    .done();
}

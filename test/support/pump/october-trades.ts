// Transactions of the October 2026 pump.fun / PumpSwap programs, built from the bundled tables' layouts with the
// Borsh writer (no real transaction of these instructions is in ../shared/data/mainnet/pump). The facts they rest on,
// from ../shared/spec/pump-2026-10.md: v3 trades emit a TradeEvent whose fee_recipient is the zero key (fees kept on
// the curve, §1.1); a synthetic migration emits TradeEvent, CompleteEvent, PostCompleteBuyEvent in that order (§1.6);
// PumpSwap v2 trades emit BuyEvent with ix_name buy_v2 (§1.7); multi_hop_swap passes 16 fixed accounts then 5 per
// hop [base mint, quote mint, curve or pool, two vaults], a curve hop runs pump's multi_hop_curve_swap by CPI and
// each hop emits its own event with ix_name multi_hop_swap (§1.3, §1.7); sweeps carry no data and emit
// SweepBondingCurveFeeEvent / SweepPoolFeeEvent (bucket 0 protocol, 1 creator, §1.2, §2.8). Every event is a
// self-CPI inner instruction one stack level below its program's instruction.
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { encodeEventInstruction, encodeInstruction } from '../../../schemas/pumpfun/borsh-writer.js';
import type { FieldType, Value } from '../../../schemas/pumpfun/layout.js';
import type { EventDef, InstructionDef, ProgramTable } from '../../../schemas/pumpfun/program-table.js';
import { PUMP } from '../../../schemas/pumpfun/pump-table.js';
import { PUMP_AMM } from '../../../schemas/pumpfun/pump-amm-table.js';
import type { TransactionEvent } from '../../../schemas/gen/events.js';

export const USDC = Buffer.from(bs58.decode('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'));
export const WSOL = Buffer.from(bs58.decode('So11111111111111111111111111111111111111112'));
export const ZERO = Buffer.alloc(32);

const ixDef = (t: ProgramTable, name: string): InstructionDef => t.instructions.find((d) => d.name === name)!;
const evDef = (t: ProgramTable, name: string): EventDef => t.events.find((d) => d.name === name)!;

function zeroOf(t: FieldType): Value {
  switch (t.k) {
    case 'u64':
    case 'i64':
    case 'u128':
    case 'i128':
      return 0n;
    case 'u8':
    case 'u16':
    case 'u32':
      return 0;
    case 'bool':
      return false;
    case 'pubkey':
      return ZERO;
    case 'string':
      return '';
    case 'bytes':
      return Buffer.alloc(0);
    case 'option':
      return null;
    case 'vec':
      return [];
    case 'struct':
      return t.tuple ? t.fields.map((f) => zeroOf(f.type)) : Object.fromEntries(t.fields.map((f) => [f.name, zeroOf(f.type)]));
    default:
      throw new TypeError(`no zero for ${t.k}`);
  }
}

/** Every field of `def` (the newest layout), zero where `values` does not say. */
function whole(def: { fields: readonly { name: string; type: FieldType }[] }, values: Record<string, Value>): Record<string, Value> {
  return Object.fromEntries(def.fields.map((f) => [f.name, Object.hasOwn(values, f.name) ? values[f.name]! : zeroOf(f.type)]));
}

/** One instruction in program order: its program, its accounts by table name (the rest fresh keys) plus any
 * remaining accounts, its args, and the events it emits and the instructions it invokes. */
interface Call {
  table: ProgramTable;
  name: string;
  args?: Record<string, Value>;
  accounts?: Record<string, Buffer>;
  remaining?: Buffer[];
  events?: { name: string; fields: Record<string, Value> }[];
  calls?: Call[];
}

/** The pieces of a TransactionEvent (keys, top-level instructions and their inner groups) for `calls` signed by
 * `signer`; pass them to test/support/grpc/clients.ts txEvent or TransactionEvent.fromPartial. */
export function pumpTx(signer: Buffer, calls: Call[]): Pick<TransactionEvent, 'accountKeys' | 'instructions' | 'innerInstructions'> {
  const keys: Buffer[] = [signer];
  const at = (k: Buffer): number => {
    let i = keys.findIndex((x) => x.equals(k));
    if (i < 0) i = keys.push(k) - 1;
    return i;
  };
  const compile = (c: Call) => {
    const def = ixDef(c.table, c.name);
    const accounts = def.accounts.map((n) => at(c.accounts?.[n] ?? (n === 'user' || n === 'payer' ? signer : randomBytes(32))));
    for (const k of c.remaining ?? []) accounts.push(at(k));
    return {
      programIdIndex: at(c.table.programIdBytes),
      accounts: Buffer.from(accounts),
      data: encodeInstruction(def, whole(def, c.args ?? {})),
    };
  };
  const instructions: TransactionEvent['instructions'] = [];
  const innerInstructions: TransactionEvent['innerInstructions'] = [];
  calls.forEach((c, index) => {
    instructions.push(compile(c));
    const group: TransactionEvent['innerInstructions'][number]['instructions'] = [];
    const walk = (x: Call, height: number) => {
      for (const e of x.events ?? []) {
        const def = evDef(x.table, e.name);
        group.push({
          programIdIndex: at(x.table.programIdBytes),
          accounts: Buffer.from([at(Buffer.from(bs58.decode(x.table.eventAuthority!)))]),
          data: encodeEventInstruction(def, whole(def, e.fields)),
          stackHeight: height + 1,
        });
      }
      for (const inner of x.calls ?? []) {
        group.push({ ...compile(inner), stackHeight: height + 1 });
        walk(inner, height + 1);
      }
    };
    walk(c, 1);
    if (group.length > 0) innerInstructions.push({ index, instructions: group });
  });
  return { accountKeys: keys, instructions, innerInstructions };
}

/** The coins, curves and pools of one scenario (fresh keys). */
export interface Market {
  mint: Buffer;
  curve: Buffer;
  pool: Buffer;
}
export const market = (): Market => ({ mint: randomBytes(32), curve: randomBytes(32), pool: randomBytes(32) });

/** A pump buy_v3 of a USDC-quoted coin: 1,000 base tokens for 2,500,000 USDC units, fees kept on the curve. */
export function v3Buy(user: Buffer, m: Market): Call {
  return {
    table: PUMP,
    name: 'buy_v3',
    args: { amount: 1_000n, max_sol_cost: 3_000_000n, partial_fill: [false] },
    accounts: { base_mint: m.mint, quote_mint: USDC, bonding_curve: m.curve },
    events: [
      {
        name: 'TradeEvent',
        fields: {
          mint: m.mint,
          sol_amount: 2_500_000n,
          token_amount: 1_000n,
          is_buy: true,
          user,
          fee_recipient: ZERO,
          fee: 25_000n,
          creator_fee: 7_500n,
          ix_name: 'buy_v3',
          buyback_fee: 1_000n,
          quote_mint: USDC,
          quote_amount: 2_500_000n,
          holder_rewards_bps: 30n,
          holder_rewards: 7_500n,
          creator_fee_unclaimed: 107_500n,
        },
      },
    ],
  };
}

/** A pump sell_v3 of a SOL coin (TradeEvent quote_mint the zero key: SOL). */
export function v3Sell(user: Buffer, m: Market): Call {
  return {
    table: PUMP,
    name: 'sell_v3',
    args: { amount: 500n, min_sol_output: 1n },
    accounts: { base_mint: m.mint, quote_mint: WSOL, bonding_curve: m.curve },
    events: [
      {
        name: 'TradeEvent',
        fields: {
          mint: m.mint,
          sol_amount: 90_000n,
          token_amount: 500n,
          user,
          ix_name: 'sell_v3',
          quote_mint: ZERO,
          quote_amount: 90_000n,
        },
      },
    ],
  };
}

/** A PumpSwap buy_v2 of a SOL pool: 4,000 base for 800,000 lamports, fees kept in the pool. */
export function ammV2Buy(user: Buffer, m: Market): Call {
  return {
    table: PUMP_AMM,
    name: 'buy_v2',
    args: { base_amount_out: 4_000n, max_quote_amount_in: 900_000n },
    accounts: { pool: m.pool, base_mint: m.mint, quote_mint: WSOL },
    events: [
      {
        name: 'BuyEvent',
        fields: {
          base_amount_out: 4_000n,
          quote_amount_in: 800_000n,
          lp_fee: 1_600n,
          protocol_fee: 7_600n,
          pool: m.pool,
          user,
          coin_creator_fee: 2_400n,
          ix_name: 'buy_v2',
          buyback_fee: 400n,
          virtual_quote_reserves: -12_345n,
          creator_fee_unclaimed: 9_999n,
        },
      },
    ],
  };
}

/** PumpSwap multi_hop_swap selling... buying: SOL → coin A on its pool → coin B on B's curve (quoted in A). */
export function multiHop(user: Buffer, a: Market, b: Market): Call {
  return {
    table: PUMP_AMM,
    name: 'multi_hop_swap',
    args: { amount_in: 1_000_000n, min_amount_out: 1n },
    remaining: [a.mint, WSOL, a.pool, randomBytes(32), randomBytes(32), b.mint, a.mint, b.curve, randomBytes(32), randomBytes(32)],
    events: [
      {
        name: 'BuyEvent',
        fields: {
          base_amount_out: 50_000n,
          quote_amount_in: 990_000n,
          protocol_fee: 10_000n,
          pool: a.pool,
          user,
          ix_name: 'multi_hop_swap',
        },
      },
    ],
    calls: [
      {
        table: PUMP,
        name: 'multi_hop_curve_swap',
        args: { amount_in: 50_000n, hop_fees: Buffer.from([2]) },
        events: [
          {
            name: 'TradeEvent',
            fields: {
              mint: b.mint,
              sol_amount: 50_000n,
              token_amount: 7_000n,
              is_buy: true,
              user,
              fee_recipient: ZERO,
              creator_fee: 500n,
              ix_name: 'multi_hop_swap',
              quote_mint: a.mint,
              quote_amount: 49_500n,
            },
          },
        ],
      },
    ],
  };
}

/** pump sweep_creator_fee of a curve: 107,500 USDC units to the creator vault. */
export function curveSweep(m: Market, recipient: Buffer): Call {
  return {
    table: PUMP,
    name: 'sweep_creator_fee',
    accounts: { base_mint: m.mint, quote_mint: USDC, bonding_curve: m.curve, recipient },
    events: [
      {
        name: 'SweepBondingCurveFeeEvent',
        fields: {
          timestamp: 1_760_000_000n,
          mint: m.mint,
          bonding_curve: m.curve,
          quote_mint: USDC,
          recipient,
          amount: 107_500n,
          bucket: 1,
        },
      },
    ],
  };
}

/** PumpSwap sweep_protocol_fee of a pool (its coin named only in the event's base_mint). */
export function poolSweep(m: Market, recipient: Buffer, payer: Buffer): Call {
  return {
    table: PUMP_AMM,
    name: 'sweep_protocol_fee',
    accounts: { pool: m.pool, quote_mint: WSOL, recipient },
    events: [
      {
        name: 'SweepPoolFeeEvent',
        fields: { pool: m.pool, base_mint: m.mint, quote_mint: WSOL, recipient, payer, amount: 7_600n, bucket: 0 },
      },
    ],
  };
}

/** A buy_v3 that empties a SOL curve and continues into the synthetic migration. */
export function syntheticMigration(user: Buffer, m: Market): Call {
  return {
    table: PUMP,
    name: 'buy_v3',
    args: { amount: 9_000_000n, max_sol_cost: 90_000_000_000n },
    accounts: { base_mint: m.mint, quote_mint: WSOL, bonding_curve: m.curve },
    events: [
      {
        name: 'TradeEvent',
        fields: {
          mint: m.mint,
          sol_amount: 1_000_000_000n,
          token_amount: 3_000_000n,
          is_buy: true,
          user,
          fee_recipient: ZERO,
          fee: 10_000_000n,
          creator_fee: 3_000_000n,
          ix_name: 'buy_v3',
          buyback_fee: 500_000n,
          quote_mint: ZERO,
          quote_amount: 1_000_000_000n,
        },
      },
      { name: 'CompleteEvent', fields: { user, mint: m.mint, bonding_curve: m.curve, quote_mint: ZERO } },
      {
        name: 'PostCompleteBuyEvent',
        fields: {
          user,
          mint: m.mint,
          bonding_curve: m.curve,
          quote_mint: WSOL,
          base_out: 6_000_000n,
          quote_in: 2_000_000_000n,
          fee: 20_000_000n,
          creator_fee: 6_000_000n,
          buyback_fee: 1_000_000n,
          pool_base_reserves_before: 200_000_000n,
          pool_quote_reserves_before: 80_000_000_000n,
          pool_base_reserves_after: 194_000_000n,
          pool_quote_reserves_after: 82_000_000_000n,
        },
      },
    ],
  };
}

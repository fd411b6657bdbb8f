// pump.fun's six original instructions (8-byte Anchor discriminator + Borsh arguments, little-endian) into the
// seed proto's `Instruction` oneof. Never throws: short, garbage or unknown data gives undefined. Every
// instruction and event of both programs, in today's layouts, is decoder.ts's (this keeps the seed contract).
// Decisions (see reference/pumpfun.md):
// - Trailing bytes after the known arguments are ignored, as Anchor does when it deserializes arguments;
//   that is what keeps the later appended fields (create's creator pubkey, buy's track_volume byte) compatible.
// - set_params is decoded only in its original form (exactly 72 argument bytes): later versions changed the
//   layout incompatibly, and reading them as the original would produce wrong values.
// - Strings must be valid UTF-8: Borsh rejects invalid UTF-8, so the program itself would have failed such an
//   instruction; we return undefined rather than guess a repaired string.
import type { Instruction } from '../../proto/gen/stream.js';
import { PUMP_DISCRIMINATORS, PUMP_INSTRUCTION_NAMES, type PumpInstructionName } from './discriminators.js';
import { parseFields, readFields, type Field, type Fields } from './layout.js';
import { discriminatorKey, lookupDiscriminator, type DiscriminatorIndex } from './program-table.js';

export type PumpInstruction = NonNullable<Instruction['instructionOneof']>;

export const PUMP_PROGRAM_ID = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';

/** Original set_params arguments: fee_recipient (32) + five u64. */
export const SET_PARAMS_ORIGINAL_ARGS = 72;

// Looked up by number (the discriminator's key), then compared whole: no string per lookup.
const byDiscriminator: DiscriminatorIndex<{ readonly discriminator: Buffer; readonly name: PumpInstructionName }> = new Map(
  PUMP_INSTRUCTION_NAMES.map((name) => [
    discriminatorKey(PUMP_DISCRIMINATORS[name], 0),
    [{ discriminator: PUMP_DISCRIMINATORS[name], name }],
  ]),
);

// The six original instructions in the layouts the proto messages carry (read with the tables' reader).
const LAYOUTS = {
  set_params: parseFields(
    'fee_recipient:pubkey initial_virtual_token_reserves:u64 initial_virtual_sol_reserves:u64 initial_real_token_reserves:u64 token_total_supply:u64 fee_basis_points:u64',
    {},
  ),
  create: parseFields('name:string symbol:string uri:string', {}),
  buy: parseFields('amount:u64 max_sol_cost:u64', {}),
  sell: parseFields('amount:u64 min_sol_output:u64', {}),
};

/** The layout's fields when the data carries all of them (later bytes ignored); otherwise undefined. */
function whole(layout: readonly Field[], data: Uint8Array): Fields | undefined {
  const r = readFields(layout, data, 8);
  return r.ok && r.present === layout.length ? r.fields : undefined;
}

export function pumpInstructionName(data: Uint8Array): PumpInstructionName | undefined {
  if (data.length < 8) return undefined;
  return lookupDiscriminator(byDiscriminator, data, 0)?.name;
}

export function decodePumpInstruction(data: Uint8Array): PumpInstruction | undefined {
  const name = pumpInstructionName(data);
  if (name === undefined) return undefined;
  switch (name) {
    case 'initialize':
      return { $case: 'initialize', value: {} };
    case 'withdraw':
      return { $case: 'withdraw', value: {} };
    case 'set_params': {
      if (data.length - 8 !== SET_PARAMS_ORIGINAL_ARGS) return undefined;
      const f = whole(LAYOUTS.set_params, data)!;
      return {
        $case: 'setParams',
        value: {
          feeRecipient: f.fee_recipient as Buffer,
          initialVirtualTokenReserves: f.initial_virtual_token_reserves as bigint,
          initialVirtualSolReserves: f.initial_virtual_sol_reserves as bigint,
          initialRealTokenReserves: f.initial_real_token_reserves as bigint,
          tokenTotalSupply: f.token_total_supply as bigint,
          feeBasisPoints: f.fee_basis_points as bigint,
        },
      };
    }
    case 'create': {
      const f = whole(LAYOUTS.create, data);
      return f && { $case: 'create', value: { name: f.name as string, symbol: f.symbol as string, uri: f.uri as string } };
    }
    case 'buy': {
      const f = whole(LAYOUTS.buy, data);
      return f && { $case: 'buy', value: { amount: f.amount as bigint, maxSolCost: f.max_sol_cost as bigint } };
    }
    case 'sell': {
      const f = whole(LAYOUTS.sell, data);
      return f && { $case: 'sell', value: { amount: f.amount as bigint, minSolOutput: f.min_sol_output as bigint } };
    }
  }
}

// pump.fun instruction data (8-byte Anchor discriminator + Borsh arguments, little-endian) into the proto
// `Instruction` oneof. Never throws: short, garbage or unknown data gives undefined.
// Decisions (see reference/pumpfun.md):
// - Trailing bytes after the known arguments are ignored, as Anchor does when it deserializes arguments;
//   that is what keeps the later appended fields (create's creator pubkey, buy's track_volume byte) compatible.
// - set_params is decoded only in its original form (exactly 72 argument bytes): later versions changed the
//   layout incompatibly, and reading them as the original would produce wrong values.
// - Strings must be valid UTF-8: Borsh rejects invalid UTF-8, so the program itself would have failed such an
//   instruction; we return undefined rather than guess a repaired string.
import type { Instruction } from '../../proto/gen/stream.js';
import { PUMP_DISCRIMINATORS, PUMP_INSTRUCTION_NAMES, type PumpInstructionName } from './discriminators.js';

export type PumpInstruction = NonNullable<Instruction['instructionOneof']>;

export const PUMP_PROGRAM_ID = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';

/** Original set_params arguments: fee_recipient (32) + five u64. */
export const SET_PARAMS_ORIGINAL_ARGS = 72;

const byDiscriminator = new Map<string, PumpInstructionName>(
  PUMP_INSTRUCTION_NAMES.map((n) => [PUMP_DISCRIMINATORS[n].toString('latin1'), n]),
);

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bounds-checked little-endian cursor: every read returns undefined instead of running past the end. */
class Reader {
  private pos: number;
  private readonly view: DataView;
  constructor(
    private readonly data: Uint8Array,
    start: number,
  ) {
    this.pos = start;
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  get remaining(): number {
    return this.data.length - this.pos;
  }
  u64(): bigint | undefined {
    if (this.remaining < 8) return undefined;
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }
  bytes(n: number): Uint8Array | undefined {
    if (this.remaining < n) return undefined;
    const v = this.data.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  string(): string | undefined {
    if (this.remaining < 4) return undefined;
    const len = this.view.getUint32(this.pos, true);
    if (len > this.remaining - 4) return undefined; // a length that runs past the end
    this.pos += 4;
    const raw = this.bytes(len)!;
    try {
      return utf8.decode(raw);
    } catch {
      return undefined;
    }
  }
}

export function pumpInstructionName(data: Uint8Array): PumpInstructionName | undefined {
  if (data.length < 8) return undefined;
  return byDiscriminator.get(Buffer.from(data.buffer, data.byteOffset, 8).toString('latin1'));
}

export function decodePumpInstruction(data: Uint8Array): PumpInstruction | undefined {
  const name = pumpInstructionName(data);
  if (name === undefined) return undefined;
  const r = new Reader(data, 8);
  switch (name) {
    case 'initialize':
      return { $case: 'initialize', value: {} };
    case 'withdraw':
      return { $case: 'withdraw', value: {} };
    case 'set_params': {
      if (r.remaining !== SET_PARAMS_ORIGINAL_ARGS) return undefined;
      const feeRecipient = Buffer.from(r.bytes(32)!); // copy: the result must not alias the event's bytes
      return {
        $case: 'setParams',
        value: {
          feeRecipient,
          initialVirtualTokenReserves: r.u64()!,
          initialVirtualSolReserves: r.u64()!,
          initialRealTokenReserves: r.u64()!,
          tokenTotalSupply: r.u64()!,
          feeBasisPoints: r.u64()!,
        },
      };
    }
    case 'create': {
      const nameStr = r.string();
      const symbol = nameStr === undefined ? undefined : r.string();
      const uri = symbol === undefined ? undefined : r.string();
      if (nameStr === undefined || symbol === undefined || uri === undefined) return undefined;
      return { $case: 'create', value: { name: nameStr, symbol, uri } };
    }
    case 'buy': {
      const amount = r.u64();
      const maxSolCost = r.u64();
      if (amount === undefined || maxSolCost === undefined) return undefined;
      return { $case: 'buy', value: { amount, maxSolCost } };
    }
    case 'sell': {
      const amount = r.u64();
      const minSolOutput = r.u64();
      if (amount === undefined || minSolOutput === undefined) return undefined;
      return { $case: 'sell', value: { amount, minSolOutput } };
    }
  }
}

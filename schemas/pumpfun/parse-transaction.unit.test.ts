import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { TransactionEvent } from '../gen/events.js';
import { PUMP_DISCRIMINATORS } from './discriminators.js';
import { PUMP_PROGRAM_ID } from './decode.js';
import { bondingCurveOf, parsePumpTransaction, scanPumpTransaction } from './parse-transaction.js';

const PUMP = Buffer.from(bs58.decode(PUMP_PROGRAM_ID));
const COMPUTE_BUDGET = Buffer.from(bs58.decode('ComputeBudget111111111111111111111111111111'));
const k = (n: number) => Buffer.alloc(32, n);
const u64 = (v: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};
const str = (s: string) => {
  const b = Buffer.from(s);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(b.length);
  return Buffer.concat([len, b]);
};
const buyData = (amount: bigint) => Buffer.concat([PUMP_DISCRIMINATORS.buy, u64(amount), u64(10n), Buffer.from([1])]);
const sellData = (amount: bigint) => Buffer.concat([PUMP_DISCRIMINATORS.sell, u64(amount), u64(1n)]);
const createData = Buffer.concat([PUMP_DISCRIMINATORS.create, str('N'), str('S'), str('U'), k(0xee)]);
const ix = (programIdIndex: number, accounts: number[], data: Buffer) => ({ programIdIndex, accounts: Buffer.from(accounts), data });

describe('parsePumpTransaction', () => {
  it('legacy message: decodes pump.fun instructions and skips other programs', () => {
    // keys: 0 payer, 1 global, 2 fee, 3 mint, 4 curve, 5 assoc curve, 6 assoc user, 7 pump, 8 compute budget
    const tx = TransactionEvent.fromPartial({
      accountKeys: [k(1), k(2), k(3), k(4), k(5), k(6), k(7), PUMP, COMPUTE_BUDGET],
      instructions: [
        ix(8, [], Buffer.from([2, 0x40, 0x0d, 0x03, 0])),
        ix(7, [1, 2, 3, 4, 5, 6, 0], buyData(500n)),
        // Same bytes but another program: not pump.fun, left out.
        ix(8, [1, 2, 3, 4, 5, 6, 0], buyData(999n)),
      ],
    });
    expect(parsePumpTransaction(tx)).toEqual([{ instructionOneof: { $case: 'buy', value: { amount: 500n, maxSolCost: 10n } } }]);
    expect(bondingCurveOf(tx)).toEqual(k(5));
  });

  it('v0 message: program id and bonding curve reached through loaded addresses (static, writable, readonly order)', () => {
    // static 0..2, loaded writable 3..4, loaded readonly 5..6
    const tx = TransactionEvent.fromPartial({
      versioned: true,
      accountKeys: [k(1), k(2), k(3)],
      addressTableLookups: [{ accountKey: k(90), writableIndexes: Buffer.from([0, 1]), readonlyIndexes: Buffer.from([2, 3]) }],
      loadedWritable: [k(40), k(41)],
      loadedReadonly: [k(50), PUMP],
      instructions: [ix(6, [5, 3, 2, 4, 1, 1, 0], sellData(77n))],
    });
    expect(parsePumpTransaction(tx)).toEqual([{ instructionOneof: { $case: 'sell', value: { amount: 77n, minSolOutput: 1n } } }]);
    expect(bondingCurveOf(tx)).toEqual(k(41));
  });

  it('keeps transaction order, leaves out undecodable pump.fun instructions, and lists distinct curves', () => {
    const tx = TransactionEvent.fromPartial({
      accountKeys: [k(1), k(2), k(3), k(4), k(5), PUMP],
      instructions: [
        ix(5, [3, 0, 4, 1], Buffer.concat([PUMP_DISCRIMINATORS.create.subarray(0, 8), Buffer.from([1, 2])])), // truncated create
        ix(5, [3, 0, 4, 1], createData),
        ix(5, [0, 0, 0, 4], buyData(1n)),
        ix(5, [0, 0, 0, 2], sellData(2n)),
        ix(5, [], Buffer.from('garbage-garbage')),
        ix(5, [0, 0, 0], PUMP_DISCRIMINATORS.withdraw), // too few accounts for a curve: still decoded
        ix(5, [0, 1], PUMP_DISCRIMINATORS.initialize),
      ],
    });
    const scan = scanPumpTransaction(tx);
    expect(scan.instructions.map((i) => i.instructionOneof?.$case)).toEqual(['create', 'buy', 'sell', 'withdraw', 'initialize']);
    expect(scan.bondingCurves).toEqual([k(5), k(3)]);
    expect(bondingCurveOf(tx)).toEqual(k(5)); // create: bonding_curve is account 2
  });

  it('only top-level instructions count; a transaction without pump.fun gives nothing', () => {
    const tx = TransactionEvent.fromPartial({ accountKeys: [k(1), COMPUTE_BUDGET], instructions: [ix(1, [], Buffer.from([2]))] });
    expect(parsePumpTransaction(tx)).toEqual([]);
    expect(bondingCurveOf(tx)).toBeUndefined();
  });

  it('out-of-range program and account indexes never throw', () => {
    const tx = TransactionEvent.fromPartial({
      accountKeys: [k(1), PUMP],
      loadedWritable: [k(2)],
      instructions: [ix(200, [0], buyData(1n)), ix(1, [0, 0, 0, 99], buyData(3n))],
    });
    expect(parsePumpTransaction(tx)).toEqual([{ instructionOneof: { $case: 'buy', value: { amount: 3n, maxSolCost: 10n } } }]);
    expect(bondingCurveOf(tx)).toBeUndefined();
  });

  it('set_params has no bonding curve', () => {
    const data = Buffer.concat([PUMP_DISCRIMINATORS.set_params, k(9), u64(1n), u64(2n), u64(3n), u64(4n), u64(5n)]);
    const tx = TransactionEvent.fromPartial({ accountKeys: [k(1), k(2), k(3), k(4), PUMP], instructions: [ix(4, [0, 1, 2, 3], data)] });
    expect(parsePumpTransaction(tx).map((i) => i.instructionOneof?.$case)).toEqual(['setParams']);
    expect(bondingCurveOf(tx)).toBeUndefined();
  });
});

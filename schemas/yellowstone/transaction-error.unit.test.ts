import { describe, expect, it } from 'vitest';
import {
  INSTRUCTION_ERROR_VARIANTS,
  TRANSACTION_ERROR_VARIANTS,
  TransactionErrorCodecError,
  transactionErrorFromJson,
  transactionErrorToJson,
} from './transaction-error.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const fromHex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

describe('transaction error codec', () => {
  it('encodes the bytes mainnet blocks carry (InstructionError(0, Custom(0x29)))', () => {
    // From block 64800004: variant 8, instruction 0, InstructionError variant 25 (Custom), 0x29.
    expect(transactionErrorToJson(fromHex('08000000001900000029000000'))).toBe('{"InstructionError":[0,{"Custom":41}]}');
    expect(hex(transactionErrorFromJson('{"InstructionError":[0,{"Custom":41}]}'))).toBe('08000000001900000029000000');
  });

  it('writes the spec example exactly', () => {
    expect(hex(transactionErrorFromJson('{"InstructionError":[0,{"Custom":6002}]}'))).toBe('0800000000' + '19000000' + '72170000');
  });

  it('round-trips every unit TransactionError variant with its index', () => {
    const payload = new Set([
      'InstructionError',
      'DuplicateInstruction',
      'InsufficientFundsForRent',
      'ProgramExecutionTemporarilyRestricted',
    ]);
    expect(TRANSACTION_ERROR_VARIANTS).toHaveLength(39);
    TRANSACTION_ERROR_VARIANTS.forEach((name, i) => {
      if (payload.has(name)) return;
      const json = JSON.stringify(name);
      const bytes = transactionErrorFromJson(json);
      expect(hex(bytes)).toBe(Buffer.from(Uint32Array.of(i).buffer).toString('hex'));
      expect(transactionErrorToJson(bytes)).toBe(json);
    });
    expect(hex(transactionErrorFromJson('"BlockhashNotFound"'))).toBe('07000000');
    expect(hex(transactionErrorFromJson('"CommitCancelled"'))).toBe('26000000');
  });

  it('round-trips every InstructionError variant inside InstructionError(n, _)', () => {
    expect(INSTRUCTION_ERROR_VARIANTS).toHaveLength(55);
    INSTRUCTION_ERROR_VARIANTS.forEach((name, i) => {
      const inner = name === 'Custom' ? { Custom: 4_294_967_295 } : name;
      const json = JSON.stringify({ InstructionError: [255, inner] });
      const bytes = transactionErrorFromJson(json);
      expect(bytes[4]).toBe(255);
      expect(Buffer.from(bytes).readUInt32LE(5)).toBe(i);
      expect(transactionErrorToJson(bytes)).toBe(json);
    });
  });

  it('round-trips the newtype and struct variants in serde_json form', () => {
    const cases: [string, string][] = [
      ['{"DuplicateInstruction":3}', '1e00000003'],
      ['{"InsufficientFundsForRent":{"account_index":2}}', '1f00000002'],
      ['{"ProgramExecutionTemporarilyRestricted":{"account_index":7}}', '2300000007'],
      ['{"InstructionError":[1,"ProgramFailedToComplete"]}', '080000000128000000'],
    ];
    for (const [json, h] of cases) {
      expect(hex(transactionErrorFromJson(json))).toBe(h);
      expect(transactionErrorToJson(fromHex(h))).toBe(json);
    }
  });

  it("keeps old blocks' BorshIoError(String) payload", () => {
    const json = '{"InstructionError":[2,{"BorshIoError":"Unknown"}]}';
    const bytes = transactionErrorFromJson(json);
    expect(hex(bytes)).toBe('08000000022c000000' + '0700000000000000' + Buffer.from('Unknown').toString('hex'));
    expect(transactionErrorToJson(bytes)).toBe(json);
    expect(transactionErrorToJson(fromHex('08000000022c000000'))).toBe('{"InstructionError":[2,"BorshIoError"]}');
  });

  it('refuses what is not a known error, naming it', () => {
    const bad = [
      'nope',
      '"NoSuchError"',
      '"InstructionError"',
      '{"InstructionError":[256,"GenericError"]}',
      '{"InstructionError":[0,{"Custom":-1}]}',
      '{"InstructionError":[0,"Custom"]}',
      '{"DuplicateInstruction":"3"}',
      '{"InsufficientFundsForRent":{"index":2}}',
      '{"A":1,"B":2}',
    ];
    for (const b of bad) expect(() => transactionErrorFromJson(b), b).toThrow(TransactionErrorCodecError);
    for (const h of ['', '080000', '27000000', '08000000003700000000', '0700000000', '0800000000190000002900']) {
      expect(() => transactionErrorToJson(fromHex(h)), h).toThrow(TransactionErrorCodecError);
    }
  });
});

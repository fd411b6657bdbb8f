// Pure parts of issue 21's Agave methods: params parsers (Agave's limits and messages), fees, leaders, rent.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { TransactionEvent } from '../../../schemas/codec.js';
import { COMPUTE_BUDGET_PROGRAM, SYSTEM_PROGRAM } from '../../../schemas/programs.js';
import { RpcError } from '../../solana-json/errors.js';
import { tallyProduction, parseGetBlockProduction } from './getBlockProduction.js';
import { nonceRate, parseGetFeeForMessage } from './getFeeForMessage.js';
import { decodeRent, DEFAULT_RENT, minimumBalance, parseGetMinimumBalanceForRentExemption } from './getMinimumBalanceForRentExemption.js';
import { parseGetRecentPrioritizationFees } from './getRecentPrioritizationFees.js';
import { parseGetSlotLeaders } from './getSlotLeaders.js';
import { featureActive, FEATURE_PROGRAM } from './getStakeMinimumDelegation.js';
import { decodeMessage, messageFee } from './message-fee.js';
import { blockFees, feeFor, rawKey } from './prioritization-fees.js';
import { epochNumberOf, leaderIn, leaderSlotCounts } from './slot-leaders.js';
import type { EpochRow } from './getLeaderSchedule.js';

const rpcError = (f: () => unknown): { code: number; message: string } => {
  try {
    f();
  } catch (e) {
    if (e instanceof RpcError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('did not throw');
};
const key = (n: number): Buffer => Buffer.alloc(32, n);
const cbIx = (data: Buffer, programIdIndex: number) => ({ programIdIndex, accounts: Buffer.alloc(0), data });
const price = (microLamports: bigint): Buffer => {
  const d = Buffer.alloc(9);
  d[0] = 3;
  d.writeBigUInt64LE(microLamports, 1);
  return d;
};
const limit = (units: number): Buffer => {
  const d = Buffer.alloc(5);
  d[0] = 2;
  d.writeUInt32LE(units, 1);
  return d;
};
/** Keys: 0 payer (writable signer), 1 writable account, 2 system program, 3 compute budget. */
const tx = (ixs: { programIdIndex: number; accounts: Buffer; data: Buffer }[], isVote = false) =>
  TransactionEvent.fromPartial({
    numRequiredSignatures: 1,
    numReadonlyUnsignedAccounts: 2,
    accountKeys: [key(1), key(2), Buffer.from(bs58.decode(SYSTEM_PROGRAM)), Buffer.from(bs58.decode(COMPUTE_BUDGET_PROGRAM))],
    recentBlockhash: key(9),
    instructions: ixs,
    isVote,
  });
const transfer = { programIdIndex: 2, accounts: Buffer.from([0, 1]), data: Buffer.from([2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]) };

describe('fees', () => {
  it('messageFee: 5,000 per signature plus ceil(price x limit / 1e6); default limit 200,000 per other instruction', () => {
    expect(messageFee(tx([transfer]), 5000n)).toBe(5000n);
    // 2 non-budget instructions x 200,000 units x 3 micro-lamports = 1.2 lamports -> 2.
    expect(messageFee(tx([cbIx(price(3n), 3), transfer, transfer]), 5000n)).toBe(5002n);
    expect(messageFee(tx([cbIx(limit(10_000), 3), cbIx(price(1_000_000n), 3), transfer]), 5000n)).toBe(15_000n);
    // The limit is capped at 1.4M.
    expect(messageFee(tx([cbIx(limit(5_000_000), 3), cbIx(price(1_000_000n), 3), transfer]), 5000n)).toBe(1_405_000n);
  });
  it('decodeMessage reads a serialized legacy message back', () => {
    // header (1, 0, 2), 4 keys, blockhash, 1 instruction: program 2, accounts [0, 1], 12 bytes of data.
    const m = Buffer.concat([
      Buffer.from([1, 0, 2, 4]),
      key(1),
      key(2),
      Buffer.from(bs58.decode(SYSTEM_PROGRAM)),
      Buffer.from(bs58.decode(COMPUTE_BUDGET_PROGRAM)),
      key(9),
      Buffer.from([1, 2, 2, 0, 1, 12]),
      transfer.data,
    ]);
    const e = decodeMessage(m);
    expect(e.accountKeys).toHaveLength(4);
    expect(messageFee(e, 5000n)).toBe(5000n);
    expect(parseGetFeeForMessage([m.toString('base64')]).message.instructions).toHaveLength(1);
  });
  it("getFeeForMessage's params: Agave's decoding messages; a program index of 0 (the payer) is out of bounds", () => {
    expect(rpcError(() => parseGetFeeForMessage(['A'.repeat(1648)]))).toEqual({
      code: -32602,
      message: 'base64 encoded solana_message::versioned::VersionedMessage too large: 1648 bytes (max: encoded/raw 1644/1232)',
    });
    expect(rpcError(() => parseGetFeeForMessage(['@@@@'])).message).toMatch(/^invalid base64 encoding/);
    expect(rpcError(() => parseGetFeeForMessage([Buffer.from([1, 0, 0]).toString('base64')])).message).toMatch(/^failed to deserialize/);
    const bad = Buffer.concat([Buffer.from([1, 0, 0, 1]), key(1), key(9), Buffer.from([1, 0, 0, 0])]);
    expect(rpcError(() => parseGetFeeForMessage([bad.toString('base64')]))).toEqual({
      code: -32602,
      message: 'invalid transaction message: index out of bounds',
    });
  });
  it('nonceRate: the fee calculator of an initialized nonce account whose durable nonce is the blockhash', () => {
    const d = Buffer.alloc(80);
    d.writeUInt32LE(1, 0);
    d.writeUInt32LE(1, 4);
    key(9).copy(d, 40);
    d.writeBigUInt64LE(5000n, 72);
    expect(nonceRate(d, key(9))).toBe(5000n);
    expect(nonceRate(d, key(8))).toBeUndefined();
    d.writeUInt32LE(0, 4);
    expect(nonceRate(d, key(9))).toBeUndefined();
  });
});

describe('prioritization fees', () => {
  it('block minimum over non-vote transactions, per write-locked account minimum, raised by the accounts asked for', () => {
    const record = (e: TransactionEvent): Buffer => Buffer.from(TransactionEvent.encode(e).finish());
    const b = blockFees([
      record(tx([cbIx(price(10n), 3), transfer])),
      record(tx([cbIx(price(50n), 3), transfer])),
      record(tx([transfer], true)), // a vote: not counted
    ]);
    expect(b.min).toBe(10n);
    const k1 = rawKey(bs58.encode(key(1)));
    expect(b.accounts.get(k1)).toBe(10n);
    expect(b.accounts.has(rawKey(SYSTEM_PROGRAM))).toBe(false); // readonly and a called program
    expect(b.accounts.has(rawKey(COMPUTE_BUDGET_PROGRAM))).toBe(false);
    expect(feeFor(b, [])).toBe(10n);
    expect(feeFor({ min: 0n, accounts: new Map([[k1, 40n]]) }, [k1, rawKey(bs58.encode(key(5)))])).toBe(40n);
    expect(feeFor(blockFees([record(tx([transfer], true))]), [])).toBe(0n);
    // A transaction without a price counts as 0.
    expect(blockFees([record(tx([transfer]))]).min).toBe(0n);
  });
  it("params: at most 128 accounts (Agave's message), each a pubkey", () => {
    expect(parseGetRecentPrioritizationFees([])).toEqual({ accounts: [] });
    expect(rpcError(() => parseGetRecentPrioritizationFees([Array.from({ length: 129 }, () => SYSTEM_PROGRAM)]))).toEqual({
      code: -32602,
      message: 'Too many inputs provided; max 128',
    });
    expect(rpcError(() => parseGetRecentPrioritizationFees([['x']])).code).toBe(-32602);
    expect(rpcError(() => parseGetRecentPrioritizationFees([{}])).code).toBe(-32602);
  });
});

describe('leaders and block production', () => {
  const e: EpochRow = {
    epoch: 3n,
    firstSlot: 96n,
    slotsPerEpoch: 32n,
    slotsPerLeader: 4,
    identities: ['a', 'b'],
    schedule: [0, 1, 1, 0, 0, 0, 0, 1],
  };
  it('leaderIn: runs of 4 slots', () => {
    expect([96n, 99n, 100n, 108n, 127n].map((s) => leaderIn(e, s))).toEqual(['a', 'a', 'b', 'a', 'b']);
  });
  it('epochNumberOf: fixed-length epochs on both sides of a known one', () => {
    expect([96n, 127n, 128n, 200n, 95n, 0n].map((s) => epochNumberOf(e, s))).toEqual([3n, 3n, 4n, 6n, 2n, 0n]);
  });
  it('leaderSlotCounts: leader slots per identity within a range, partial runs at both ends', () => {
    // Slots 98..109: run 0 (96..99, a) 2 slots, run 1 (100..103, b) 4, run 2 (104..107, b) 4, run 3 (108..111, a) 2.
    expect(Object.fromEntries(leaderSlotCounts(e, 98n, 109n))).toEqual({ a: 4, b: 8 });
    expect(Object.fromEntries(leaderSlotCounts(e, 96n, 127n))).toEqual({ a: 20, b: 12 });
  });
  it('tallyProduction: leader slots and produced blocks per identity, optionally one identity', () => {
    const leaders = new Map([
      ['a', 3],
      ['b', 2],
    ]);
    const produced = new Map([
      ['a', 2],
      ['b', 1],
    ]);
    expect(tallyProduction(leaders, produced, undefined)).toEqual({ a: [3, 2], b: [2, 1] });
    expect(tallyProduction(leaders, new Map(), 'b')).toEqual({ b: [2, 0] });
  });
  it("params: getSlotLeaders' limit (Agave's message), getBlockProduction's range", () => {
    expect(parseGetSlotLeaders([5, 5000])).toEqual({ start: 5n, limit: 5000 });
    expect(rpcError(() => parseGetSlotLeaders([5, 5001]))).toEqual({ code: -32602, message: 'Invalid limit; max 5000' });
    expect(rpcError(() => parseGetSlotLeaders([5])).code).toBe(-32602);
    expect(parseGetBlockProduction([{ range: { firstSlot: 3 } }]).range).toEqual({ firstSlot: 3n, lastSlot: undefined });
    expect(rpcError(() => parseGetBlockProduction([{ range: {} }])).code).toBe(-32602);
  });
});

describe('rent and features', () => {
  it("minimumBalance is Agave's (128 + length) x lamports per byte-year x threshold", () => {
    expect(minimumBalance(DEFAULT_RENT, 165n)).toBe(2_039_280n);
    expect(minimumBalance({ lamportsPerByteYear: 1000n, exemptionThreshold: 1.5 }, 0n)).toBe(192_000n);
  });
  it('decodeRent reads the sysvar; a zeroed one counts as absent', () => {
    const d = Buffer.alloc(17);
    expect(decodeRent(d)).toBeUndefined();
    d.writeBigUInt64LE(3480n, 0);
    d.writeDoubleLE(2, 8);
    expect(decodeRent(d)).toEqual(DEFAULT_RENT);
  });
  it('lengths over 10 MiB are -32600', () => {
    expect(rpcError(() => parseGetMinimumBalanceForRentExemption([10 * 1024 * 1024 + 1])).code).toBe(-32600);
  });
  it('featureActive: a Feature account activated at or before the slot', () => {
    const d = Buffer.alloc(9);
    d[0] = 1;
    d.writeBigUInt64LE(100n, 1);
    expect(featureActive(FEATURE_PROGRAM, d, 100n)).toBe(true);
    expect(featureActive(FEATURE_PROGRAM, d, 99n)).toBe(false);
    expect(featureActive(SYSTEM_PROGRAM, d, 100n)).toBe(false);
    expect(featureActive(FEATURE_PROGRAM, Buffer.alloc(9), 100n)).toBe(false);
  });
});

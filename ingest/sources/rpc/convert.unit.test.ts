// The getBlock JSON converter on hand-made blocks with every field the mainnet recordings leave empty
// (v0 lookups, token balances, return data, stack heights, commissions, cost units, u64 beyond 2^53, errors
// of every shape): event -> ConfirmedBlock -> Agave JSON text (test/support/rpc) -> blockFromRpc -> event.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { RewardType, SlotStatus, type SlotEvent, type TransactionEvent } from '../../../schemas/codec.js';
import { blockToConfirmedBlock } from '../../../schemas/yellowstone/index.js';
import { agaveBlock, toJsonText } from '../../../test/support/rpc/agave-block.js';
import {
  blockFromRpc,
  errFromRpc,
  RpcConversionError,
  rewardFromRpc,
  snapshotAccountFromRpc,
  transactionFromRpc,
  type RpcBlock,
  type RpcKeyedAccount,
} from './convert.js';
import { parseJsonExact } from '../shared/rpc-json.js';

const key = (n: number): Buffer => Buffer.alloc(32, n);
const BIG = 18_446_744_073_709_551_615n; // u64::MAX: far beyond what a double holds exactly

function tx(index: number, over: Partial<TransactionEvent> = {}): TransactionEvent {
  return {
    slot: 500n,
    index,
    signatures: [Buffer.alloc(64, 9 + index)],
    versioned: true,
    numRequiredSignatures: 1,
    numReadonlySignedAccounts: 0,
    numReadonlyUnsignedAccounts: 1,
    accountKeys: [key(1), key(2), key(3)],
    recentBlockhash: key(4),
    instructions: [{ programIdIndex: 2, accounts: Buffer.from([0, 1, 3]), data: Buffer.from([1, 2]) }],
    addressTableLookups: [{ accountKey: key(5), writableIndexes: Buffer.from([0]), readonlyIndexes: Buffer.from([]) }],
    loadedWritable: [key(6)],
    loadedReadonly: [],
    isVote: false,
    err: '{"InstructionError":[0,{"Custom":6002}]}',
    fee: 5000n,
    memos: [],
    blockTime: 1_700_000_000n,
    preBalances: [BIG, 1n, 1n, 2_039_280n],
    postBalances: [BIG - 5000n, 1n, 1n, 2_039_280n],
    preTokenBalances: [{ accountIndex: 3, mint: key(7), owner: key(1), programId: key(8), amount: 1_234_500n, decimals: 6 }],
    postTokenBalances: [{ accountIndex: 3, mint: key(7), owner: Buffer.alloc(0), programId: Buffer.alloc(0), amount: BIG, decimals: 0 }],
    innerInstructions: [
      { index: 0, instructions: [{ programIdIndex: 2, accounts: Buffer.from([3, 0]), data: Buffer.from([3, 0, 0, 7]), stackHeight: 2 }] },
    ],
    logMessages: ['Program 3 invoke [1]', 'Program 3 failed: custom program error: 0x1772'],
    computeUnitsConsumed: 1234n,
    returnData: { programId: key(3), data: Buffer.from('ret') },
    innerInstructionsNone: false,
    logMessagesNone: false,
    rewards: [],
    costUnits: 3_428n,
    ...over,
  };
}

const legacyVote = tx(1, {
  versioned: false,
  addressTableLookups: [],
  loadedWritable: [],
  accountKeys: [key(1), key(2), Buffer.from('0761481d357474bb7c4d7624ebd3bdb3d8355e73d11043fc0da3538000000000', 'hex')],
  instructions: [{ programIdIndex: 2, accounts: Buffer.from([0, 1]), data: Buffer.from([2, 0, 0, 0]) }],
  isVote: true,
  err: undefined,
  preBalances: [10n, 1n, 1n],
  postBalances: [5n, 1n, 1n],
  preTokenBalances: [],
  postTokenBalances: [],
  innerInstructions: [],
  innerInstructionsNone: true,
  logMessages: [],
  logMessagesNone: true,
  computeUnitsConsumed: undefined,
  returnData: undefined,
  costUnits: undefined,
});

const memoTx = tx(2, {
  versioned: false,
  addressTableLookups: [],
  loadedWritable: [],
  accountKeys: [key(1), Buffer.from('054a535a992921064d24e87160da387c7c35b5ddbc92bb81e41fa8404105448d', 'hex')],
  instructions: [{ programIdIndex: 1, accounts: Buffer.from([0]), data: Buffer.from('gm') }],
  numReadonlyUnsignedAccounts: 1,
  memos: ['gm'],
  err: '{"InsufficientFundsForRent":{"account_index":2}}',
  preBalances: [10n, 1n],
  postBalances: [5n, 1n],
  preTokenBalances: [],
  postTokenBalances: [],
  innerInstructions: [],
});

const slotEvent: SlotEvent = {
  slot: 500n,
  status: SlotStatus.SLOT_STATUS_PROCESSED,
  block: {
    parentSlot: 498n,
    blockhash: key(20),
    blockHeight: 480n,
    blockTime: 1_700_000_000n,
    leader: key(30),
    transactionCount: 3,
    voteTransactionCount: 1,
    previousBlockhash: key(19),
    rewards: [
      {
        pubkey: key(30),
        lamports: 2_500n,
        postBalance: BIG,
        rewardType: RewardType.REWARD_TYPE_FEE,
        commission: undefined,
        commissionBps: undefined,
      },
      {
        pubkey: key(31),
        lamports: -9n,
        postBalance: 0n,
        rewardType: RewardType.REWARD_TYPE_RENT,
        commission: undefined,
        commissionBps: undefined,
      },
      { pubkey: key(32), lamports: 1n, postBalance: 2n, rewardType: RewardType.REWARD_TYPE_VOTING, commission: 7, commissionBps: 700 },
      {
        pubkey: key(33),
        lamports: 1n,
        postBalance: 2n,
        rewardType: RewardType.REWARD_TYPE_STAKING,
        commission: 100,
        commissionBps: undefined,
      },
      {
        pubkey: key(34),
        lamports: 1n,
        postBalance: 2n,
        rewardType: RewardType.REWARD_TYPE_DEACTIVATED_STAKE,
        commission: undefined,
        commissionBps: undefined,
      },
    ],
    executedTransactionCount: 3n,
    entryCount: undefined,
    numPartitions: 42n,
  },
  deadError: undefined,
  gap: undefined,
  parent: undefined,
};

/** What a node would answer: the event rendered as Agave's getBlock JSON text, read back exactly. */
const asRpc = (slot: SlotEvent, txs: TransactionEvent[]): RpcBlock =>
  parseJsonExact(toJsonText(agaveBlock(blockToConfirmedBlock({ slot, transactions: txs }), 'base64'))) as RpcBlock;

describe('blockFromRpc', () => {
  it('gives back every field of the block and its transactions', () => {
    const txs = [tx(0), legacyVote, memoTx];
    const got = blockFromRpc(500n, asRpc(slotEvent, txs), key(30));
    expect(got.slot).toStrictEqual(slotEvent);
    expect(got.transactions).toStrictEqual(txs);
  });

  it('keeps u64 values beyond 2^53 exact (balances, token amounts, reward post balances)', () => {
    const got = blockFromRpc(500n, asRpc(slotEvent, [tx(0)]), key(30));
    expect(got.transactions[0]!.preBalances[0]).toBe(BIG);
    expect(got.transactions[0]!.postTokenBalances[0]!.amount).toBe(BIG);
    expect(got.slot.block!.rewards[0]!.postBalance).toBe(BIG);
  });

  it('reads absent block height, block time, previous blockhash and partitions as the event model has them', () => {
    const old = asRpc(
      { ...slotEvent, block: { ...slotEvent.block!, blockHeight: 0n, blockTime: undefined, numPartitions: undefined } },
      [],
    );
    old.previousBlockhash = '';
    const got = blockFromRpc(500n, old, Buffer.alloc(0));
    expect(got.slot.block).toMatchObject({
      blockHeight: 0n,
      blockTime: undefined,
      numPartitions: undefined,
      transactionCount: 0,
      leader: Buffer.alloc(0),
    });
    expect(got.slot.block!.previousBlockhash).toHaveLength(0);
  });

  it('names slot and transaction when it cannot read one', () => {
    const block = asRpc(slotEvent, [tx(0), legacyVote]);
    block.transactions[1]!.transaction = [Buffer.from([1, 2, 3]).toString('base64'), 'base64'];
    expect(() => blockFromRpc(500n, block, key(30))).toThrow(RpcConversionError);
    expect(() => blockFromRpc(500n, block, key(30))).toThrow(/^transaction 500\/1: /);
    const noMeta = asRpc(slotEvent, [tx(0)]);
    noMeta.transactions[0]!.meta = null;
    expect(() => blockFromRpc(500n, noMeta, key(30))).toThrow(/transaction 500\/0: no meta/);
    const json = asRpc(slotEvent, [tx(0)]);
    (json.transactions[0] as { transaction: unknown }).transaction = { signatures: [], message: {} };
    expect(() => blockFromRpc(500n, json, key(30))).toThrow(/transaction 500\/0: expected \[bytes, "base64"\]/);
  });
});

describe('blockFromRpc with onUnconvertible', () => {
  it("hands over a transaction it cannot read and keeps the rest; the block meta still counts the block's transactions", () => {
    const block = asRpc(slotEvent, [tx(0), legacyVote, memoTx]);
    block.transactions[1]!.meta = null;
    const lost: { index: number; message: string }[] = [];
    const got = blockFromRpc(500n, block, key(30), (u) => lost.push({ index: u.index, message: u.error.message }));
    expect(lost).toEqual([{ index: 1, message: 'transaction 500/1: no meta' }]);
    expect(got.transactions).toStrictEqual([tx(0), memoTx]);
    expect(got.slot.block).toMatchObject({ transactionCount: 3, executedTransactionCount: 3n, voteTransactionCount: 0 });
  });

  it('still throws for the block itself (an unknown reward type)', () => {
    const block = asRpc(slotEvent, [tx(0)]);
    block.rewards![0]!.rewardType = 'Bogus';
    expect(() => blockFromRpc(500n, block, key(30), () => {})).toThrow(/^block 500: reward of .*unknown rewardType "Bogus"/);
  });
});

describe('snapshotAccountFromRpc', () => {
  const entry = (data: unknown, lamports: number | string = 7) =>
    ({
      pubkey: bs58.encode(key(40)),
      account: { lamports, owner: bs58.encode(key(41)), data, executable: true, rentEpoch: '18446744073709551615' },
    }) as RpcKeyedAccount;

  it('reads a getProgramAccounts entry as an is_startup write at the given slot, u64 exact', () => {
    expect(snapshotAccountFromRpc(entry([Buffer.from([1, 2, 3]).toString('base64'), 'base64']), 900n)).toStrictEqual({
      pubkey: key(40),
      lamports: 7n,
      owner: key(41),
      executable: true,
      rentEpoch: BIG,
      data: Buffer.from([1, 2, 3]),
      writeVersion: 0n,
      slot: 900n,
      txnSignature: undefined,
      isStartup: true,
    });
  });

  it('names the account when it cannot read one', () => {
    expect(() => snapshotAccountFromRpc(entry('AQID'), 900n)).toThrow(
      new RegExp(`^account ${bs58.encode(key(40))}: expected data \\[bytes, "base64"\\]`),
    );
    expect(() => snapshotAccountFromRpc(entry(['AQID', 'base64'], 2 ** 60), 900n)).toThrow(/lamports: .* is not an exact integer/);
  });
});

describe("Agave's JSON forms", () => {
  it('keeps err as compact JSON text of what the node wrote, absent on success', () => {
    expect(errFromRpc(null)).toBeUndefined();
    expect(errFromRpc('BlockhashNotFound')).toBe('"BlockhashNotFound"');
    expect(errFromRpc({ InstructionError: [2, { Custom: 6002 }] })).toBe('{"InstructionError":[2,{"Custom":6002}]}');
    expect(errFromRpc({ InstructionError: [0, 'ProgramFailedToComplete'] })).toBe('{"InstructionError":[0,"ProgramFailedToComplete"]}');
    expect(errFromRpc({ DuplicateInstruction: 3 })).toBe('{"DuplicateInstruction":3}');
    expect(errFromRpc({ InsufficientFundsForRent: { account_index: 2 } })).toBe('{"InsufficientFundsForRent":{"account_index":2}}');
  });

  it('maps reward types by name, null to unspecified, and refuses unknown names', () => {
    expect(rewardFromRpc({ pubkey: '11111111111111111111111111111111', lamports: -1, postBalance: 0, rewardType: null }).rewardType).toBe(
      RewardType.REWARD_TYPE_UNSPECIFIED,
    );
    expect(
      rewardFromRpc({ pubkey: '11111111111111111111111111111111', lamports: 5, postBalance: 9, rewardType: 'Voting', commission: 10 }),
    ).toMatchObject({
      lamports: 5n,
      postBalance: 9n,
      rewardType: RewardType.REWARD_TYPE_VOTING,
      commission: 10,
    });
    expect(() => rewardFromRpc({ pubkey: '11111111111111111111111111111111', lamports: 5, postBalance: 9, rewardType: 'Bonus' })).toThrow(
      /unknown rewardType "Bonus"/,
    );
  });

  it('refuses a u64 that reached it as an inexact double', () => {
    const t = asRpc(slotEvent, [legacyVote]).transactions[0]!;
    t.meta!.fee = 2 ** 60;
    expect(() => transactionFromRpc(t, { slot: 1n, index: 0 })).toThrow(/fee: 1152921504606847000 is not an exact integer/);
  });
});

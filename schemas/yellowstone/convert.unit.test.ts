// Hand-made events with every field the mainnet recordings leave empty (token balances, return data,
// stack heights, commissions, dead slots, account writes): event -> Yellowstone -> event is the identity,
// also through Yellowstone's own protobuf bytes.
import { describe, expect, it } from 'vitest';
import { RewardType, SlotStatus, type AccountEvent, type BlockMeta, type EntryEvent, type TransactionEvent } from '../codec.js';
import {
  accountFromYellowstone,
  accountToYellowstone,
  blockMetaFromYellowstone,
  blockMetaToYellowstone,
  entryFromYellowstone,
  entryToYellowstone,
  slotFromYellowstone,
  slotToYellowstone,
  SubscribeUpdateCodecs as YS,
  transactionFromYellowstone,
  transactionToYellowstone,
  uiAmountString,
  YellowstoneSlotStatus,
} from './index.js';

const key = (n: number): Buffer => Buffer.alloc(32, n);

const tx: TransactionEvent = {
  slot: 77n,
  index: 3,
  signatures: [Buffer.alloc(64, 9)],
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
  preBalances: [10_000n, 1n, 1n, 2_039_280n],
  postBalances: [5_000n, 1n, 1n, 2_039_280n],
  preTokenBalances: [{ accountIndex: 3, mint: key(7), owner: key(1), programId: key(8), amount: 1_234_500n, decimals: 6 }],
  postTokenBalances: [{ accountIndex: 3, mint: key(7), owner: key(1), programId: key(8), amount: 0n, decimals: 6 }],
  innerInstructions: [
    {
      index: 0,
      instructions: [
        { programIdIndex: 2, accounts: Buffer.from([3]), data: Buffer.from([3]), stackHeight: 2 },
        { programIdIndex: 2, accounts: Buffer.from([]), data: Buffer.from([]), stackHeight: undefined },
      ],
    },
  ],
  logMessages: ['Program 111 invoke [1]', 'Program 111 success'],
  computeUnitsConsumed: 4_321n,
  returnData: { programId: key(2), data: Buffer.from('ok') },
  innerInstructionsNone: false,
  logMessagesNone: false,
  rewards: [
    {
      pubkey: key(9),
      lamports: -12n,
      postBalance: 3n,
      rewardType: RewardType.REWARD_TYPE_RENT,
      commission: undefined,
      commissionBps: undefined,
    },
  ],
  costUnits: 1_500n,
};

describe('Yellowstone conversions', () => {
  it('transaction with full meta: event -> SubscribeUpdateTransaction bytes -> event is the identity', () => {
    const ys = transactionToYellowstone(tx);
    expect(ys.transaction!.meta!.preTokenBalances[0]!.uiTokenAmount).toEqual({
      uiAmount: 1.2345,
      decimals: 6,
      amount: '1234500',
      uiAmountString: '1.2345',
    });
    const decoded = YS.transaction.decode(YS.transaction.encode(ys).finish());
    expect(transactionFromYellowstone(decoded, tx.blockTime)).toEqual(tx);
  });

  it('a transaction update whose signature is not the first signature is refused', () => {
    const ys = transactionToYellowstone(tx);
    ys.transaction!.signature = Buffer.alloc(64, 1);
    expect(() => transactionFromYellowstone(ys)).toThrow(/signature/);
  });

  it('token amounts print as Agave prints them', () => {
    expect(uiAmountString(0n, 6)).toBe('0');
    expect(uiAmountString(1_000_000n, 6)).toBe('1');
    expect(uiAmountString(5n, 9)).toBe('0.000000005');
    expect(uiAmountString(123n, 0)).toBe('123');
  });

  it('account write round-trips, with and without a causing signature', () => {
    const a: AccountEvent = {
      pubkey: key(1),
      lamports: 7n,
      owner: key(2),
      executable: false,
      rentEpoch: (1n << 64n) - 1n,
      data: Buffer.from([1, 2, 3]),
      writeVersion: 99n,
      slot: 5n,
      txnSignature: Buffer.alloc(64, 4),
      isStartup: false,
    };
    for (const e of [a, { ...a, txnSignature: undefined, isStartup: true }]) {
      const bytes = YS.account.encode(accountToYellowstone(e)).finish();
      expect(accountFromYellowstone(YS.account.decode(bytes))).toEqual(e);
    }
  });

  it('slot statuses map by name; skipped and gap have no Yellowstone form', () => {
    const dead = {
      slot: 9n,
      status: SlotStatus.SLOT_STATUS_DEAD,
      block: undefined,
      deadError: 'shred mismatch',
      gap: undefined,
      parent: 8n,
    };
    const ys = slotToYellowstone(dead)!;
    expect(ys.status).toBe(YellowstoneSlotStatus.SLOT_DEAD);
    expect(slotFromYellowstone(YS.slot.decode(YS.slot.encode(ys).finish()))).toEqual(dead);
    const pairs: [SlotStatus, YellowstoneSlotStatus][] = [
      [SlotStatus.SLOT_STATUS_PROCESSED, YellowstoneSlotStatus.SLOT_PROCESSED],
      [SlotStatus.SLOT_STATUS_CONFIRMED, YellowstoneSlotStatus.SLOT_CONFIRMED],
      [SlotStatus.SLOT_STATUS_FINALIZED, YellowstoneSlotStatus.SLOT_FINALIZED],
      [SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED, YellowstoneSlotStatus.SLOT_FIRST_SHRED_RECEIVED],
      [SlotStatus.SLOT_STATUS_CREATED_BANK, YellowstoneSlotStatus.SLOT_CREATED_BANK],
      [SlotStatus.SLOT_STATUS_COMPLETED, YellowstoneSlotStatus.SLOT_COMPLETED],
    ];
    for (const [ours, theirs] of pairs) {
      expect(slotToYellowstone({ ...dead, status: ours, deadError: undefined })!.status).toBe(theirs);
      expect(slotFromYellowstone({ slot: '1', status: theirs }).status).toBe(ours);
    }
    expect(slotToYellowstone({ ...dead, status: SlotStatus.SLOT_STATUS_SKIPPED })).toBeUndefined();
    expect(slotToYellowstone({ ...dead, status: SlotStatus.SLOT_STATUS_GAP })).toBeUndefined();
    expect(() => slotFromYellowstone({ slot: '1', status: 42 as YellowstoneSlotStatus })).toThrow(/unknown/);
  });

  it('block meta round-trips; leader and vote count are left for the source to fill', () => {
    const b: BlockMeta = {
      parentSlot: 10n,
      blockhash: key(1),
      blockHeight: 9n,
      blockTime: 1_700_000_000n,
      leader: Buffer.alloc(0),
      transactionCount: 12,
      voteTransactionCount: 0,
      previousBlockhash: key(2),
      rewards: [
        {
          pubkey: key(3),
          lamports: 5000n,
          postBalance: 10n,
          rewardType: RewardType.REWARD_TYPE_VOTING,
          commission: 10,
          commissionBps: 1000,
        },
      ],
      executedTransactionCount: 12n,
      entryCount: 64n,
      numPartitions: 4n,
    };
    const bytes = YS.blockMeta.encode(blockMetaToYellowstone(11n, b)).finish();
    expect(blockMetaFromYellowstone(YS.blockMeta.decode(bytes))).toEqual({ slot: 11n, block: b });
  });

  it('entry round-trips', () => {
    const e: EntryEvent = {
      slot: 3n,
      index: 7n,
      numHashes: 12_500n,
      hash: key(4),
      executedTransactionCount: 2n,
      startingTransactionIndex: 40n,
    };
    expect(entryFromYellowstone(YS.entry.decode(YS.entry.encode(entryToYellowstone(e)).finish()))).toEqual(e);
  });
});

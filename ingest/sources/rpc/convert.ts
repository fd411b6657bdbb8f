// Agave's getBlock JSON (encoding base64, maxSupportedTransactionVersion 1, rewards true, transactionDetails
// full) to the event model: the processed slot record with its block meta, and the block's transactions with
// their full meta. Pure. The transaction message (legacy, v0 or v1) comes from its wire bytes
// (schemas/wire.ts); the meta from Agave's UiTransactionStatusMeta, whose None values (null) stay apart from
// empty lists. Independent of schemas/yellowstone on purpose: the real-data tests compare the two decodings
// field for field.
import bs58 from 'bs58';
import {
  RewardType,
  SlotStatus,
  type AccountEvent,
  type InnerInstructions,
  type Reward,
  type SlotEvent,
  type TokenBalance,
  type TransactionEvent,
} from '../../../schemas/codec.js';
import { AGAVE_REWARD_TYPES } from '../../../schemas/reward-types.js';
import { decodeTransactionWire } from '../../../schemas/wire.js';

/** u64 as Agave writes it: a JSON number, or (from parseJsonExact) a decimal string when long. */
export type U64 = number | string;

export interface RpcReward {
  pubkey: string;
  lamports: U64;
  postBalance: U64;
  rewardType: string | null;
  commission?: number | null;
  commissionBps?: number | null;
}

export interface RpcTokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  programId?: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount?: number | null; uiAmountString?: string };
}

export interface RpcInnerInstruction {
  programIdIndex: number;
  accounts: number[];
  /** base-58 */
  data: string;
  stackHeight?: number | null;
}

export interface RpcMeta {
  err: unknown;
  fee: U64;
  preBalances: U64[];
  postBalances: U64[];
  innerInstructions?: { index: number; instructions: RpcInnerInstruction[] }[] | null;
  logMessages?: string[] | null;
  preTokenBalances?: RpcTokenBalance[] | null;
  postTokenBalances?: RpcTokenBalance[] | null;
  rewards?: RpcReward[] | null;
  loadedAddresses?: { writable: string[]; readonly: string[] } | null;
  returnData?: { programId: string; data: [string, string] } | null;
  computeUnitsConsumed?: U64 | null;
  costUnits?: U64 | null;
}

export interface RpcTransaction {
  /** [base64 wire bytes, "base64"] */
  transaction: [string, string];
  meta: RpcMeta | null;
  version?: 'legacy' | number;
}

export interface RpcBlock {
  blockhash: string;
  previousBlockhash: string;
  parentSlot: number;
  blockTime: number | null;
  blockHeight: number | null;
  transactions: RpcTransaction[];
  rewards?: RpcReward[];
  numRewardPartitions?: number | null;
}

export interface RpcBlockEvents {
  slot: SlotEvent;
  transactions: TransactionEvent[];
}

export class RpcConversionError extends Error {
  override name = 'RpcConversionError';
}

const u64 = (v: U64 | null | undefined, what: string): bigint => {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'number' && !Number.isSafeInteger(v)) throw new RpcConversionError(`${what}: ${v} is not an exact integer`);
  return BigInt(v);
};

const optU64 = (v: U64 | null | undefined, what: string): bigint | undefined => (v === null || v === undefined ? undefined : u64(v, what));

const key = (s: string): Buffer => Buffer.from(bs58.decode(s));

/** "" stays empty: Agave's "not recorded" (old blocks have no previous blockhash). */
const optKey = (s: string | undefined | null): Buffer => (s === undefined || s === null || s === '' ? Buffer.alloc(0) : key(s));

export function rewardFromRpc(r: RpcReward): Reward {
  let rewardType = RewardType.REWARD_TYPE_UNSPECIFIED;
  if (r.rewardType !== null && r.rewardType !== undefined) {
    const t = AGAVE_REWARD_TYPES[r.rewardType];
    if (t === undefined) throw new RpcConversionError(`reward of ${r.pubkey}: unknown rewardType ${JSON.stringify(r.rewardType)}`);
    rewardType = t;
  }
  return {
    pubkey: key(r.pubkey),
    // Signed: rent collection debits.
    lamports: BigInt(r.lamports),
    postBalance: u64(r.postBalance, 'reward postBalance'),
    rewardType,
    commission: r.commission ?? undefined,
    commissionBps: r.commissionBps ?? undefined,
  };
}

export function tokenBalanceFromRpc(t: RpcTokenBalance): TokenBalance {
  return {
    accountIndex: t.accountIndex,
    mint: key(t.mint),
    owner: optKey(t.owner),
    programId: optKey(t.programId),
    amount: BigInt(t.uiTokenAmount.amount),
    decimals: t.uiTokenAmount.decimals,
  };
}

/** Agave's JSON form of a TransactionError (`meta.err`) as the event model keeps it: compact JSON text,
 * absent on success. The shape is kept as the node wrote it (also variants newer than this code). */
export function errFromRpc(err: unknown): string | undefined {
  return err === null || err === undefined ? undefined : JSON.stringify(err);
}

export function innerInstructionsFromRpc(groups: NonNullable<RpcMeta['innerInstructions']>): InnerInstructions[] {
  return groups.map((g) => ({
    index: g.index,
    instructions: g.instructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: Buffer.from(ix.accounts),
      data: Buffer.from(bs58.decode(ix.data)),
      stackHeight: ix.stackHeight ?? undefined,
    })),
  }));
}

export interface TransactionPlace {
  slot: bigint;
  index: number;
  blockTime?: bigint | undefined;
}

export function transactionFromRpc(t: RpcTransaction, at: TransactionPlace): TransactionEvent {
  const where = `transaction ${at.slot}/${at.index}`;
  const m = t.meta;
  if (m === null || m === undefined) throw new RpcConversionError(`${where}: no meta`);
  if (!Array.isArray(t.transaction) || t.transaction[1] !== 'base64') {
    throw new RpcConversionError(`${where}: expected [bytes, "base64"], got ${JSON.stringify(t.transaction).slice(0, 80)}`);
  }
  try {
    const wire = decodeTransactionWire(Buffer.from(t.transaction[0], 'base64'), {
      slot: at.slot,
      index: at.index,
      err: errFromRpc(m.err),
      fee: u64(m.fee, 'fee'),
      loadedWritable: (m.loadedAddresses?.writable ?? []).map(key),
      loadedReadonly: (m.loadedAddresses?.readonly ?? []).map(key),
      blockTime: at.blockTime,
    });
    return {
      ...wire,
      preBalances: m.preBalances.map((v) => u64(v, 'preBalances')),
      postBalances: m.postBalances.map((v) => u64(v, 'postBalances')),
      preTokenBalances: (m.preTokenBalances ?? []).map(tokenBalanceFromRpc),
      postTokenBalances: (m.postTokenBalances ?? []).map(tokenBalanceFromRpc),
      innerInstructions: innerInstructionsFromRpc(m.innerInstructions ?? []),
      innerInstructionsNone: m.innerInstructions === null || m.innerInstructions === undefined,
      logMessages: m.logMessages ?? [],
      logMessagesNone: m.logMessages === null || m.logMessages === undefined,
      computeUnitsConsumed: optU64(m.computeUnitsConsumed, 'computeUnitsConsumed'),
      returnData:
        m.returnData === null || m.returnData === undefined
          ? undefined
          : { programId: key(m.returnData.programId), data: Buffer.from(m.returnData.data[0], 'base64') },
      rewards: (m.rewards ?? []).map(rewardFromRpc),
      costUnits: optU64(m.costUnits, 'costUnits'),
    };
  } catch (e) {
    if (e instanceof RpcConversionError && e.message.startsWith(where)) throw e;
    throw new RpcConversionError(`${where}: ${(e as Error).message}`);
  }
}

/** A transaction of a block that could not be converted: left out of the block's transactions. */
export interface UnconvertibleTransaction {
  index: number;
  transaction: RpcTransaction;
  error: RpcConversionError;
}

/** A getBlock answer to the processed slot record (block meta, `leader` from the leader schedule) and the
 * block's transactions. Throws RpcConversionError naming the slot (and transaction) on data it cannot read;
 * with `onUnconvertible`, a transaction it cannot read is handed there instead and the block goes on (its
 * counts in the block meta stay the block's own). */
export function blockFromRpc(
  slot: bigint,
  b: RpcBlock,
  leader: Uint8Array,
  onUnconvertible?: (u: UnconvertibleTransaction) => void,
): RpcBlockEvents {
  const blockTime = b.blockTime === null || b.blockTime === undefined ? undefined : BigInt(b.blockTime);
  const transactions: TransactionEvent[] = [];
  b.transactions.forEach((t, index) => {
    try {
      transactions.push(transactionFromRpc(t, { slot, index, blockTime }));
    } catch (e) {
      if (!onUnconvertible || !(e instanceof RpcConversionError)) throw e;
      onUnconvertible({ index, transaction: t, error: e });
    }
  });
  let rewards: Reward[];
  try {
    rewards = (b.rewards ?? []).map(rewardFromRpc);
  } catch (e) {
    throw new RpcConversionError(`block ${slot}: ${(e as Error).message}`);
  }
  return {
    slot: {
      slot,
      status: SlotStatus.SLOT_STATUS_PROCESSED,
      block: {
        parentSlot: BigInt(b.parentSlot),
        blockhash: key(b.blockhash),
        blockHeight: b.blockHeight === null || b.blockHeight === undefined ? 0n : BigInt(b.blockHeight),
        blockTime,
        leader: Buffer.from(leader),
        transactionCount: b.transactions.length,
        voteTransactionCount: transactions.filter((t) => t.isVote).length,
        previousBlockhash: optKey(b.previousBlockhash),
        rewards,
        executedTransactionCount: BigInt(b.transactions.length),
        entryCount: undefined,
        numPartitions: b.numRewardPartitions === null || b.numRewardPartitions === undefined ? undefined : BigInt(b.numRewardPartitions),
      },
      deadError: undefined,
      gap: undefined,
      parent: undefined,
    },
    transactions,
  };
}

/** One entry of getProgramAccounts (encoding base64). */
export interface RpcKeyedAccount {
  pubkey: string;
  account: { lamports: U64; owner: string; data: [string, string]; executable: boolean; rentEpoch: U64 };
}

/** A getProgramAccounts entry as a snapshot write (is_startup) at the answer's context slot. The node says
 * nothing of the write that made the state: write version 0, no transaction signature. */
export function snapshotAccountFromRpc(a: RpcKeyedAccount, slot: bigint): AccountEvent {
  const where = `account ${a.pubkey}`;
  if (!Array.isArray(a.account?.data) || a.account.data[1] !== 'base64') {
    throw new RpcConversionError(`${where}: expected data [bytes, "base64"], got ${JSON.stringify(a.account?.data).slice(0, 80)}`);
  }
  try {
    return {
      pubkey: key(a.pubkey),
      lamports: u64(a.account.lamports, 'lamports'),
      owner: key(a.account.owner),
      executable: a.account.executable === true,
      rentEpoch: u64(a.account.rentEpoch, 'rentEpoch'),
      data: Buffer.from(a.account.data[0], 'base64'),
      writeVersion: 0n,
      slot,
      txnSignature: undefined,
      isStartup: true,
    };
  } catch (e) {
    throw new RpcConversionError(`${where}: ${(e as Error).message}`);
  }
}

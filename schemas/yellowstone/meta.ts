// TransactionStatusMeta (Yellowstone/solana-storage) <-> the event model's meta fields, err and fee.
import type { TokenBalance } from '../gen/events.js';
import type { TransactionMeta } from '../meta.js';
import { buf, keyFromB58, keyToB58, u64, u64Str } from './bytes.js';
import { rewardFromYellowstone, rewardToYellowstone } from './rewards.js';
import type { TokenBalance as YsTokenBalance, TransactionStatusMeta } from './storage.js';
import { transactionErrorFromJson, transactionErrorToJson } from './transaction-error.js';

export interface ConvertedMeta extends TransactionMeta {
  err?: string | undefined;
  fee: bigint;
  loadedWritable: Buffer[];
  loadedReadonly: Buffer[];
}

function tokenBalanceFrom(t: YsTokenBalance): TokenBalance {
  return {
    accountIndex: t.accountIndex,
    mint: keyFromB58(t.mint),
    owner: keyFromB58(t.owner),
    programId: keyFromB58(t.programId),
    amount: u64(t.uiTokenAmount?.amount),
    decimals: t.uiTokenAmount?.decimals ?? 0,
  };
}

/** Agave's UiTokenAmount text: the amount with `decimals` places, trailing zeros (and a bare point) trimmed. */
export function uiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const s = amount.toString().padStart(decimals + 1, '0');
  const text = `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}

export function tokenBalanceTo(t: TokenBalance): YsTokenBalance {
  const ui = uiAmountString(t.amount, t.decimals);
  return {
    accountIndex: t.accountIndex,
    mint: keyToB58(t.mint),
    owner: keyToB58(t.owner),
    programId: keyToB58(t.programId),
    uiTokenAmount: { uiAmount: Number(ui), decimals: t.decimals, amount: t.amount.toString(), uiAmountString: ui },
  };
}

export function metaFromYellowstone(m: TransactionStatusMeta): ConvertedMeta {
  return {
    err: m.err === undefined ? undefined : transactionErrorToJson(m.err.err),
    fee: u64(m.fee),
    loadedWritable: m.loadedWritableAddresses.map(buf),
    loadedReadonly: m.loadedReadonlyAddresses.map(buf),
    preBalances: m.preBalances.map(u64),
    postBalances: m.postBalances.map(u64),
    preTokenBalances: m.preTokenBalances.map(tokenBalanceFrom),
    postTokenBalances: m.postTokenBalances.map(tokenBalanceFrom),
    innerInstructions: m.innerInstructions.map((g) => ({
      index: g.index,
      instructions: g.instructions.map((ix) => ({
        programIdIndex: ix.programIdIndex,
        accounts: buf(ix.accounts),
        data: buf(ix.data),
        stackHeight: ix.stackHeight,
      })),
    })),
    logMessages: m.logMessages,
    computeUnitsConsumed: m.computeUnitsConsumed === undefined ? undefined : u64(m.computeUnitsConsumed),
    returnData: m.returnData === undefined ? undefined : { programId: buf(m.returnData.programId), data: buf(m.returnData.data) },
    innerInstructionsNone: m.innerInstructionsNone,
    logMessagesNone: m.logMessagesNone,
    rewards: m.rewards.map(rewardFromYellowstone),
    costUnits: m.costUnits === undefined ? undefined : u64(m.costUnits),
  };
}

export function metaToYellowstone(e: ConvertedMeta): TransactionStatusMeta {
  return {
    err: e.err === undefined ? undefined : { err: transactionErrorFromJson(e.err) },
    fee: u64Str(e.fee),
    preBalances: e.preBalances.map(u64Str),
    postBalances: e.postBalances.map(u64Str),
    innerInstructions: e.innerInstructions.map((g) => ({
      index: g.index,
      instructions: g.instructions.map((ix) => ({
        programIdIndex: ix.programIdIndex,
        accounts: ix.accounts,
        data: ix.data,
        stackHeight: ix.stackHeight,
      })),
    })),
    innerInstructionsNone: e.innerInstructionsNone,
    logMessages: e.logMessages,
    logMessagesNone: e.logMessagesNone,
    preTokenBalances: e.preTokenBalances.map(tokenBalanceTo),
    postTokenBalances: e.postTokenBalances.map(tokenBalanceTo),
    rewards: e.rewards.map(rewardToYellowstone),
    loadedWritableAddresses: e.loadedWritable,
    loadedReadonlyAddresses: e.loadedReadonly,
    returnData: e.returnData === undefined ? undefined : { programId: e.returnData.programId, data: e.returnData.data },
    // Agave sets the flag whenever the value is None; keep the two consistent on the way out.
    returnDataNone: e.returnData === undefined,
    computeUnitsConsumed: e.computeUnitsConsumed === undefined ? undefined : u64Str(e.computeUnitsConsumed),
    costUnits: e.costUnits === undefined ? undefined : u64Str(e.costUnits),
  };
}

// Transactions: Yellowstone's SubscribeUpdateTransaction (and solana-storage's ConfirmedTransaction,
// the same message and meta without the update's envelope) <-> the event model's TransactionEvent.
// What Yellowstone does not carry (block time) comes from the caller; what the event model derives
// (memos) is recomputed from the message.
import bs58 from 'bs58';
import type { TransactionConfig as EventTransactionConfig, TransactionEvent } from '../gen/events.js';
import { buf } from './bytes.js';
import { memosOf } from './memo.js';
import { metaFromYellowstone, metaToYellowstone } from './meta.js';
import type { Message, SubscribeUpdateTransaction, Transaction, TransactionStatusMeta } from './storage.js';

export class YellowstoneConversionError extends Error {
  override name = 'YellowstoneConversionError';
}

const VOTE_PROGRAM = Buffer.from(bs58.decode('Vote111111111111111111111111111111111111111'));

/** Agave's vote flag for a transaction that carries none (ConfirmedBlock): it invokes the vote program. */
export function invokesVoteProgram(keys: readonly Uint8Array[], instructions: readonly { programIdIndex: number }[]): boolean {
  return instructions.some((ix) => {
    const k = keys[ix.programIdIndex];
    return k !== undefined && VOTE_PROGRAM.equals(k);
  });
}

export interface TransactionContext {
  slot: bigint;
  index: number;
  /** Unix seconds from the block meta, when known. */
  blockTime?: bigint;
  /** Yellowstone's flag; computed from the instructions when absent. */
  isVote?: boolean;
}

type YellowstoneConfig = NonNullable<Message['config']>;

/** Yellowstone marks a v1 (SIMD-0385) message by its `config` (Message field 7, set only for v1); the
 * event model by `version: 1` and the same values. */
function configFromYellowstone(c: YellowstoneConfig): EventTransactionConfig {
  return {
    priorityFee: c.priorityFee === undefined ? undefined : BigInt(c.priorityFee),
    computeUnitLimit: c.computeUnitLimit,
    loadedAccountsDataSizeLimit: c.loadedAccountsDataSizeLimit,
    heapSize: c.heapSize,
  };
}

function configToYellowstone(c: EventTransactionConfig): YellowstoneConfig {
  return {
    priorityFee: c.priorityFee === undefined ? undefined : c.priorityFee.toString(),
    computeUnitLimit: c.computeUnitLimit,
    loadedAccountsDataSizeLimit: c.loadedAccountsDataSizeLimit,
    heapSize: c.heapSize,
  };
}

/** A transaction and its meta to the event model. Throws YellowstoneConversionError when a part is missing
 * or the error bytes are not a known TransactionError. */
export function transactionFromParts(
  tx: Transaction | undefined,
  meta: TransactionStatusMeta | undefined,
  ctx: TransactionContext,
): TransactionEvent {
  const msg = tx?.message;
  if (tx === undefined || msg === undefined || msg.header === undefined) {
    throw new YellowstoneConversionError(`transaction ${ctx.slot}/${ctx.index}: no message`);
  }
  if (meta === undefined) throw new YellowstoneConversionError(`transaction ${ctx.slot}/${ctx.index}: no meta`);
  const accountKeys = msg.accountKeys.map(buf);
  const instructions = msg.instructions.map((ix) => ({
    programIdIndex: ix.programIdIndex,
    accounts: buf(ix.accounts),
    data: buf(ix.data),
  }));
  let m;
  try {
    m = metaFromYellowstone(meta);
  } catch (e) {
    throw new YellowstoneConversionError(`transaction ${ctx.slot}/${ctx.index}: ${(e as Error).message}`);
  }
  // Only v1 events carry the version fields (legacy and v0 ones leave them out, as the wire decoder does).
  const v1 = msg.config === undefined ? {} : { version: 1, transactionConfig: configFromYellowstone(msg.config) };
  return {
    slot: ctx.slot,
    index: ctx.index,
    signatures: tx.signatures.map(buf),
    versioned: msg.versioned || msg.config !== undefined,
    numRequiredSignatures: msg.header.numRequiredSignatures,
    numReadonlySignedAccounts: msg.header.numReadonlySignedAccounts,
    numReadonlyUnsignedAccounts: msg.header.numReadonlyUnsignedAccounts,
    accountKeys,
    recentBlockhash: buf(msg.recentBlockhash),
    instructions,
    addressTableLookups: msg.addressTableLookups.map((l) => ({
      accountKey: buf(l.accountKey),
      writableIndexes: buf(l.writableIndexes),
      readonlyIndexes: buf(l.readonlyIndexes),
    })),
    isVote: ctx.isVote ?? invokesVoteProgram(accountKeys, instructions),
    memos: memosOf(accountKeys, instructions),
    blockTime: ctx.blockTime,
    ...m,
    ...v1,
  };
}

export function transactionToParts(e: TransactionEvent): { transaction: Transaction; meta: TransactionStatusMeta } {
  return {
    transaction: {
      signatures: e.signatures,
      message: {
        header: {
          numRequiredSignatures: e.numRequiredSignatures,
          numReadonlySignedAccounts: e.numReadonlySignedAccounts,
          numReadonlyUnsignedAccounts: e.numReadonlyUnsignedAccounts,
        },
        accountKeys: e.accountKeys,
        recentBlockhash: e.recentBlockhash,
        instructions: e.instructions,
        versioned: e.versioned,
        addressTableLookups: e.addressTableLookups,
        config: e.version === 1 ? configToYellowstone(e.transactionConfig ?? {}) : undefined,
      },
    },
    meta: metaToYellowstone(e),
  };
}

export function transactionFromYellowstone(u: SubscribeUpdateTransaction, blockTime?: bigint): TransactionEvent {
  const info = u.transaction;
  if (info === undefined) throw new YellowstoneConversionError(`transaction update of slot ${u.slot}: empty`);
  const slot = BigInt(u.slot);
  const event = transactionFromParts(info.transaction, info.meta, { slot, index: Number(info.index), blockTime, isVote: info.isVote });
  if (event.signatures[0] === undefined || !Buffer.from(info.signature).equals(event.signatures[0])) {
    throw new YellowstoneConversionError(`transaction ${slot}/${info.index}: signature differs from the transaction's first signature`);
  }
  return event;
}

export function transactionToYellowstone(e: TransactionEvent): SubscribeUpdateTransaction {
  const { transaction, meta } = transactionToParts(e);
  return {
    slot: e.slot.toString(),
    transaction: { signature: e.signatures[0] ?? new Uint8Array(64), isVote: e.isVote, transaction, meta, index: String(e.index) },
  };
}

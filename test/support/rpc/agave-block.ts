// Renders a solana.storage.ConfirmedBlock (as Yellowstone's published codec decodes it) as Agave's getBlock
// JSON, the way an Agave node answers: encoding base64 (what the rpc source asks for) or json (what
// @solana/web3.js's Connection.getBlock asks for), full transaction details, rewards. Written from the
// protobuf fields directly, not through the event model, so the rpc source's converter (path B) is checked
// against schemas/yellowstone (path A) by an independent route. Large u64 values are written as exact JSON
// numbers.
import bs58 from 'bs58';
import type { ConfirmedBlock } from '../../../schemas/yellowstone/storage.js';
import { transactionErrorToJson } from '../../../schemas/yellowstone/index.js';

type Tx = NonNullable<ConfirmedBlock['transactions'][number]['transaction']>;
type Meta = NonNullable<ConfirmedBlock['transactions'][number]['meta']>;
type YsReward = ConfirmedBlock['rewards'][number];

const b58 = (b: Uint8Array): string => bs58.encode(b);
const REWARD_NAMES = [null, 'Fee', 'Rent', 'Staking', 'Voting', 'DeactivatedStake'];

/** A u64/i64 kept exact through JSON.stringify (see toJsonText). */
class Exact {
  constructor(readonly digits: string) {}
  toJSON(): string {
    return `\u0000exact:${this.digits}`;
  }
}
const n = (s: string | number | bigint): Exact => new Exact(String(s === '' ? '0' : s));

/** JSON text with Exact values written as bare numbers. */
export function toJsonText(v: unknown): string {
  return JSON.stringify(v).replace(/"\\u0000exact:(-?\d+)"/g, '$1');
}

function shortU16(out: number[], v: number): void {
  for (let rest = v; ;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      out.push(low);
      return;
    }
    out.push(low | 0x80);
  }
}

/** The transaction's wire bytes: compact-u16 signature count, signatures, then the (legacy or v0) message. */
export function wireBytes(t: Tx): Buffer {
  const m = t.message!;
  const out: number[] = [];
  const push = (b: Uint8Array): void => {
    for (const x of b) out.push(x);
  };
  shortU16(out, t.signatures.length);
  t.signatures.forEach(push);
  if (m.versioned) out.push(0x80);
  out.push(m.header!.numRequiredSignatures, m.header!.numReadonlySignedAccounts, m.header!.numReadonlyUnsignedAccounts);
  shortU16(out, m.accountKeys.length);
  m.accountKeys.forEach(push);
  push(m.recentBlockhash);
  shortU16(out, m.instructions.length);
  for (const ix of m.instructions) {
    out.push(ix.programIdIndex);
    shortU16(out, ix.accounts.length);
    push(ix.accounts);
    shortU16(out, ix.data.length);
    push(ix.data);
  }
  if (m.versioned) {
    shortU16(out, m.addressTableLookups.length);
    for (const l of m.addressTableLookups) {
      push(l.accountKey);
      shortU16(out, l.writableIndexes.length);
      push(l.writableIndexes);
      shortU16(out, l.readonlyIndexes.length);
      push(l.readonlyIndexes);
    }
  }
  return Buffer.from(out);
}

function reward(r: YsReward): object {
  return {
    pubkey: r.pubkey,
    lamports: n(r.lamports),
    postBalance: n(r.postBalance),
    rewardType: REWARD_NAMES[r.rewardType] ?? null,
    commission: r.commission === '' ? null : Number(r.commission),
    ...(r.commissionBps === '' ? {} : { commissionBps: Number(r.commissionBps) }),
  };
}

function tokenBalance(t: Meta['preTokenBalances'][number]): object {
  return {
    accountIndex: t.accountIndex,
    mint: t.mint,
    // Agave reads meta back from storage: ui_amount kept only when |ui_amount| > f64::EPSILON (convert.rs).
    uiTokenAmount: t.uiTokenAmount && {
      ...t.uiTokenAmount,
      uiAmount: Math.abs(t.uiTokenAmount.uiAmount) > Number.EPSILON ? t.uiTokenAmount.uiAmount : null,
    },
    ...(t.owner === '' ? {} : { owner: t.owner }),
    ...(t.programId === '' ? {} : { programId: t.programId }),
  };
}

function meta(m: Meta): object {
  const err = m.err === undefined ? null : JSON.parse(transactionErrorToJson(m.err.err));
  return {
    err,
    status: err === null ? { Ok: null } : { Err: err },
    fee: n(m.fee),
    preBalances: m.preBalances.map(n),
    postBalances: m.postBalances.map(n),
    innerInstructions: m.innerInstructionsNone
      ? null
      : m.innerInstructions.map((g) => ({
          index: g.index,
          instructions: g.instructions.map((ix) => ({
            programIdIndex: ix.programIdIndex,
            accounts: Array.from(ix.accounts),
            data: b58(ix.data),
            stackHeight: ix.stackHeight ?? null,
          })),
        })),
    logMessages: m.logMessagesNone ? null : m.logMessages,
    preTokenBalances: m.preTokenBalances.map(tokenBalance),
    postTokenBalances: m.postTokenBalances.map(tokenBalance),
    rewards: m.rewards.map(reward),
    loadedAddresses: { writable: m.loadedWritableAddresses.map(b58), readonly: m.loadedReadonlyAddresses.map(b58) },
    ...(m.returnDataNone || m.returnData === undefined
      ? {}
      : { returnData: { programId: b58(m.returnData.programId), data: [Buffer.from(m.returnData.data).toString('base64'), 'base64'] } }),
    ...(m.computeUnitsConsumed === undefined ? {} : { computeUnitsConsumed: n(m.computeUnitsConsumed) }),
    ...(m.costUnits === undefined ? {} : { costUnits: n(m.costUnits) }),
  };
}

function jsonTransaction(t: Tx): object {
  const m = t.message!;
  return {
    signatures: t.signatures.map(b58),
    message: {
      accountKeys: m.accountKeys.map(b58),
      header: m.header,
      recentBlockhash: b58(m.recentBlockhash),
      instructions: m.instructions.map((ix) => ({
        programIdIndex: ix.programIdIndex,
        accounts: Array.from(ix.accounts),
        data: b58(ix.data),
        stackHeight: null,
      })),
      ...(m.versioned
        ? {
            addressTableLookups: m.addressTableLookups.map((l) => ({
              accountKey: b58(l.accountKey),
              writableIndexes: Array.from(l.writableIndexes),
              readonlyIndexes: Array.from(l.readonlyIndexes),
            })),
          }
        : {}),
    },
  };
}

export type BlockEncoding = 'base64' | 'json';

/** getBlock's result object (Exact values inside: serialize with toJsonText). */
export function agaveBlock(b: ConfirmedBlock, encoding: BlockEncoding = 'base64'): object {
  return {
    blockHeight: b.blockHeight === undefined ? null : n(b.blockHeight.blockHeight),
    blockTime: b.blockTime === undefined ? null : n(b.blockTime.timestamp),
    blockhash: b.blockhash,
    parentSlot: n(b.parentSlot),
    previousBlockhash: b.previousBlockhash,
    rewards: b.rewards.map(reward),
    ...(b.numPartitions === undefined ? {} : { numRewardPartitions: n(b.numPartitions.numPartitions) }),
    transactions: b.transactions.map((ct) => ({
      transaction: encoding === 'base64' ? [wireBytes(ct.transaction!).toString('base64'), 'base64'] : jsonTransaction(ct.transaction!),
      meta: meta(ct.meta!),
      version: ct.transaction!.message!.versioned ? 0 : 'legacy',
    })),
  };
}

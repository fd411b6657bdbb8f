// The chain of the getTransaction / getBlock tests, as events with full transaction meta: slots 200..212,
// a skipped slot, a block whose fork died (its transactions must never be served; one of them landed again
// in the next block), heads at three commitments. Every block holds a legacy system transfer and a v0
// transaction (lookup-table addresses, SPL Token transferChecked, a memo, inner instructions, token balances,
// return data, compute units), one of them failing in some blocks; blocks carry rewards. Balances add up:
// pre minus post summed over the accounts is the fee.
import bs58 from 'bs58';
import { RewardType, SlotStatus, TransactionEvent, type ChainEvent, type Reward } from '../../../schemas/codec.js';
import { TOKEN_PROGRAM } from '../../../schemas/programs.js';
import type { SlotBatch } from '../projector/chain.js';
import { keyOf, slotStatus } from '../projector/events.js';

export const TX_FIRST = 200;
export const TX_LAST = 212;
export const TX_SKIPPED = 203;
/** Produced, then DEAD: its block and transactions are never served. */
export const TX_DEAD = 206;
export const TX_HEADS = { finalized: 208, confirmed: 210, processed: 212 } as const;
/** A block whose slot record carries no previous blockhash (older records): the parent's blockhash is answered. */
export const NO_PREVIOUS_HASH_SLOT = 205;
/** The block with a voting reward and reward partitions. */
export const REWARDS_SLOT = 207;
/** Its transfer comes without a block time (as a Yellowstone transaction update): the block's is answered. */
export const NO_TX_TIME_SLOT = 209;
export const TX_ERR = '{"InstructionError":[0,{"Custom":1}]}';

const k = (label: string): Buffer => keyOf(label);
const b58 = (b: Uint8Array): string => bs58.encode(b);
export const PAYER = k('tx-payer');
export const DEST = k('tx-dest');
export const SRC_TOKEN = k('tx-src-token');
export const DST_TOKEN = k('tx-dst-token');
export const MINT = k('tx-mint');
export const OWNER = k('tx-owner');
export const LOOKUP_TABLE = k('tx-lookup-table');
export const SYSTEM = Buffer.alloc(32);
export const TOKEN = Buffer.from(bs58.decode(TOKEN_PROGRAM));
export const MEMO = Buffer.from(bs58.decode('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'));
export const blockhashOf = (slot: number): Buffer => keyOf(`blockhash-${slot}`);
export const txBlockTime = (slot: number): number => 1_710_000_000 + slot;
export const FEE = 5000n;
export const TRANSFER_LAMPORTS = 1_000_000n;
export const MEMO_TEXT = 'hello from slotstream';

/** Signature of the transaction at (slot, i); the dead block's second one landed again at (TX_DEAD + 1, 2). */
export const txSig = (slot: number, i: number): Buffer => keyOf(`txsig-${slot}-${i}`, 64);
export const RELANDED = { slot: TX_DEAD + 1, index: 2, sig: txSig(TX_DEAD, 1) };
export const ONLY_DEAD = txSig(TX_DEAD, 0);
export const failed = (slot: number): boolean => slot % 4 === 0;

const le64 = (v: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(v);
  return b;
};

export function transferTx(slot: number, index: number, sig: Buffer): TransactionEvent {
  const payerBefore = 10_000_000_000n - BigInt(slot) * 10_000_000n;
  return TransactionEvent.fromPartial({
    slot: BigInt(slot),
    index,
    signatures: [sig],
    versioned: false,
    numRequiredSignatures: 1,
    numReadonlySignedAccounts: 0,
    numReadonlyUnsignedAccounts: 1,
    accountKeys: [PAYER, DEST, SYSTEM],
    recentBlockhash: blockhashOf(slot - 1),
    instructions: [
      { programIdIndex: 2, accounts: Buffer.from([0, 1]), data: Buffer.concat([Buffer.from([2, 0, 0, 0]), le64(TRANSFER_LAMPORTS)]) },
    ],
    isVote: false,
    fee: FEE,
    blockTime: slot === NO_TX_TIME_SLOT ? undefined : BigInt(txBlockTime(slot)),
    preBalances: [payerBefore, 50_000n, 1n],
    postBalances: [payerBefore - TRANSFER_LAMPORTS - FEE, 50_000n + TRANSFER_LAMPORTS, 1n],
    innerInstructions: [],
    logMessages: ['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success'],
    computeUnitsConsumed: 150n,
  });
}

/** v0: static [payer, srcToken, memo, token], loaded writable [dstToken], loaded readonly [mint]. */
export function tokenTx(slot: number, index: number): TransactionEvent {
  const fails = failed(slot);
  const amount = 2_500_000n;
  const before = 100_000_000n;
  const fee = FEE + 1234n;
  return TransactionEvent.fromPartial({
    slot: BigInt(slot),
    index,
    signatures: [txSig(slot, index)],
    versioned: true,
    numRequiredSignatures: 1,
    numReadonlySignedAccounts: 0,
    numReadonlyUnsignedAccounts: 2,
    accountKeys: [PAYER, SRC_TOKEN, MEMO, TOKEN],
    recentBlockhash: blockhashOf(slot - 1),
    instructions: [
      { programIdIndex: 3, accounts: Buffer.from([1, 5, 4, 0]), data: Buffer.concat([Buffer.from([12]), le64(amount), Buffer.from([6])]) },
      { programIdIndex: 2, accounts: Buffer.from([0]), data: Buffer.from(MEMO_TEXT) },
    ],
    addressTableLookups: [{ accountKey: LOOKUP_TABLE, writableIndexes: Buffer.from([3]), readonlyIndexes: Buffer.from([7]) }],
    loadedWritable: [DST_TOKEN],
    loadedReadonly: [MINT],
    isVote: false,
    err: fails ? TX_ERR : undefined,
    fee,
    memos: [MEMO_TEXT],
    blockTime: BigInt(txBlockTime(slot)),
    preBalances: [5_000_000_000n, 2_039_280n, 1n, 1n, 2_039_280n, 1_461_600n],
    postBalances: [5_000_000_000n - fee, 2_039_280n, 1n, 1n, 2_039_280n, 1_461_600n],
    preTokenBalances: [
      { accountIndex: 1, mint: MINT, owner: OWNER, programId: TOKEN, amount: before, decimals: 6 },
      { accountIndex: 4, mint: MINT, owner: PAYER, programId: TOKEN, amount: 0n, decimals: 6 },
    ],
    postTokenBalances: [
      { accountIndex: 1, mint: MINT, owner: OWNER, programId: TOKEN, amount: fails ? before : before - amount, decimals: 6 },
      { accountIndex: 4, mint: MINT, owner: PAYER, programId: TOKEN, amount: fails ? 0n : amount, decimals: 6 },
    ],
    innerInstructions: [
      { index: 0, instructions: [{ programIdIndex: 2, accounts: Buffer.from([0]), data: Buffer.from('inner'), stackHeight: 2 }] },
    ],
    logMessages: [
      `Program ${TOKEN_PROGRAM} invoke [1]`,
      'Program log: Instruction: TransferChecked',
      fails ? `Program ${TOKEN_PROGRAM} failed: custom program error: 0x1` : `Program ${TOKEN_PROGRAM} success`,
    ],
    computeUnitsConsumed: 6200n,
    returnData: fails ? undefined : { programId: TOKEN, data: Buffer.from([1, 2, 3]) },
    costUnits: 1500n,
  });
}

export const LEADER = k('tx-leader');
export function blockRewards(slot: number): Reward[] {
  const rewards: Reward[] = [
    {
      pubkey: LEADER,
      lamports: 2500n * 2n,
      postBalance: 9_000_000n + BigInt(slot),
      rewardType: RewardType.REWARD_TYPE_FEE,
      commission: undefined,
      commissionBps: undefined,
    },
  ];
  if (slot === REWARDS_SLOT) {
    rewards.push({
      pubkey: k('tx-voter'),
      lamports: 777n,
      postBalance: 1_000_777n,
      rewardType: RewardType.REWARD_TYPE_VOTING,
      commission: 10,
      commissionBps: undefined,
    });
  }
  return rewards;
}

/** The transactions of a produced block. */
export function blockTransactions(slot: number): TransactionEvent[] {
  const txs = [transferTx(slot, 0, txSig(slot, 0)), tokenTx(slot, 1)];
  if (slot === RELANDED.slot) txs.push(transferTx(slot, 2, RELANDED.sig));
  return txs;
}

export function buildTxChain(): SlotBatch[] {
  const batches: SlotBatch[] = [];
  for (let slot = TX_FIRST; slot <= TX_LAST; slot++) {
    const events: ChainEvent[] = [];
    if (slot === TX_SKIPPED) {
      events.push({ kind: 'slots', event: slotStatus(slot, SlotStatus.SLOT_STATUS_SKIPPED) });
    } else {
      const txs = blockTransactions(slot);
      for (const t of txs) events.push({ kind: 'transactions', event: t });
      const parent = slot === TX_SKIPPED + 1 ? TX_SKIPPED - 1 : slot === TX_DEAD + 1 ? TX_DEAD - 1 : slot - 1;
      const record = slotStatus(slot, SlotStatus.SLOT_STATUS_PROCESSED, {
        parent,
        height: 1000 + slot,
        time: txBlockTime(slot),
        txs: txs.length,
      });
      record.block!.blockhash = blockhashOf(slot);
      record.block!.previousBlockhash = slot === NO_PREVIOUS_HASH_SLOT ? Buffer.alloc(0) : blockhashOf(parent);
      record.block!.rewards = blockRewards(slot);
      if (slot === REWARDS_SLOT) record.block!.numPartitions = 3n;
      events.push({ kind: 'slots', event: record });
    }
    if (slot === TX_DEAD + 1) events.push({ kind: 'slots', event: slotStatus(TX_DEAD, SlotStatus.SLOT_STATUS_DEAD) });
    for (const [head, status] of [
      [TX_HEADS.confirmed, SlotStatus.SLOT_STATUS_CONFIRMED],
      [TX_HEADS.finalized, SlotStatus.SLOT_STATUS_FINALIZED],
    ] as const) {
      const s = slot - (TX_LAST - head);
      if (s >= TX_FIRST && s !== TX_SKIPPED && s !== TX_DEAD) events.push({ kind: 'slots', event: slotStatus(s, status) });
    }
    batches.push({ slot: BigInt(slot), events });
  }
  return batches;
}

/** Every transaction of the chain that is served (dead block's left out), by base58 signature. */
export function servedTransactions(): Map<string, TransactionEvent> {
  const out = new Map<string, TransactionEvent>();
  for (let slot = TX_FIRST; slot <= TX_LAST; slot++) {
    if (slot === TX_SKIPPED || slot === TX_DEAD) continue;
    for (const t of blockTransactions(slot)) out.set(b58(t.signatures[0]!), t);
  }
  return out;
}

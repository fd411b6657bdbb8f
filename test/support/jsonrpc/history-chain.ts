// The chain of the getTransactionsForAddress tests, as events: slots 300..345 with a skipped slot, a block
// whose fork died, heads at three commitments, a vote first in every block (so transactionIndex is the block
// position, not a rank among the wallet's transactions), and a wallet with token accounts: its own transfers
// (some failing), SPL Token and Token-2022 accounts it owns whose balances change (one through a v0
// transaction's lookup-table address), one read without a balance change, one closed (not owned any more),
// one handed to it late (owned now: its whole history counts), and another wallet's token account touched
// beside it. Every transaction is a whole event with meta, so getTransaction answers it.
import bs58 from 'bs58';
import { AccountEvent, SlotStatus, TransactionEvent, type ChainEvent, type TokenBalance } from '../../../schemas/codec.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM, VOTE_PROGRAM } from '../../../schemas/programs.js';
import type { SlotBatch } from '../projector/chain.js';
import { keyOf, slotStatus } from '../projector/events.js';
import { tokenAccountData } from './chain.js';

export const H_FIRST = 300;
export const H_LAST = 345;
export const H_SKIPPED = 310;
/** Produced, then DEAD: holds a wallet transfer that is never served. */
export const H_DEAD = 320;
/** Its transactions come without a block time (as Yellowstone's do): the block's is answered. */
export const H_NO_TX_TIME = 315;
export const H_HEADS = { finalized: 338, confirmed: 342, processed: 345 } as const;
/** The token account handed to the wallet at this slot. */
export const H_HANDOVER = 325;
/** The wallet's token account closed at this slot. */
export const H_CLOSE = 330;
export const H_ERR = '{"InstructionError":[0,{"Custom":42}]}';
export const hBlockTime = (slot: number): number => 1_720_000_000 + slot;

const raw = (b: string): Buffer => Buffer.from(bs58.decode(b));
const b58 = (b: Uint8Array): string => bs58.encode(b);
export const H_WALLET = keyOf('gtfa-wallet');
export const H_OTHER = keyOf('gtfa-other-wallet');
const DEST = keyOf('gtfa-dest');
const PAYER = keyOf('gtfa-payer');
const VOTER = keyOf('gtfa-voter');
const LOOKUP = keyOf('gtfa-lookup');
export const H_MINT = keyOf('gtfa-mint');
export const H_MINT_2022 = keyOf('gtfa-mint-2022');
/** Token accounts: ta1 (Token) and ta2 (Token-2022) the wallet's throughout, ta3 the other wallet's, ta4 the
 * wallet's until closed at H_CLOSE, ta5 the other wallet's until H_HANDOVER, then the wallet's. */
export const H_TA = {
  ta1: keyOf('gtfa-ta-1'),
  ta2: keyOf('gtfa-ta-2'),
  ta3: keyOf('gtfa-ta-3'),
  ta4: keyOf('gtfa-ta-4'),
  ta5: keyOf('gtfa-ta-5'),
};
const SYSTEM = Buffer.alloc(32);
const TOKEN = raw(TOKEN_PROGRAM);
const TOKEN_2022 = raw(TOKEN_2022_PROGRAM);
const VOTE = raw(VOTE_PROGRAM);
const RENT = 2_039_280n;

export const hSig = (slot: number, i: number): Buffer => keyOf(`gtfa-sig-${slot}-${i}`, 64);

const balance = (accountIndex: number, mint: Buffer, owner: Buffer, program: Buffer, amount: bigint): TokenBalance => ({
  accountIndex,
  mint,
  owner,
  programId: program,
  amount,
  decimals: 6,
});

interface TxSpec {
  keys: Buffer[];
  loadedWritable?: Buffer[];
  versioned?: boolean;
  isVote?: boolean;
  fails?: boolean;
  pre?: TokenBalance[];
  post?: TokenBalance[];
}

function txEvent(slot: number, index: number, s: TxSpec): TransactionEvent {
  const n = s.keys.length + (s.loadedWritable?.length ?? 0);
  const pre = Array.from({ length: n }, (_, i) => (i === 0 ? 1_000_000_000n : 1_000n + BigInt(i)));
  const post = pre.map((v, i) => (i === 0 ? v - 5000n : v));
  return TransactionEvent.fromPartial({
    slot: BigInt(slot),
    index,
    signatures: [hSig(slot, index)],
    versioned: s.versioned ?? false,
    numRequiredSignatures: 1,
    numReadonlySignedAccounts: 0,
    numReadonlyUnsignedAccounts: 1,
    accountKeys: s.keys,
    recentBlockhash: keyOf(`gtfa-blockhash-${slot - 1}`),
    instructions: [{ programIdIndex: s.keys.length - 1, accounts: Buffer.from([0, 1]), data: Buffer.from([3, 1, 2]) }],
    addressTableLookups: s.loadedWritable
      ? [{ accountKey: LOOKUP, writableIndexes: Buffer.from([0]), readonlyIndexes: Buffer.alloc(0) }]
      : [],
    loadedWritable: s.loadedWritable ?? [],
    isVote: s.isVote ?? false,
    err: s.fails ? H_ERR : undefined,
    fee: 5000n,
    memos: [],
    blockTime: slot === H_NO_TX_TIME ? undefined : BigInt(hBlockTime(slot)),
    preBalances: pre,
    postBalances: post,
    preTokenBalances: s.pre ?? [],
    postTokenBalances: s.post ?? [],
    innerInstructions: [],
    logMessages: [`Program log: gtfa ${slot} ${index}`],
    computeUnitsConsumed: 1000n,
  });
}

/** The transactions of a produced slot, by kind, in block order after the vote. */
function slotTxSpecs(slot: number): TxSpec[] {
  const out: TxSpec[] = [{ keys: [VOTER, VOTE], isVote: true }];
  // The wallet's own transfer; every third of them fails.
  if (slot % 2 === 0) out.push({ keys: [H_WALLET, DEST, SYSTEM], fails: slot % 6 === 0 });
  // ta1 -> ta3 (the other wallet's): ta1's balance changes.
  if (slot % 3 === 0) {
    out.push({
      keys: [PAYER, H_TA.ta1, H_TA.ta3, TOKEN],
      pre: [balance(1, H_MINT, H_WALLET, TOKEN, 1000n), balance(2, H_MINT, H_OTHER, TOKEN, 5n)],
      post: [balance(1, H_MINT, H_WALLET, TOKEN, 990n), balance(2, H_MINT, H_OTHER, TOKEN, 15n)],
    });
  }
  // ta1 read, its balance the same before and after: tokenAccounts "all" only.
  if (slot % 5 === 0) {
    out.push({
      keys: [PAYER, H_TA.ta1, TOKEN],
      pre: [balance(1, H_MINT, H_WALLET, TOKEN, 7n)],
      post: [balance(1, H_MINT, H_WALLET, TOKEN, 7n)],
    });
  }
  // A v0 transaction: ta2 (Token-2022) loaded from a lookup table, its balance changes (from none: opened with 3).
  if (slot % 4 === 1) {
    out.push({
      keys: [PAYER, TOKEN_2022],
      loadedWritable: [H_TA.ta2],
      versioned: true,
      pre: [],
      post: [balance(2, H_MINT_2022, H_WALLET, TOKEN_2022, 3n)],
    });
  }
  // Only the other wallet's ta3 changes: never the wallet's.
  if (slot % 7 === 0) {
    out.push({
      keys: [PAYER, H_TA.ta3, TOKEN],
      pre: [balance(1, H_MINT, H_OTHER, TOKEN, 1n)],
      post: [balance(1, H_MINT, H_OTHER, TOKEN, 2n)],
    });
  }
  // ta4, closed at H_CLOSE: not the wallet's at any head, so never counted.
  if (slot % 4 === 2 && slot < H_CLOSE) {
    out.push({
      keys: [PAYER, H_TA.ta4, TOKEN],
      pre: [balance(1, H_MINT, H_WALLET, TOKEN, 4n)],
      post: [balance(1, H_MINT, H_WALLET, TOKEN, 3n)],
      fails: slot % 8 === 2,
    });
  }
  // ta5, the wallet's from H_HANDOVER: its whole history counts (the current owner decides).
  if (slot % 3 === 1) {
    const owner = slot < H_HANDOVER ? H_OTHER : H_WALLET;
    out.push({
      keys: [PAYER, H_TA.ta5, TOKEN],
      pre: [balance(1, H_MINT, owner, TOKEN, 50n)],
      post: [balance(1, H_MINT, owner, TOKEN, 49n)],
    });
  }
  return out;
}

export const slotTransactions = (slot: number): TransactionEvent[] => slotTxSpecs(slot).map((s, i) => txEvent(slot, i, s));

let writeVersion = 0;
function write(pubkey: Buffer, program: Buffer, slot: number, lamports: bigint, data: Buffer): ChainEvent {
  return {
    kind: 'accounts',
    event: AccountEvent.fromPartial({
      pubkey,
      owner: program,
      slot: BigInt(slot),
      writeVersion: BigInt(++writeVersion),
      lamports,
      data,
      rentEpoch: 18446744073709551615n,
      executable: false,
    }),
  };
}

function writesAt(slot: number): ChainEvent[] {
  const data = (mint: Buffer, owner: Buffer, amount: bigint) => tokenAccountData(b58(mint), b58(owner), amount);
  if (slot === H_FIRST) {
    return [
      write(H_TA.ta1, TOKEN, slot, RENT, data(H_MINT, H_WALLET, 1000n)),
      write(H_TA.ta2, TOKEN_2022, slot, RENT, data(H_MINT_2022, H_WALLET, 3n)),
      write(H_TA.ta3, TOKEN, slot, RENT, data(H_MINT, H_OTHER, 5n)),
      write(H_TA.ta4, TOKEN, slot, RENT, data(H_MINT, H_WALLET, 4n)),
      write(H_TA.ta5, TOKEN, slot, RENT, data(H_MINT, H_OTHER, 50n)),
    ];
  }
  if (slot === H_HANDOVER) return [write(H_TA.ta5, TOKEN, slot, RENT, data(H_MINT, H_WALLET, 49n))];
  if (slot === H_CLOSE) return [write(H_TA.ta4, TOKEN, slot, 0n, Buffer.alloc(0))];
  return [];
}

/** The chain, one batch per slot: transactions and writes, then the block record; commitments trail. */
export function buildHistoryChain(): SlotBatch[] {
  writeVersion = 0;
  const batches: SlotBatch[] = [];
  let height = 5000;
  for (let slot = H_FIRST; slot <= H_LAST; slot++) {
    const events: ChainEvent[] = [];
    if (slot === H_SKIPPED) {
      events.push({ kind: 'slots', event: slotStatus(slot, SlotStatus.SLOT_STATUS_SKIPPED) });
    } else {
      const txs = slotTransactions(slot);
      for (const t of txs) events.push({ kind: 'transactions', event: t });
      events.push(...writesAt(slot));
      const parent = slot === H_SKIPPED + 1 ? H_SKIPPED - 1 : slot === H_DEAD + 1 ? H_DEAD - 1 : slot - 1;
      const record = slotStatus(slot, SlotStatus.SLOT_STATUS_PROCESSED, {
        parent,
        height: ++height,
        time: hBlockTime(slot),
        txs: txs.length,
        votes: 1,
      });
      record.block!.blockhash = keyOf(`gtfa-blockhash-${slot}`);
      events.push({ kind: 'slots', event: record });
    }
    if (slot === H_DEAD + 1) events.push({ kind: 'slots', event: slotStatus(H_DEAD, SlotStatus.SLOT_STATUS_DEAD) });
    for (const [head, status] of [
      [H_HEADS.confirmed, SlotStatus.SLOT_STATUS_CONFIRMED],
      [H_HEADS.finalized, SlotStatus.SLOT_STATUS_FINALIZED],
    ] as const) {
      const s = slot - (H_LAST - head);
      if (s >= H_FIRST && s !== H_SKIPPED && s !== H_DEAD) events.push({ kind: 'slots', event: slotStatus(s, status) });
    }
    batches.push({ slot: BigInt(slot), events });
  }
  return batches;
}

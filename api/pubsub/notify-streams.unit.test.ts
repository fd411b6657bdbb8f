// The results of slotsUpdates, block, vote and transaction notifications: Agave's SlotUpdate kinds per slot
// status, SlotTransactionStats, RpcBlockUpdate with mentions and the unsupported-version error, Helius's
// transactionNotification shapes.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { EntryEvent, SlotEvent, SlotStatus, TransactionEvent } from '../../schemas/codec.js';
import type { AssembledBlock } from '../live/block-assembler.js';
import { uiConfirmedBlock, type BlockOptions } from '../solana-json/block.js';
import { toJson } from '../solana-json/json.js';
import { encodeWithMeta } from '../solana-json/transactions.js';
import { assembledHeader, blockUpdateJson, frozenJson, slotUpdateJson, transactionNotificationJson, voteJson } from './notify-streams.js';

const A = Buffer.alloc(32, 1);
const B = Buffer.alloc(32, 2);
const P = Buffer.alloc(32, 3);
const tx = (index: number, keys: Buffer[], extra: Partial<TransactionEvent> = {}) =>
  TransactionEvent.fromPartial({
    slot: 50n,
    index,
    signatures: [Buffer.alloc(64, index + 1)],
    numRequiredSignatures: 1,
    numReadonlyUnsignedAccounts: 1,
    accountKeys: keys,
    recentBlockhash: Buffer.alloc(32, 9),
    instructions: [{ programIdIndex: keys.length - 1, accounts: Buffer.from([0]), data: Buffer.from([1]) }],
    fee: 5000n,
    ...extra,
  });

const block = (transactions: TransactionEvent[], entries: EntryEvent[] = []): AssembledBlock => ({
  slot: 50n,
  marker: SlotEvent.fromPartial({
    slot: 50n,
    status: SlotStatus.SLOT_STATUS_PROCESSED,
    block: {
      parentSlot: 49n,
      blockhash: Buffer.alloc(32, 8),
      blockHeight: 40n,
      blockTime: 1_700_000_000n,
      previousBlockhash: Buffer.alloc(0),
    },
  }),
  transactions,
  accounts: [],
  entries,
});

const FULL: BlockOptions = { encoding: 'json', transactionDetails: 'full', rewards: false, maxSupportedVersion: 0 };

describe('slotUpdateJson', () => {
  const at = (status: SlotStatus, extra: Partial<SlotEvent> = {}): unknown =>
    JSON.parse(slotUpdateJson(SlotEvent.fromPartial({ slot: 10n, status, ...extra }), 1234) ?? 'null');

  it("each status as Agave's SlotUpdate kind; processed (frozen comes from the block), skipped and gaps have none", () => {
    expect(at(SlotStatus.SLOT_STATUS_FIRST_SHRED_RECEIVED)).toEqual({ type: 'firstShredReceived', slot: 10, timestamp: 1234 });
    expect(at(SlotStatus.SLOT_STATUS_CREATED_BANK, { parent: 8n })).toEqual({ type: 'createdBank', slot: 10, parent: 8, timestamp: 1234 });
    expect(at(SlotStatus.SLOT_STATUS_COMPLETED)).toEqual({ type: 'completed', slot: 10, timestamp: 1234 });
    expect(at(SlotStatus.SLOT_STATUS_CONFIRMED)).toEqual({ type: 'optimisticConfirmation', slot: 10, timestamp: 1234 });
    expect(at(SlotStatus.SLOT_STATUS_FINALIZED)).toEqual({ type: 'root', slot: 10, timestamp: 1234 });
    expect(at(SlotStatus.SLOT_STATUS_DEAD, { deadError: 'shred "bad"' })).toEqual({
      type: 'dead',
      slot: 10,
      timestamp: 1234,
      err: 'shred "bad"',
    });
    for (const s of [SlotStatus.SLOT_STATUS_PROCESSED, SlotStatus.SLOT_STATUS_SKIPPED, SlotStatus.SLOT_STATUS_GAP]) {
      expect(slotUpdateJson(SlotEvent.fromPartial({ slot: 10n, status: s }), 1)).toBeUndefined();
    }
  });
});

describe('frozenJson', () => {
  it('SlotTransactionStats: entries with transactions, successes, failures, the most in one entry', () => {
    const b = block(
      [tx(0, [A, P]), tx(1, [B, P], { err: '{"InstructionError":[0,"InvalidArgument"]}' }), tx(2, [A, P])],
      [
        EntryEvent.fromPartial({ slot: 50n, index: 0n, executedTransactionCount: 2n }),
        EntryEvent.fromPartial({ slot: 50n, index: 1n, executedTransactionCount: 0n }),
        EntryEvent.fromPartial({ slot: 50n, index: 2n, executedTransactionCount: 1n }),
      ],
    );
    expect(JSON.parse(frozenJson(b, 99))).toEqual({
      type: 'frozen',
      slot: 50,
      timestamp: 99,
      stats: { numTransactionEntries: 2, numSuccessfulTransactions: 2, numFailedTransactions: 1, maxTransactionsPerEntry: 2 },
    });
  });
});

describe('blockUpdateJson', () => {
  const parent = () => ({ blockhash: Buffer.alloc(32, 7) }) as never;

  it("the block is getBlock's UiConfirmedBlock; the previous blockhash from the parent's meta when the marker has none", () => {
    const b = block([tx(0, [A, P]), tx(1, [B, P])]);
    const header = assembledHeader(b, parent);
    expect(header.previousBlockhash).toBe(bs58.encode(Buffer.alloc(32, 7)));
    const r = JSON.parse(blockUpdateJson(b, header, FULL, undefined)!);
    expect(r).toEqual({
      context: { slot: 50 },
      value: {
        slot: 50,
        block: JSON.parse(
          toJson(
            uiConfirmedBlock(
              FULL,
              header,
              () => b.transactions,
              () => [],
            ),
          ),
        ),
        err: null,
      },
    });
    expect(r.value.block.transactions).toHaveLength(2);
  });

  it('mentionsAccountOrProgram: only the transactions mentioning the key; none: no notification', () => {
    const b = block([tx(0, [A, P]), tx(1, [B, P])]);
    const header = assembledHeader(b, parent);
    const sigs = { ...FULL, transactionDetails: 'signatures' as const };
    expect(JSON.parse(blockUpdateJson(b, header, sigs, B)!).value.block.signatures).toEqual([bs58.encode(Buffer.alloc(64, 2))]);
    expect(JSON.parse(blockUpdateJson(b, header, sigs, P)!).value.block.signatures).toHaveLength(2);
    expect(blockUpdateJson(b, header, sigs, Buffer.alloc(32, 99))).toBeUndefined();
  });

  it("a v0 transaction without maxSupportedTransactionVersion: block null, Agave's UnsupportedTransactionVersion error", () => {
    const b = block([tx(0, [A, P]), tx(1, [B, P], { versioned: true })]);
    const r = JSON.parse(blockUpdateJson(b, assembledHeader(b, parent), { ...FULL, maxSupportedVersion: undefined }, undefined)!);
    expect(r.value).toEqual({ slot: 50, block: null, err: { UnsupportedTransactionVersion: 0 } });
  });
});

describe('transactionNotificationJson', () => {
  it("full and accounts: {transaction, signature, slot, transactionIndex}, the transaction as getTransaction's", () => {
    const t = tx(3, [A, P]);
    expect(JSON.parse(transactionNotificationJson(t, FULL)!)).toEqual({
      transaction: JSON.parse(toJson(encodeWithMeta(t, 'json', { maxSupportedVersion: 0, showRewards: false }))),
      signature: bs58.encode(t.signatures[0]!),
      slot: 50,
      transactionIndex: 3,
    });
    const acc = JSON.parse(transactionNotificationJson(t, { ...FULL, transactionDetails: 'accounts' })!);
    expect(acc.transaction.transaction.accountKeys).toHaveLength(2);
  });

  it('signatures and none: {signature, slot, transactionIndex, err}', () => {
    const t = tx(1, [A, P], { err: '{"InstructionError":[0,{"Custom":1}]}' });
    for (const d of ['signatures', 'none'] as const) {
      expect(JSON.parse(transactionNotificationJson(t, { ...FULL, transactionDetails: d })!)).toEqual({
        signature: bs58.encode(t.signatures[0]!),
        slot: 50,
        transactionIndex: 1,
        err: { InstructionError: [0, { Custom: 1 }] },
      });
    }
  });

  it('a version above maxSupportedTransactionVersion (any versioned one without it) is not sent', () => {
    const v0 = tx(0, [A, P], { versioned: true });
    expect(transactionNotificationJson(v0, { ...FULL, maxSupportedVersion: undefined })).toBeUndefined();
    expect(transactionNotificationJson(v0, FULL)).toBeDefined();
    expect(transactionNotificationJson(tx(0, [A, P]), { ...FULL, maxSupportedVersion: undefined })).toBeDefined();
  });
});

describe('voteJson', () => {
  it("RpcVote's members", () => {
    expect(JSON.parse(voteJson({ votePubkey: 'V', slots: [1n, 2n], hash: 'H', timestamp: null, signature: 'S' }))).toEqual({
      votePubkey: 'V',
      slots: [1, 2],
      hash: 'H',
      timestamp: null,
      signature: 'S',
    });
  });
});

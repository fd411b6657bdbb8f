// v1 (SIMD-0385) transactions through Yellowstone's messages: Message.config (field 7, set only for v1)
// carries the event's transaction_config both ways, and geyser.Geyser's byte-copying reframe writes the
// same update as the converter.
import { describe, expect, it } from 'vitest';
import { TransactionEvent } from '../codec.js';
import { noTransactionMeta } from '../meta.js';
import { scanTransaction } from '../scan.js';
import { reframeYellowstoneTransaction } from './reframe-transaction.js';
import { SubscribeUpdate } from './storage.js';
import { transactionFromParts, transactionToParts, transactionToYellowstone } from './transaction.js';

const v1 = (transactionConfig: TransactionEvent['transactionConfig']): TransactionEvent => ({
  slot: 454_386_868n,
  index: 3,
  signatures: [Buffer.alloc(64, 1)],
  versioned: true,
  numRequiredSignatures: 1,
  numReadonlySignedAccounts: 0,
  numReadonlyUnsignedAccounts: 1,
  accountKeys: [Buffer.alloc(32, 2), Buffer.alloc(32, 3)],
  recentBlockhash: Buffer.alloc(32, 4),
  instructions: [{ programIdIndex: 1, accounts: Buffer.from([0]), data: Buffer.from('hi') }],
  addressTableLookups: [],
  loadedWritable: [],
  loadedReadonly: [],
  isVote: false,
  err: undefined,
  fee: 305_000n,
  memos: [],
  blockTime: undefined,
  ...noTransactionMeta(),
  preBalances: [10n, 1n],
  postBalances: [5n, 1n],
  version: 1,
  transactionConfig,
});
const full = v1({ priorityFee: 300_000n, computeUnitLimit: 315_000, loadedAccountsDataSizeLimit: 67_108_864, heapSize: 65_536 });

const viaCodec = (tx: TransactionEvent) =>
  SubscribeUpdate.decode(
    Uint8Array.from(
      SubscribeUpdate.encode({ filters: [], transaction: transactionToYellowstone(tx), createdAt: new Date(5_000) }).finish(),
    ),
  );
const reframed = (tx: TransactionEvent) =>
  SubscribeUpdate.decode(
    Uint8Array.from(reframeYellowstoneTransaction(scanTransaction(Buffer.from(TransactionEvent.encode(tx).finish())), 5_000)),
  );

describe('v1 transactions and Yellowstone', () => {
  it('Message.config carries the config values; reframing the record writes the same update as converting', () => {
    for (const tx of [full, v1({}), v1({ computeUnitLimit: 0 })]) {
      const got = reframed(tx);
      expect(got).toEqual(viaCodec(tx));
      expect(got.transaction!.transaction!.transaction!.message!.config).toEqual({
        priorityFee: tx.transactionConfig!.priorityFee?.toString(),
        computeUnitLimit: tx.transactionConfig!.computeUnitLimit,
        loadedAccountsDataSizeLimit: tx.transactionConfig!.loadedAccountsDataSizeLimit,
        heapSize: tx.transactionConfig!.heapSize,
      });
    }
  });

  it('legacy and v0 messages have no config', () => {
    const { version: _v, transactionConfig: _c, ...v0 } = full;
    expect(reframed(v0).transaction!.transaction!.transaction!.message!.config).toBeUndefined();
    expect(transactionToParts(v0).transaction.message!.config).toBeUndefined();
  });

  it('a Yellowstone message with config converts back to a v1 event with the same values', () => {
    for (const tx of [full, v1({})]) {
      const { transaction, meta } = transactionToParts(tx);
      const back = transactionFromParts(transaction, meta, { slot: tx.slot, index: tx.index, isVote: false });
      expect(back.version).toBe(1);
      expect(back.versioned).toBe(true);
      expect(TransactionEvent.encode(back).finish()).toEqual(TransactionEvent.encode(tx).finish());
    }
  });
});

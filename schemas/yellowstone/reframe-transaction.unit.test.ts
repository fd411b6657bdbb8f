import { describe, expect, it } from 'vitest';
import { SimChain } from '../../ingest/sources/sim/chain.js';
import { DEFAULT_SIM_OPTIONS } from '../../ingest/sources/sim/options.js';
import { encodeRecord, TransactionEvent } from '../codec.js';
import { RewardType } from '../gen/events.js';
import { scanTransaction } from '../scan.js';
import { reframeYellowstoneTransaction } from './reframe-transaction.js';
import { SubscribeUpdate } from './storage.js';
import { transactionToYellowstone } from './transaction.js';
import { expectEqual } from '../../test/support/harness/expect-equal.js';

/** What the codec path gives: the converted message encoded by the published codec, decoded again. */
function viaCodec(tx: TransactionEvent, ms: number) {
  const bytes = SubscribeUpdate.encode({ filters: [], transaction: transactionToYellowstone(tx), createdAt: new Date(ms) }).finish();
  return SubscribeUpdate.decode(Uint8Array.from(bytes));
}

const reframed = (tx: TransactionEvent, ms: number) =>
  SubscribeUpdate.decode(
    Uint8Array.from(reframeYellowstoneTransaction(scanTransaction(Buffer.from(TransactionEvent.encode(tx).finish())), ms)),
  );
// (Both decoded from plain Uint8Arrays: the reader hands out views of its input's type.)

// A simulated chain built and compared whole: CPU-bound, seconds on a loaded machine.
describe('reframeYellowstoneTransaction', () => {
  it('decodes to what the converted message encodes to, for every simulated transaction', () => {
    const chain = new SimChain({ ...DEFAULT_SIM_OPTIONS, tps: 400, slotMs: 0, fast: true });
    let n = 0;
    let failed = 0;
    for (let s = 0; s < 6; s++) {
      for (const e of chain.next('fast').events) {
        if (e.kind !== 'transactions') continue;
        const tx = TransactionEvent.decode(encodeRecord(e).value);
        expectEqual(reframed(tx, 1_763_900_000_123), viaCodec(tx, 1_763_900_000_123));
        n++;
        if (tx.err !== undefined) failed++;
      }
    }
    expect(n).toBeGreaterThan(100);
    expect(failed).toBeGreaterThan(0);
  });

  it('carries token balances, rewards, return data, errors and the None flags like the converter', () => {
    const tx = TransactionEvent.fromPartial({
      slot: 123_456_789n,
      index: 7,
      signatures: [Buffer.alloc(64, 1)],
      versioned: true,
      numRequiredSignatures: 1,
      accountKeys: [Buffer.alloc(32, 2), Buffer.alloc(32, 3)],
      recentBlockhash: Buffer.alloc(32, 4),
      instructions: [{ programIdIndex: 1, accounts: Buffer.from([0]), data: Buffer.from('hi') }],
      addressTableLookups: [{ accountKey: Buffer.alloc(32, 5), writableIndexes: Buffer.from([0]), readonlyIndexes: Buffer.from([1]) }],
      loadedWritable: [Buffer.alloc(32, 6)],
      loadedReadonly: [Buffer.alloc(32, 7)],
      err: '{"InstructionError":[0,{"Custom":6002}]}',
      fee: 5000n,
      preBalances: [10n, 2n ** 60n],
      postBalances: [5n, 2n ** 60n],
      preTokenBalances: [
        {
          accountIndex: 1,
          mint: Buffer.alloc(32, 8),
          owner: Buffer.alloc(32, 9),
          programId: Buffer.alloc(32, 10),
          amount: 1_500_000n,
          decimals: 6,
        },
      ],
      postTokenBalances: [
        {
          accountIndex: 1,
          mint: Buffer.alloc(32, 8),
          owner: Buffer.alloc(32, 9),
          programId: Buffer.alloc(32, 10),
          amount: 0n,
          decimals: 6,
        },
      ],
      innerInstructions: [
        { index: 0, instructions: [{ programIdIndex: 1, accounts: Buffer.from([0, 1]), data: Buffer.from([9]), stackHeight: 2 }] },
      ],
      logMessages: ['Program X invoke [1]', 'Program X failed: custom program error: 0x1772'],
      computeUnitsConsumed: 1234n,
      returnData: { programId: Buffer.alloc(32, 11), data: Buffer.from([1, 2, 3]) },
      rewards: [{ pubkey: Buffer.alloc(32, 12), lamports: -5n, postBalance: 99n, rewardType: RewardType.REWARD_TYPE_RENT, commission: 7 }],
      costUnits: 4321n,
    });
    expect(reframed(tx, 5)).toEqual(viaCodec(tx, 5));
    const none = TransactionEvent.fromPartial({ slot: 1n, signatures: [], innerInstructionsNone: true, logMessagesNone: true });
    expect(reframed(none, 1000)).toEqual(viaCodec(none, 1000));
  });

  it('refuses an error Yellowstone cannot express, as the converter does', () => {
    const tx = TransactionEvent.fromPartial({ slot: 1n, signatures: [Buffer.alloc(64)], err: '{"NoSuchError":1}' });
    expect(() => viaCodec(tx, 0)).toThrow();
    expect(() => reframed(tx, 0)).toThrow();
  });
});

// geyser.Geyser re-frames transaction records into Yellowstone's bytes instead of converting and
// encoding them (schemas/yellowstone/reframe-transaction.ts). On real mainnet transactions (votes, token
// balances, inner instructions, logs, errors) the re-framed update decodes to exactly what the converter's
// message encodes to with the published codec.
import { describe, expect, it } from 'vitest';
import { TransactionEvent } from '../../schemas/codec.js';
import { scanTransaction } from '../../schemas/scan.js';
import { blockFromConfirmedBlock, ConfirmedBlock, SubscribeUpdate, transactionToYellowstone } from '../../schemas/yellowstone/index.js';
import { reframeYellowstoneTransaction } from '../../schemas/yellowstone/reframe-transaction.js';
import { MAINNET_BLOCKS, readMainnetBlock } from '../support/mainnet/data.js';

describe.each(MAINNET_BLOCKS)('mainnet block $slot', ({ slot }) => {
  it('every transaction re-framed decodes like the converted one', () => {
    const block = blockFromConfirmedBlock(slot, ConfirmedBlock.decode(readMainnetBlock(slot)), Buffer.alloc(32));
    expect(block.transactions.length).toBeGreaterThan(0);
    const ms = 1_700_000_000_500;
    for (const tx of block.transactions) {
      const record = Buffer.from(TransactionEvent.encode(tx).finish());
      const reframed = SubscribeUpdate.decode(Uint8Array.from(reframeYellowstoneTransaction(scanTransaction(record), ms)));
      const converted = SubscribeUpdate.decode(
        Uint8Array.from(
          SubscribeUpdate.encode({ filters: [], transaction: transactionToYellowstone(tx), createdAt: new Date(ms) }).finish(),
        ),
      );
      expect(reframed).toEqual(converted);
    }
  });
});

// The rpc source and the mainnet v1 (SIMD-0385) transaction (pump record 23, read in place): it asks for
// blocks with maxSupportedTransactionVersion 1 (Agave refuses a whole block holding a v1 transaction to a
// client that names 0), and converts Agave's base64 answer of that transaction into a v1 event.
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { encodeTransactionWire } from '../../../schemas/wire.js';
import { readPumpV1Transaction } from '../../../test/support/mainnet/data.js';
import { blockFromRpc, type RpcBlock } from './convert.js';
import { BLOCK_CONFIG } from './source.js';

const record = readPumpV1Transaction();

describe('rpc source and v1 transactions', () => {
  it('asks getBlock for versions up to 1', () => {
    expect(BLOCK_CONFIG.maxSupportedTransactionVersion).toBeGreaterThanOrEqual(1);
  });

  it("converts Agave's getBlock answer holding the mainnet v1 transaction", () => {
    const block = {
      blockhash: bs58.encode(Buffer.alloc(32, 7)),
      previousBlockhash: bs58.encode(Buffer.alloc(32, 6)),
      parentSlot: record.slot! - 1,
      blockTime: record.blockTime,
      blockHeight: 1000,
      rewards: [],
      transactions: [{ transaction: [record.wire_base64, 'base64'], meta: record.meta, version: 1 }],
    } as unknown as RpcBlock;
    const { transactions } = blockFromRpc(BigInt(record.slot!), block, Buffer.alloc(32, 1));
    expect(transactions).toHaveLength(1);
    const tx = transactions[0]!;
    expect(tx.version).toBe(1);
    expect(tx.transactionConfig).toEqual({
      priorityFee: 300_000n,
      computeUnitLimit: 315_000,
      loadedAccountsDataSizeLimit: 67_108_864,
      heapSize: undefined,
    });
    expect(bs58.encode(tx.signatures[0]!)).toBe(record.signature);
    expect(tx.fee).toBe(BigInt(record.meta.fee));
    expect(tx.preBalances).toHaveLength(34);
    expect(Buffer.from(encodeTransactionWire(tx)).toString('base64')).toBe(record.wire_base64);
  });
});

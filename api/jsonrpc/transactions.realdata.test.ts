/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// getBlock and getTransaction on real mainnet blocks (../shared/data/mainnet): each ConfirmedBlock goes
// through schemas/yellowstone into events, through the projector's projections into embedded ClickHouse,
// and out of JSON-RPC; the answer must equal the same block rendered as an Agave node answers it
// (test/support/rpc/agave-block.ts, written from the protobuf fields directly), in the json and base64
// encodings, member for member. @solana/web3.js's Connection.getBlock must accept it too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { Connection } from '@solana/web3.js';
import { SlotStatus, type ChainEvent } from '../../schemas/codec.js';
import { blockFromConfirmedBlock, ConfirmedBlock } from '../../schemas/yellowstone/index.js';
import { MAINNET_BLOCKS, readMainnetBlock } from '../../test/support/mainnet/data.js';
import { agaveBlock, toJsonText } from '../../test/support/rpc/agave-block.js';
import { projectInto } from '../../test/support/jsonrpc/chain.js';
import { openTestStore, type TestStore } from '../../test/support/jsonrpc/store.js';
import { serve, type Served } from '../../test/support/jsonrpc/world.js';
import { slotStatus } from '../../test/support/projector/events.js';

const blocks = MAINNET_BLOCKS.map((f) => ({ slot: Number(f.slot), block: ConfirmedBlock.decode(readMainnetBlock(f.slot)) }));
const top = Math.max(...blocks.map((b) => b.slot));
let store: TestStore;
let s: Served;

beforeAll(async () => {
  store = await openTestStore();
  const db = await store.database('mainnet_blocks');
  const batches = blocks.map(({ slot, block }) => {
    const ev = blockFromConfirmedBlock(BigInt(slot), block, Buffer.alloc(32, 1));
    const events: ChainEvent[] = [
      ...ev.transactions.map((event) => ({ kind: 'transactions' as const, event })),
      { kind: 'slots', event: ev.slot },
      { kind: 'slots', event: slotStatus(slot, SlotStatus.SLOT_STATUS_FINALIZED) },
    ];
    return { slot: BigInt(slot), events };
  });
  await projectInto(store.ch, db, batches, { processed: top, confirmed: top, finalized: top });
  s = await serve(store.ch, db);
});
afterAll(async () => {
  await s?.server.close();
  await store?.close();
});

const agave = (block: ConfirmedBlock, encoding: 'json' | 'base64'): any => JSON.parse(toJsonText(agaveBlock(block, encoding)));

describe.each(blocks)('mainnet block $slot', ({ slot, block }) => {
  it.each(['json', 'base64'] as const)('getBlock (%s) equals the block as Agave answers it', async (encoding) => {
    const got = (await s.call('getBlock', [slot, { encoding, maxSupportedTransactionVersion: 0 }])).body;
    expect(got.error).toBeUndefined();
    expect(got.result).toEqual(agave(block, encoding));
  });

  it('getTransaction answers each transaction as the block holds it', async () => {
    const want = agave(block, 'json');
    for (const t of want.transactions.slice(0, 40)) {
      const got = (await s.call('getTransaction', [t.transaction.signatures[0], { maxSupportedTransactionVersion: 0 }])).body.result;
      expect(got).toEqual({ slot, blockTime: want.blockTime, ...t });
    }
  });

  it('web3.js Connection.getBlock and getParsedBlock accept it', async () => {
    const conn = new Connection(s.url, { commitment: 'finalized', disableRetryOnRateLimit: true });
    const b = await conn.getBlock(slot, { maxSupportedTransactionVersion: 0 });
    expect(b!.transactions).toHaveLength(block.transactions.length);
    expect(b!.blockhash).toBe(block.blockhash);
    const parsed = await conn.getParsedBlock(slot, { maxSupportedTransactionVersion: 0 });
    expect(parsed.transactions).toHaveLength(block.transactions.length);
    const first = block.transactions[0]!.transaction!.signatures[0]!;
    const p = await conn.getParsedTransaction(bs58.encode(first), { maxSupportedTransactionVersion: 0 });
    expect(p!.slot).toBe(slot);
  });
});

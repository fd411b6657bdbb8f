/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// getTransaction and getBlock on the real mainnet pump.fun / PumpSwap transactions of
// ../shared/data/mainnet/pump: each record (its wire bytes and the meta an Agave node answered) goes through
// the rpc source's converter and the projector's projections into embedded ClickHouse, and the meta
// slotstream answers must equal the node's, member for member. The records hold Agave's zero-amount token
// balances with `"uiAmount": null` (issue 18, item 4: the storage rule of storage-proto's convert.rs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlotStatus, type ChainEvent } from '../../schemas/codec.js';
import { blockFromRpc, type RpcBlock } from '../../ingest/sources/rpc/convert.js';
import { readPumpTransactions, type PumpTransaction } from '../../test/support/mainnet/data.js';
import { projectInto } from '../../test/support/jsonrpc/chain.js';
import { openTestStore, type TestStore } from '../../test/support/jsonrpc/store.js';
import { serve, type Served } from '../../test/support/jsonrpc/world.js';
import { b58, keyOf, slotStatus } from '../../test/support/projector/events.js';

// Asked with maxSupportedTransactionVersion 1, so the v1 record (#23) answers as the others do.
const records = readPumpTransactions();
/** Four sources stored no slot: each record gets a slot of its own (below every real one). */
const slotOf = (r: PumpTransaction): number => r.slot ?? 1_000 + r.id;
const top = Math.max(...records.map(slotOf));
const hasZeroBalance = (r: PumpTransaction): boolean =>
  ['preTokenBalances', 'postTokenBalances'].some((k) => (r.meta[k] as any[]).some((b) => b.uiTokenAmount.amount === '0'));
let store: TestStore;
let s: Served;

function blockOf(r: PumpTransaction): RpcBlock {
  const slot = slotOf(r);
  return {
    blockhash: b58(`pump-block-${slot}`),
    previousBlockhash: b58(`pump-block-${slot - 1}`),
    parentSlot: slot - 1,
    blockTime: r.blockTime,
    blockHeight: slot,
    transactions: [{ transaction: [r.wire_base64, 'base64'], meta: r.meta as any, version: r.version }],
  };
}

beforeAll(async () => {
  store = await openTestStore();
  const db = await store.database('mainnet_pump');
  const batches = records.map((r) => {
    const slot = slotOf(r);
    const ev = blockFromRpc(BigInt(slot), blockOf(r), keyOf('leader'));
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

describe('mainnet pump transactions', () => {
  it('the data holds zero-amount token balances with uiAmount null (what this test is about)', () => {
    const zero = records.filter(hasZeroBalance);
    expect(zero.length).toBeGreaterThanOrEqual(5);
    for (const r of zero) {
      for (const k of ['preTokenBalances', 'postTokenBalances']) {
        for (const b of r.meta[k] as any[]) if (b.uiTokenAmount.amount === '0') expect(b.uiTokenAmount.uiAmount).toBeNull();
      }
    }
  });

  it.each(records.map((r) => [r.id, r] as const))("#%i: getTransaction meta (json, base64) equals the node's", async (_id, r) => {
    for (const encoding of ['json', 'base64'] as const) {
      const got = (await s.call('getTransaction', [r.signature, { encoding, maxSupportedTransactionVersion: 1 }])).body;
      expect(got.error, encoding).toBeUndefined();
      expect(got.result.slot).toBe(slotOf(r));
      // #20 was recorded from blockSubscribe without rewards (meta rewards null); getTransaction always has them.
      expect(got.result.meta, encoding).toEqual({ ...r.meta, rewards: r.meta.rewards ?? [] });
    }
  });

  it.each(records.filter(hasZeroBalance).map((r) => [r.id, r] as const))(
    "#%i: jsonParsed and getBlock (full, accounts) show the node's token balances",
    async (_id, r) => {
      const want = { pre: r.meta.preTokenBalances, post: r.meta.postTokenBalances };
      const parsed = (await s.call('getTransaction', [r.signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 1 }])).body
        .result;
      expect({ pre: parsed.meta.preTokenBalances, post: parsed.meta.postTokenBalances }).toEqual(want);
      for (const transactionDetails of ['full', 'accounts'] as const) {
        const block = (await s.call('getBlock', [slotOf(r), { transactionDetails, maxSupportedTransactionVersion: 1 }])).body.result;
        const m = block.transactions[0].meta;
        expect({ pre: m.preTokenBalances, post: m.postTokenBalances }, transactionDetails).toEqual(want);
      }
    },
  );
});

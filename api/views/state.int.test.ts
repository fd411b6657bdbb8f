// The views state on real ClickHouse: a refresh inside the history TTL reads the heads and head blocks alone
// (HEADS_SQL) and carries the history part over; past it, or after invalidate(), it reads everything again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test/support/jsonrpc/store.js';
import { readViewsState, ViewsStateCache } from './state.js';

let store: TestStore;
let db: string;

const setHeads = (slot: number) =>
  store.ch.insert({
    table: `${db}.heads`,
    columns: ['commitment', 'slot'],
    format: 'JSONEachRow',
    values: ['processed', 'confirmed', 'finalized'].map((commitment) => ({ commitment, slot: String(slot) })),
  });
const addBlocks = (from: number, to: number) =>
  store.ch.command({
    query: `INSERT INTO {db:Identifier}.blocks (slot, parent_slot, blockhash, block_height, block_time, leader, transaction_count, vote_transaction_count)
      SELECT number, number - 1, 'h', number + 1000, 1700000000, 'L', 0, 0 FROM numbers({from:UInt64}, {n:UInt64})`,
    query_params: { db, from, n: to - from + 1 },
  });

beforeAll(async () => {
  store = await openTestStore();
  db = await store.database('views_state');
  await addBlocks(100, 200);
  await setHeads(200);
});

afterAll(async () => {
  await store?.close();
});

describe('ViewsStateCache on ClickHouse', () => {
  it('inside the history TTL the heads move and the oldest block is carried over; past it both are read', async () => {
    const cache = new ViewsStateCache(store.ch, db, 0, 0, 60_000);
    const first = await cache.get();
    expect([first.head.finalized, first.height.finalized, first.oldestBlock]).toEqual([200n, 1200n, 100n]);

    // Older blocks appear and the heads move: the heads-only read sees the heads and their block heights, not the
    // new oldest block (the history part is read once per history TTL).
    await addBlocks(50, 99);
    await addBlocks(201, 210);
    await setHeads(210);
    const kept = await cache.get();
    expect([kept.head.processed, kept.height.processed, kept.oldestBlock]).toEqual([210n, 1210n, 100n]);
    // The whole state read agrees on the heads and knows the new oldest block.
    const whole = await readViewsState(store.ch, db);
    expect([whole.head.processed, whole.height.processed, whole.oldestBlock]).toEqual([210n, 1210n, 50n]);

    cache.invalidate();
    expect((await cache.get()).oldestBlock).toBe(50n);
  });
});

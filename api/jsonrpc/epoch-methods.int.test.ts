/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// getEpochSchedule and getEpochInfo over HTTP against real embedded ClickHouse filled with the fixture
// chain (test/support/jsonrpc/world.ts: epoch 2 = slots 800..1199, heads 1100/1080/1060, re-delivered block rows, a lost fork).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test/support/jsonrpc/store.js';
import { EPOCH, FORKED, HEADS, loadWorld, serve, type Served, type World } from '../../test/support/jsonrpc/world.js';

let store: TestStore;
let world: World;
let s: Served;

beforeAll(async () => {
  store = await openTestStore();
  const db = await store.database('epoch_world');
  world = await loadWorld(store.ch, db);
  s = await serve(store.ch, db);
});
afterAll(async () => {
  await s?.server.close();
  await store?.close();
});

const call = async (method: string, params?: unknown): Promise<any> => {
  const r = await s.call(method, params);
  expect(r.status).toBe(200);
  return r.body;
};

describe('getEpochSchedule', () => {
  it("answers Agave's shape from the epochs view", async () => {
    const r = await call('getEpochSchedule');
    expect(r.result).toEqual({
      slotsPerEpoch: EPOCH.slotsPerEpoch,
      leaderScheduleSlotOffset: EPOCH.slotsPerEpoch,
      warmup: false,
      firstNormalEpoch: 0,
      firstNormalSlot: 0,
    });
  });
  it('refuses parameters with -32602', async () => {
    expect((await call('getEpochSchedule', [{ commitment: 'processed' }])).error.code).toBe(-32602);
  });
});

describe('getEpochInfo', () => {
  const heightAt = (slot: number) => Number(world.blocks.find((b) => Number(b.slot) === slot)!.blockHeight);
  // The lost fork's block does not count.
  const txsUpTo = (slot: number) =>
    world.blocks.filter((b) => Number(b.slot) <= slot && Number(b.slot) !== FORKED).reduce((n, b) => n + (b.transactionCount ?? 0), 0);

  for (const commitment of ['processed', 'confirmed', 'finalized'] as const) {
    it(`at ${commitment}: the head slot, its epoch and index, the block height, transactions counted once per block`, async () => {
      const slot = HEADS[commitment];
      const r = await call('getEpochInfo', [{ commitment }]);
      expect(r.result).toEqual({
        absoluteSlot: slot,
        blockHeight: heightAt(slot),
        epoch: EPOCH.epoch,
        slotIndex: slot - EPOCH.firstSlot,
        slotsInEpoch: EPOCH.slotsPerEpoch,
        transactionCount: txsUpTo(slot),
      });
    });
  }

  it('defaults to finalized and honours minContextSlot', async () => {
    expect((await call('getEpochInfo')).result.absoluteSlot).toBe(HEADS.finalized);
    const r = await call('getEpochInfo', [{ commitment: 'confirmed', minContextSlot: HEADS.confirmed + 1 }]);
    expect(r.error).toMatchObject({ code: -32016, data: { contextSlot: HEADS.confirmed } });
  });
});

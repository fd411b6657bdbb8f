/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// Real Solana clients against the server: @solana/web3.js 1.x `Connection` validates every response
// shape with its own schemas; @solana/kit's RPC client parses u64 values as bigint (exactness).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, PublicKey } from '@solana/web3.js';
import { address, createSolanaRpc } from '@solana/kit';
import { openTestStore, U64_MAX, type TestStore } from '../../test/support/jsonrpc/store.js';
import { ACC, ADDR_A, EPOCH, HEADS, MINT_1, PROGRAM, VALIDATORS, loadWorld, serve, type Served } from '../../test/support/jsonrpc/world.js';

let store: TestStore;
let s: Served;
let conn: Connection;

beforeAll(async () => {
  store = await openTestStore();
  const db = await store.database('clients_world');
  await loadWorld(store.ch, db);
  s = await serve(store.ch, db);
  conn = new Connection(s.url, { commitment: 'confirmed', disableRetryOnRateLimit: true });
});
afterAll(async () => {
  await s?.server.close();
  await store?.close();
});

describe('@solana/web3.js 1.x Connection', () => {
  it('getProgramAccounts (plain, with filters and slice, with context)', async () => {
    const all = await conn.getProgramAccounts(new PublicKey(PROGRAM));
    expect(all.map((a) => a.pubkey.toBase58())).toContain(ACC.changing);
    const big = all.find((a) => a.pubkey.toBase58() === ACC.big)!;
    expect(big.account.data.length).toBe(200);
    expect(big.account.owner.toBase58()).toBe(PROGRAM);
    expect(big.account.executable).toBe(true);
    const filtered = await conn.getProgramAccounts(new PublicKey(PROGRAM), {
      commitment: 'finalized',
      filters: [{ memcmp: { offset: 0, bytes: MINT_1 } }, { dataSize: 165 }],
      dataSlice: { offset: 0, length: 32 },
    });
    expect(filtered.length).toBe(3);
    expect(filtered.every((a) => a.account.data.length === 32)).toBe(true);
    const ctx = await conn.getProgramAccounts(new PublicKey(PROGRAM), { withContext: true, filters: [{ dataSize: 10 }] });
    expect(ctx.context.slot).toBe(HEADS.confirmed);
    expect(ctx.value).toHaveLength(1);
  });
  it('getSignaturesForAddress with paging', async () => {
    const first = await conn.getSignaturesForAddress(new PublicKey(ADDR_A), { limit: 3 });
    expect(first).toHaveLength(3);
    expect(first[0]!.slot).toBe(HEADS.confirmed);
    const next = await conn.getSignaturesForAddress(new PublicKey(ADDR_A), { limit: 3, before: first[2]!.signature });
    expect(next[0]!.slot).toBeLessThanOrEqual(first[2]!.slot);
    expect(first.map((x) => x.signature)).not.toContain(next[0]!.signature);
    // The same cursor at finalized: its transaction is above the finalized slot, so Agave 4.0's -32020 (issue 32).
    expect(first[2]!.slot).toBeGreaterThan(HEADS.finalized);
    await expect(
      conn.getSignaturesForAddress(new PublicKey(ADDR_A), { limit: 3, before: first[2]!.signature }, 'finalized'),
    ).rejects.toMatchObject({ code: -32020 });
  });
  it('getBlocks, getBlockHeight, getRecentPerformanceSamples, getLeaderSchedule', async () => {
    expect(await conn.getBlocks(1000, 1004)).toEqual([1000, 1001, 1002, 1004]);
    expect(await conn.getBlocks(1075, undefined, 'confirmed')).toEqual([1075, 1076, 1077, 1078, 1079, 1080]);
    expect(await conn.getBlockHeight()).toBeGreaterThan(0);
    expect(await conn.getBlockHeight('processed')).toBeGreaterThan(await conn.getBlockHeight('finalized'));
    const samples = await conn.getRecentPerformanceSamples(5);
    expect(samples.length).toBeGreaterThan(0);
    expect(samples[0]!.samplePeriodSecs).toBe(60);
    const schedule = await conn.getLeaderSchedule();
    expect(Object.keys(schedule).sort()).toEqual([...VALIDATORS].sort());
    expect(Object.values(schedule).flat().length).toBe(EPOCH.slotsPerEpoch);
  });
  it('errors surface as SolanaJSONRPCError with our code and message', async () => {
    await expect(conn.getBlocks(1010, 1005)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid param: startSlot must be less than endSlot'),
    });
  });
  it('getBlocksWithLimit (web3.js 1.x has no wrapper: raw request through the Connection)', async () => {
    const raw = await (conn as unknown as { _rpcRequest(m: string, a: unknown[]): Promise<any> })._rpcRequest(
      'getBlocksWithLimit',
      [1000, 3],
    );
    expect(raw.result).toEqual([1000, 1001, 1002]);
  });
});

describe('@solana/kit RPC client', () => {
  const rpc = () => createSolanaRpc(s.url);
  it('getBlockHeight and getBlocksWithLimit as bigint', async () => {
    expect(typeof (await rpc().getBlockHeight({ commitment: 'processed' }).send())).toBe('bigint');
    expect(await rpc().getBlocksWithLimit(1000n, 3).send()).toEqual([1000n, 1001n, 1002n]);
    expect(await rpc().getBlocks(1000n, 1004n).send()).toEqual([1000n, 1001n, 1002n, 1004n]);
  });
  it('getProgramAccounts keeps rentEpoch and lamports exact', async () => {
    const r = await rpc()
      .getProgramAccounts(address(PROGRAM), { encoding: 'base64', filters: [{ dataSize: 200n }] })
      .send();
    expect(r).toHaveLength(1);
    expect((r[0]!.account as unknown as { rentEpoch: bigint }).rentEpoch).toBe(U64_MAX); // kit's type omits it; the value is there
    expect(r[0]!.account.lamports).toBe(2n ** 60n + 1n);
    expect(r[0]!.account.space).toBe(200n);
  });
  it('getSignaturesForAddress and getLeaderSchedule', async () => {
    const sigs = await rpc().getSignaturesForAddress(address(ADDR_A), { limit: 2 }).send();
    expect(sigs).toHaveLength(2);
    expect(sigs[0]!.slot).toBe(BigInt(HEADS.confirmed)); // kit asks for confirmed by default
    const ls = await rpc()
      .getLeaderSchedule(null, { identity: address(VALIDATORS[0]!) })
      .send();
    expect(Object.keys(ls)).toEqual([VALIDATORS[0]]);
  });
});

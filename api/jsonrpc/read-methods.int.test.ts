/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// The read-side methods of issue 13 through the real clients, unmodified: @solana/web3.js 1.x `Connection`
// (its superstruct schemas validate every answer) and @solana/kit's `createSolanaRpc` (values asserted).
// The views are filled from the events of test/support/jsonrpc/chain.ts by the projector's own projections, and each
// answer is checked against the views themselves, read here with independent SQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, PublicKey, SendTransactionError } from '@solana/web3.js';
import { address, createSolanaRpc, signature } from '@solana/kit';
import { NATIVE_MINT, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../../schemas/programs.js';
import { keyOf } from '../../test/support/projector/events.js';
import { openTestStore, type TestStore } from '../../test/support/jsonrpc/store.js';
import { serve, type Served } from '../../test/support/jsonrpc/world.js';
import {
  ACC,
  BIG_LAMPORTS,
  FIRST,
  FORKED,
  HEADS,
  MINT_1,
  MINT_2,
  MINT_MISSING,
  NO_TIME_SLOT,
  PROGRAM,
  SKIPPED,
  TX_ERR,
  WALLET,
  WALLET_2,
  blockTimeOf,
  buildChain,
  heightOf,
  projectInto,
  sigOf,
} from '../../test/support/jsonrpc/chain.js';
import bs58 from 'bs58';

let store: TestStore;
let db: string;
let s: Served;
let conn: Connection;
const rpc = () => createSolanaRpc(s.url);

beforeAll(async () => {
  store = await openTestStore();
  db = await store.database('read_methods');
  await projectInto(store.ch, db, buildChain());
  s = await serve(store.ch, db);
  conn = new Connection(s.url, { commitment: 'confirmed', disableRetryOnRateLimit: true });
});
afterAll(async () => {
  await s?.server.close();
  await store?.close();
});

/** Independent reads of the views: the newest write of a pubkey at or below a slot. */
async function viewLamports(pubkey: string, slot: number): Promise<bigint> {
  const rs = await store.ch.query({
    query: `SELECT argMax(lamports, (slot, write_version)) AS l FROM ${db}.account_writes WHERE pubkey = {p:String} AND slot <= {s:UInt64}`,
    query_params: { p: pubkey, s: slot },
    format: 'JSONEachRow',
  });
  const rows = await rs.json<{ l: string }>();
  return BigInt(rows[0]?.l ?? '0');
}
async function viewTokenAccounts(wallet: string, program: string, slot: number): Promise<string[]> {
  const rs = await store.ch.query({
    query: `SELECT pubkey FROM (
              SELECT pubkey, argMax(owner, (slot, write_version)) AS o, argMax(lamports, (slot, write_version)) AS l,
                     argMax(data, (slot, write_version)) AS d
              FROM ${db}.account_writes WHERE slot <= {s:UInt64} GROUP BY pubkey)
            WHERE o = {prog:String} AND l > 0 AND length(base64Decode(d)) >= 165
              AND substring(base64Decode(d), 33, 32) = base58Decode({w:String})`,
    query_params: { w: wallet, prog: program, s: slot },
    format: 'JSONEachRow',
  });
  return (await rs.json<{ pubkey: string }>()).map((r) => r.pubkey);
}
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(bs58.decode(a)), Buffer.from(bs58.decode(b)));
const raw = async (method: string, params?: unknown): Promise<any> => (await s.call(method, params)).body;

describe('getSlot, getBlockTime, getFirstAvailableBlock, minimumLedgerSlot', () => {
  it('web3.js', async () => {
    expect(await conn.getSlot('processed')).toBe(HEADS.processed);
    expect(await conn.getSlot()).toBe(HEADS.confirmed);
    expect(await conn.getSlot('finalized')).toBe(HEADS.finalized);
    expect(await conn.getBlockTime(110)).toBe(blockTimeOf(110));
    expect(await conn.getBlockTime(NO_TIME_SLOT)).toBeNull();
    expect(await conn.getBlockTime(HEADS.processed)).toBe(blockTimeOf(HEADS.processed));
    expect(await conn.getFirstAvailableBlock()).toBe(FIRST);
    expect(await conn.getMinimumLedgerSlot()).toBe(FIRST);
  });
  it('kit', async () => {
    expect(await rpc().getSlot({ commitment: 'processed' }).send()).toBe(BigInt(HEADS.processed));
    expect(await rpc().getBlockTime(110n).send()).toBe(BigInt(blockTimeOf(110)));
    expect(await rpc().getFirstAvailableBlock().send()).toBe(BigInt(FIRST));
    expect(await rpc().minimumLedgerSlot().send()).toBe(BigInt(FIRST));
  });
  it("getBlockTime answers Agave's errors: skipped (-32007), lost fork, cleaned up (-32001), not available (-32004)", async () => {
    expect((await raw('getBlockTime', [SKIPPED[0]])).error).toEqual({
      code: -32007,
      message: `Slot ${SKIPPED[0]} was skipped, or missing due to ledger jump to recent snapshot`,
    });
    expect((await raw('getBlockTime', [FORKED])).error.code).toBe(-32004); // above finalized, no block on the chain
    expect((await raw('getBlockTime', [50])).error).toEqual({
      code: -32001,
      message: `Block 50 cleaned up, does not exist on node. First available block: ${FIRST}`,
    });
    expect((await raw('getBlockTime', [HEADS.processed + 1])).error).toEqual({
      code: -32004,
      message: `Block not available for slot ${HEADS.processed + 1}`,
    });
    await expect(conn.getBlockTime(HEADS.processed + 5)).rejects.toThrow(/Block not available/);
  });
  it('getSlot honours minContextSlot with -32016', async () => {
    expect((await raw('getSlot', [{ commitment: 'finalized', minContextSlot: HEADS.finalized + 1 }])).error).toEqual({
      code: -32016,
      message: 'Minimum context slot has not been reached',
      data: { contextSlot: HEADS.finalized },
    });
  });
});

describe('getBalance', () => {
  it('equals the lamports the accounts view holds at each commitment (web3.js and kit)', async () => {
    for (const c of ['processed', 'confirmed', 'finalized'] as const) {
      const want = await viewLamports(WALLET, HEADS[c]);
      expect(BigInt(await conn.getBalance(new PublicKey(WALLET), c))).toBe(want);
      const k = await rpc().getBalance(address(WALLET), { commitment: c }).send();
      expect(k.value).toBe(want);
      expect(k.context.slot).toBe(BigInt(HEADS[c]));
    }
    expect(await viewLamports(WALLET, HEADS.processed)).toBe(3_000_000_000n);
    expect(await viewLamports(WALLET, HEADS.finalized)).toBe(5_000_000_000n);
  });
  it('0 for an unknown or closed account; exact past 2^53; withContext wrapper', async () => {
    expect(await conn.getBalance(new PublicKey(MINT_MISSING))).toBe(0);
    expect(await conn.getBalance(new PublicKey(ACC.ta3), 'confirmed')).toBe(0);
    expect((await rpc().getBalance(address(ACC.big)).send()).value).toBe(BIG_LAMPORTS);
    expect((await raw('getBalance', [WALLET])).result).toEqual({
      context: { slot: HEADS.finalized, apiVersion: expect.any(String) },
      value: 5_000_000_000,
    });
  });
});

describe('getAccountInfo and getMultipleAccounts', () => {
  it('web3.js: data, owner and lamports as the view holds them; null when missing or closed', async () => {
    const info = await conn.getAccountInfo(new PublicKey(ACC.ta1), 'processed');
    expect(info!.owner.toBase58()).toBe(TOKEN_PROGRAM);
    expect(info!.data.readBigUInt64LE(64)).toBe(2_500_000n);
    expect(BigInt(info!.lamports)).toBe(await viewLamports(ACC.ta1, HEADS.processed));
    expect((await conn.getAccountInfo(new PublicKey(ACC.ta1), 'finalized'))!.data.readBigUInt64LE(64)).toBe(1_500_000n);
    expect(await conn.getAccountInfo(new PublicKey(ACC.ta3), 'confirmed')).toBeNull();
    expect(await conn.getAccountInfo(new PublicKey(MINT_MISSING))).toBeNull();
    const many = await conn.getMultipleAccountsInfo([ACC.ta1, MINT_MISSING, ACC.big].map((k) => new PublicKey(k)));
    expect(many.map((a) => a?.data.length ?? null)).toEqual([165, null, 300]);
  });
  it('web3.js jsonParsed: token accounts and mints parsed, other accounts base64', async () => {
    const parsed = await conn.getParsedAccountInfo(new PublicKey(ACC.ta2));
    expect((parsed.value!.data as any).program).toBe('spl-token-2022');
    expect((parsed.value!.data as any).parsed.info.tokenAmount).toEqual({
      amount: '42',
      decimals: 2,
      uiAmount: 0.42,
      uiAmountString: '0.42',
    });
    expect((parsed.value!.data as any).parsed.info.extensions).toEqual([
      { extension: 'immutableOwner' },
      { extension: 'transferFeeAmount', state: { withheldAmount: 3 } },
    ]);
    const multi = await conn.getMultipleParsedAccounts([MINT_1, ACC.big, ACC.ta6].map((k) => new PublicKey(k)));
    expect((multi.value[0]!.data as any).parsed).toMatchObject({ type: 'mint', info: { decimals: 6, supply: '1000000000' } });
    expect(Buffer.isBuffer(multi.value[1]!.data)).toBe(true); // no parser: base64, as Agave
    expect(Buffer.isBuffer(multi.value[2]!.data)).toBe(true); // its mint does not exist: cannot be parsed
  });
  it('kit: default binary (bare base58 string), base64, slices, the base58 limit, exact u64s', async () => {
    const bin = await rpc().getAccountInfo(address(MINT_1)).send();
    expect(Buffer.from(bs58.decode(bin.value!.data as unknown as string))[44]).toBe(6); // the mint's decimals byte
    const sliced = await rpc()
      .getAccountInfo(address(ACC.big), { encoding: 'base64', dataSlice: { offset: 10, length: 4 } })
      .send();
    expect([...Buffer.from(sliced.value!.data[0], 'base64')]).toEqual([10, 11, 12, 13]);
    expect(sliced.value!.lamports).toBe(BIG_LAMPORTS);
    expect(sliced.value!.space).toBe(300n);
    await expect(rpc().getAccountInfo(address(ACC.big)).send()).rejects.toThrow();
    expect((await raw('getAccountInfo', [ACC.big])).error).toEqual({
      code: -32600,
      message: 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.',
    });
    const multi = await rpc()
      .getMultipleAccounts([address(ACC.ta1), address(MINT_MISSING)], { commitment: 'processed' })
      .send();
    expect(multi.context.slot).toBe(BigInt(HEADS.processed));
    expect(multi.value[1]).toBeNull();
    expect((multi.value[0] as any).data[1]).toBe('base64');
  });
  it("getMultipleAccounts refuses more than 100 keys with Agave's message", async () => {
    expect((await raw('getMultipleAccounts', [Array(101).fill(WALLET)])).error).toEqual({
      code: -32602,
      message: 'Too many inputs provided; max 100',
    });
  });
});

describe('getSignatureStatuses', () => {
  it('web3.js: slot, err and confirmation status per commitment, null for unknown and lost-fork signatures', async () => {
    const sigs = [sigOf(110, 0), sigOf(110, 1), sigOf(128, 0), sigOf(138, 0), sigOf(FORKED, 0), bs58.encode(keyOf('nothing', 64))];
    const r = await conn.getSignatureStatuses(sigs);
    expect(r.context.slot).toBe(HEADS.processed);
    const [a, b, c, d, forked, none] = r.value;
    expect(a).toMatchObject({ slot: 110, confirmations: null, err: null, confirmationStatus: 'finalized' });
    expect(b).toMatchObject({ slot: 110, err: JSON.parse(TX_ERR), confirmationStatus: 'finalized' });
    expect(c).toMatchObject({ slot: 128, confirmationStatus: 'confirmed' });
    expect(c!.confirmations).toBe(3); // 128, 129, 130
    expect(d).toMatchObject({ slot: 138, confirmations: 0, confirmationStatus: 'processed' });
    expect(forked).toBeNull();
    expect(none).toBeNull();
  });
  it("kit: the stored error in Agave's form, and Agave's status member", async () => {
    const r = await rpc()
      .getSignatureStatuses([signature(sigOf(120, 1))], { searchTransactionHistory: true })
      .send();
    expect(r.value[0]).toMatchObject({ slot: 120n, err: { InstructionError: [0n, { Custom: 6001n }] }, confirmationStatus: 'finalized' });
    expect((await raw('getSignatureStatuses', [[sigOf(120, 1)]])).result.value[0].status).toEqual({ Err: JSON.parse(TX_ERR) });
    expect((await raw('getSignatureStatuses', [Array(257).fill(sigOf(120, 1))])).error).toEqual({
      code: -32602,
      message: 'Too many inputs provided; max 256',
    });
  });
});

describe('getLatestBlockhash and isBlockhashValid', () => {
  it("web3.js: the newest block's hash, its height + 150, and its validity", async () => {
    const { blockhash, lastValidBlockHeight } = await conn.getLatestBlockhash('finalized');
    expect(blockhash).toBe(bs58.encode(keyOf(`blockhash-${HEADS.finalized}`)));
    expect(lastValidBlockHeight).toBe(heightOf(HEADS.finalized) + 150);
    expect((await conn.isBlockhashValid(blockhash)).value).toBe(true);
    expect((await conn.isBlockhashValid(bs58.encode(keyOf('blockhash-999')))).value).toBe(false);
  });
  it("kit: a hash above the commitment's head is not valid there; a lost fork's never", async () => {
    const newest = bs58.encode(keyOf(`blockhash-${HEADS.processed}`));
    const r = await rpc().getLatestBlockhash({ commitment: 'processed' }).send();
    expect(r.value.blockhash).toBe(newest);
    expect(r.context.slot).toBe(BigInt(HEADS.processed));
    expect(
      (
        await rpc()
          .isBlockhashValid(newest as any, { commitment: 'processed' })
          .send()
      ).value,
    ).toBe(true);
    expect(
      (
        await rpc()
          .isBlockhashValid(newest as any, { commitment: 'finalized' })
          .send()
      ).value,
    ).toBe(false);
    expect(
      (
        await rpc()
          .isBlockhashValid(bs58.encode(keyOf(`blockhash-${FORKED}`)) as any, { commitment: 'processed' })
          .send()
      ).value,
    ).toBe(false);
  });
});

describe('getTokenAccountsByOwner and getTokenAccountBalance', () => {
  it('web3.js by program: the accounts the views give the wallet at each commitment, sorted by pubkey bytes', async () => {
    for (const c of ['processed', 'confirmed', 'finalized'] as const) {
      const r = await conn.getTokenAccountsByOwner(new PublicKey(WALLET), { programId: new PublicKey(TOKEN_PROGRAM) }, c);
      const want = (await viewTokenAccounts(WALLET, TOKEN_PROGRAM, HEADS[c])).sort(byBytes);
      expect(r.value.map((a) => a.pubkey.toBase58())).toEqual(want);
      expect(r.context.slot).toBe(HEADS[c]);
    }
    const processed = await conn.getTokenAccountsByOwner(new PublicKey(WALLET), { programId: new PublicKey(TOKEN_PROGRAM) }, 'processed');
    expect(processed.value.map((a) => a.pubkey.toBase58()).sort()).toEqual([ACC.ta1, ACC.ta4, ACC.ta5, ACC.ta6].sort());
    const finalized = await conn.getTokenAccountsByOwner(new PublicKey(WALLET), { programId: new PublicKey(TOKEN_PROGRAM) }, 'finalized');
    expect(finalized.value.map((a) => a.pubkey.toBase58()).sort()).toEqual([ACC.ta1, ACC.ta3, ACC.ta5, ACC.ta6].sort());
  });
  it('web3.js by mint and jsonParsed (accounts it cannot parse are left out, as Agave does)', async () => {
    const byMint = await conn.getTokenAccountsByOwner(new PublicKey(WALLET_2), { mint: new PublicKey(MINT_1) }, 'confirmed');
    expect(byMint.value.map((a) => a.pubkey.toBase58())).toEqual([ACC.ta4]);
    const parsed = await conn.getParsedTokenAccountsByOwner(
      new PublicKey(WALLET),
      { programId: new PublicKey(TOKEN_PROGRAM) },
      'processed',
    );
    const info = Object.fromEntries(parsed.value.map((a) => [a.pubkey.toBase58(), (a.account.data as any).parsed.info]));
    expect(Object.keys(info).sort()).toEqual([ACC.ta1, ACC.ta4, ACC.ta5].sort());
    expect(info[ACC.ta1].tokenAmount).toEqual({ amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' });
    expect(info[ACC.ta5]).toMatchObject({ mint: NATIVE_MINT, isNative: true, rentExemptReserve: { amount: '2039280', decimals: 9 } });
    const t22 = await conn.getParsedTokenAccountsByOwner(new PublicKey(WALLET), { mint: new PublicKey(MINT_2) });
    expect(t22.value).toHaveLength(1);
    expect((t22.value[0]!.account.data as any).program).toBe('spl-token-2022');
    expect(t22.value[0]!.account.owner.toBase58()).toBe(TOKEN_2022_PROGRAM);
  });
  it("getTokenAccountBalance (web3.js and kit) with the mint's decimals", async () => {
    expect((await conn.getTokenAccountBalance(new PublicKey(ACC.ta1), 'processed')).value).toEqual({
      amount: '2500000',
      decimals: 6,
      uiAmount: 2.5,
      uiAmountString: '2.5',
    });
    const k = await rpc().getTokenAccountBalance(address(ACC.ta2)).send();
    expect(k.value).toEqual({ amount: '42', decimals: 2, uiAmount: 0.42, uiAmountString: '0.42' });
    expect(k.context.slot).toBe(BigInt(HEADS.confirmed)); // kit asks for confirmed by default
  });
  it("Agave's -32602 messages", async () => {
    const e = async (m: string, p: unknown) => (await raw(m, p)).error;
    expect(await e('getTokenAccountBalance', [MINT_MISSING])).toEqual({ code: -32602, message: 'Invalid param: could not find account' });
    expect(await e('getTokenAccountBalance', [WALLET])).toEqual({ code: -32602, message: 'Invalid param: not a Token account' });
    expect(await e('getTokenAccountBalance', [ACC.ta6])).toEqual({ code: -32602, message: 'Invalid param: could not find mint' });
    expect(await e('getTokenAccountsByOwner', [WALLET, { mint: MINT_MISSING }])).toEqual({
      code: -32602,
      message: 'Invalid param: could not find mint',
    });
    expect(await e('getTokenAccountsByOwner', [WALLET, { programId: PROGRAM }])).toEqual({
      code: -32602,
      message: 'Invalid param: unrecognized Token program id',
    });
    expect(await e('getTokenAccountsByOwner', [WALLET, { mint: WALLET }])).toEqual({
      code: -32602,
      message: 'Invalid param: Token mint could not be unpacked',
    });
  });
  it('kit: getTokenAccountsByOwner base64 data as the view holds it', async () => {
    const r = await rpc()
      .getTokenAccountsByOwner(address(WALLET), { mint: address(MINT_1) }, { encoding: 'base64', commitment: 'finalized' })
      .send();
    expect(r.value.map((a) => a.pubkey).sort()).toEqual([ACC.ta1, ACC.ta3].sort());
    const ta1 = r.value.find((a) => a.pubkey === ACC.ta1)!;
    expect(Buffer.from(ta1.account.data[0], 'base64').readBigUInt64LE(64)).toBe(1_500_000n);
  });
});

describe('getHealth, getVersion, and the write methods', () => {
  it('getHealth is ok; getVersion names the version every context carries', async () => {
    expect(await rpc().getHealth().send()).toBe('ok');
    const v = await conn.getVersion();
    const ctx = (await raw('getSlot')).result;
    expect(typeof ctx).toBe('number');
    expect(v['solana-core']).toBe((await raw('getBalance', [WALLET])).result.context.apiVersion);
  });
  it('sendTransaction, simulateTransaction and requestAirdrop say the service is read-only', async () => {
    await expect(conn.sendRawTransaction(Buffer.alloc(100), { skipPreflight: true })).rejects.toBeInstanceOf(SendTransactionError);
    await expect(conn.sendRawTransaction(Buffer.alloc(100), { skipPreflight: true })).rejects.toThrow(/read-only service/);
    await expect(conn.requestAirdrop(new PublicKey(WALLET), 1)).rejects.toThrow(/read-only service/);
    await expect(
      rpc()
        .sendTransaction('AAAA' as any, { encoding: 'base64' })
        .send(),
    ).rejects.toThrow();
    for (const m of ['sendTransaction', 'simulateTransaction', 'requestAirdrop']) {
      const e = (await raw(m, ['x'])).error;
      expect(e.code).toBe(-32601);
      expect(e.message).toMatch(new RegExp(`^Method not found: slotstream is a read-only service and cannot .*\\(${m}\\)`));
    }
  });
});

describe('answers equal the views', () => {
  const view = async <T>(sql: string, params: Record<string, unknown> = {}): Promise<T[]> =>
    (await store.ch.query({ query: sql, query_params: params, format: 'JSONEachRow' })).json<T>();
  it('getSignatureStatuses: slot and err of every transaction of the chain as the transactions view holds them', async () => {
    const txs = await view<{ signature: string; slot: string; err: string | null }>(
      `SELECT signature, slot, err FROM ${db}.transactions WHERE slot != {forked:UInt64} ORDER BY slot, position`,
      { forked: FORKED },
    );
    expect(txs.length).toBeGreaterThan(60);
    for (let i = 0; i < txs.length; i += 256) {
      const page = txs.slice(i, i + 256);
      const r = await conn.getSignatureStatuses(
        page.map((t) => t.signature),
        { searchTransactionHistory: true },
      );
      r.value.forEach((st, j) => {
        expect(st?.slot).toBe(Number(page[j]!.slot));
        expect(st?.err).toEqual(page[j]!.err === null ? null : JSON.parse(page[j]!.err));
      });
    }
  });
  it('getBlockTime of every produced slot and getLatestBlockhash at each commitment, as the blocks view holds them', async () => {
    const blocks = await view<{ slot: string; block_time: string | null; blockhash: string; block_height: string }>(
      `SELECT slot, block_time, blockhash, block_height FROM ${db}.blocks WHERE slot != {forked:UInt64} ORDER BY slot`,
      { forked: FORKED },
    );
    for (const b of blocks) expect(await conn.getBlockTime(Number(b.slot))).toBe(b.block_time === null ? null : Number(b.block_time));
    for (const c of ['processed', 'confirmed', 'finalized'] as const) {
      const head = blocks.find((b) => Number(b.slot) === HEADS[c])!;
      const r = await rpc().getLatestBlockhash({ commitment: c }).send();
      expect(r.value).toEqual({ blockhash: head.blockhash, lastValidBlockHeight: BigInt(head.block_height) + 150n });
    }
  });
});

describe('while behind or bootstrapping', () => {
  it('getHealth answers -32005 with numSlotsBehind; methods on the views -32007; getVersion and the refusals still answer', async () => {
    const behind = await serve(store.ch, db, { chainTip: () => BigInt(HEADS.processed + 1000) });
    try {
      const call = async (m: string, p?: unknown) => (await behind.call(m, p)).body;
      expect((await call('getHealth')).error).toEqual({
        code: -32005,
        message: 'Node is behind by 1000 slots',
        data: { numSlotsBehind: 1000 },
      });
      await expect(createSolanaRpc(behind.url).getHealth().send()).rejects.toThrow();
      expect((await call('getSlot')).error).toEqual({ code: -32007, message: 'Slot information unavailable' });
      expect((await call('getBalance', [WALLET])).error).toEqual({ code: -32007, message: 'Account information unavailable' });
      expect((await call('getSignatureStatuses', [[sigOf(110, 0)]])).error).toEqual({
        code: -32007,
        message: 'Signature information unavailable',
      });
      expect((await call('getLatestBlockhash')).error).toEqual({ code: -32007, message: 'Block information unavailable' });
      expect((await call('getVersion')).result['solana-core']).toEqual(expect.any(String));
      expect((await call('requestAirdrop', [WALLET, 1])).error.code).toBe(-32601);
    } finally {
      await behind.server.close();
    }
  });
  it('with no finalized slot yet getHealth cannot measure the lag: -32005 "Node is unhealthy", numSlotsBehind null', async () => {
    const empty = await serve(store.ch, await store.database('read_methods_empty'));
    try {
      expect((await empty.call('getHealth')).body.error).toEqual({
        code: -32005,
        message: 'Node is unhealthy',
        data: { numSlotsBehind: null },
      });
      expect((await empty.call('getFirstAvailableBlock')).body.error.code).toBe(-32007);
    } finally {
      await empty.server.close();
    }
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are checked by value, not by type */
// The shared fixture chain of the JSON-RPC integration tests: slots 1000..1100 with skipped slots, heads
// at three different slots (so every commitment answers differently), signatures in many slots and many
// in one slot, accounts that change, close and change owner between the commitments, and one epoch.
import type { ClickHouseClient } from '@clickhouse/client';
import bs58 from 'bs58';
import { JsonRpcServer, type JsonRpcOptions } from '../../../api/jsonrpc/server.js';
import {
  chainBlocks,
  insertAccountWrites,
  insertBlocks,
  insertEpoch,
  insertSlotStatus,
  insertTransactions,
  key,
  setHeads,
  sig,
  U64_MAX,
  type AccountWrite,
  type BlockRow,
  type TxRow,
} from './store.js';
import { silentLogger } from '../../../platform/log.js';

export const FIRST = 1000;
export const LAST = 1100;
export const SKIPPED = [1003, 1010, 1011, 1050, 1099];
/** A block that was produced and later lost its fork: a block row and status 3. */
export const FORKED = 1057;
export const HEADS = { processed: 1100, confirmed: 1080, finalized: 1060 } as const;

export const ADDR_A = key(1, 20);
export const ADDR_B = key(2, 20);
export const ADDR_NONE = key(3, 20);
export const PROGRAM = key(1, 30);
export const OTHER_PROGRAM = key(2, 30);
export const MINT_1 = key(1, 40);
export const MINT_2 = key(2, 40);
export const ACC = {
  changing: key(1, 50),
  closed: key(2, 50),
  moved: key(3, 50),
  big: key(4, 50),
  small: key(5, 50),
  late: key(6, 50),
  other: key(7, 50),
};
export const VALIDATORS = [key(1, 60), key(2, 60), key(3, 60)];
export const EPOCH = { epoch: 2, firstSlot: 800, slotsPerEpoch: 400, slotsPerLeader: 4 };
/** Run i is led by VALIDATORS[EPOCH_SCHEDULE[i]]; validator 2 leads only the runs where i % 5 === 4. */
export const EPOCH_SCHEDULE = Array.from({ length: 100 }, (_, i) => (i % 5 === 4 ? 2 : i % 2));

export const ERR_CUSTOM = '{"InstructionError":[0,{"Custom":6002}]}';

/** 165-byte token-account-like data: mint at 0, owner at 32, amount u64 LE at 64. */
export function tokenData(mint: string, owner: string, amount: bigint): Uint8Array {
  const b = Buffer.alloc(165);
  Buffer.from(bs58decode(mint)).copy(b, 0);
  Buffer.from(bs58decode(owner)).copy(b, 32);
  b.writeBigUInt64LE(amount, 64);
  return b;
}
const bs58decode = (s: string): Uint8Array => bs58.decode(s);

export interface World {
  blocks: BlockRow[];
  txs: TxRow[];
  writes: AccountWrite[];
}

export function buildWorld(): World {
  const { blocks } = chainBlocks({ first: FIRST, last: LAST, skipped: SKIPPED, heightAtFirst: 900, time0: 1_700_000_000 });
  const produced = blocks;
  const txs: TxRow[] = [];
  let n = 0;
  for (const b of produced) {
    const slot = Number(b.slot);
    // Address A: two transactions in most blocks, 30 in slot 1020, none in 1030.
    const positions = slot === 1020 ? Array.from({ length: 30 }, (_, i) => i * 2) : slot === 1030 ? [] : [0, 5];
    for (const position of positions) {
      n++;
      txs.push({
        signature: sig(n),
        slot,
        position,
        addresses: n % 7 === 0 ? [ADDR_A, ADDR_B] : [ADDR_A],
        err: n % 4 === 0 ? ERR_CUSTOM : null,
        memo: n % 5 === 0 ? `[5] hello; [3] n${n % 10}` : null,
        blockTime: slot === 1040 ? null : Number(b.blockTime),
      });
    }
  }
  const writes: AccountWrite[] = [
    // changes between finalized (1060) and confirmed (1080)
    { pubkey: ACC.changing, slot: 1001, writeVersion: 1, owner: PROGRAM, lamports: 2_039_280, data: tokenData(MINT_1, ADDR_A, 5n) },
    { pubkey: ACC.changing, slot: 1070, writeVersion: 5, owner: PROGRAM, lamports: 3_000_000, data: tokenData(MINT_2, ADDR_A, 7n) },
    // the same (pubkey, slot) written twice: the higher write_version wins
    { pubkey: ACC.changing, slot: 1070, writeVersion: 4, owner: PROGRAM, lamports: 1, data: tokenData(MINT_1, ADDR_B, 1n) },
    // closed at 1075: listed at finalized, gone at confirmed
    { pubkey: ACC.closed, slot: 1002, writeVersion: 2, owner: PROGRAM, lamports: 2_039_280, data: tokenData(MINT_1, ADDR_B, 9n) },
    { pubkey: ACC.closed, slot: 1075, writeVersion: 6, owner: PROGRAM, lamports: 0, data: new Uint8Array(0) },
    // owner changes at 1095 (processed only)
    { pubkey: ACC.moved, slot: 1004, writeVersion: 3, owner: PROGRAM, lamports: 1_000_000, data: tokenData(MINT_1, ADDR_A, 1n) },
    { pubkey: ACC.moved, slot: 1095, writeVersion: 8, owner: OTHER_PROGRAM, lamports: 1_000_000, data: tokenData(MINT_1, ADDR_A, 1n) },
    // over 128 bytes of data, lamports past 2^53, rentEpoch u64::MAX
    {
      pubkey: ACC.big,
      slot: 1005,
      writeVersion: 4,
      owner: PROGRAM,
      lamports: 2n ** 60n + 1n,
      rentEpoch: U64_MAX,
      executable: true,
      data: Uint8Array.from({ length: 200 }, (_, i) => i),
    },
    // 10 bytes
    {
      pubkey: ACC.small,
      slot: 1006,
      writeVersion: 5,
      owner: PROGRAM,
      lamports: 890_880,
      rentEpoch: 361,
      data: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
    },
    // created at 1098 (processed only)
    { pubkey: ACC.late, slot: 1098, writeVersion: 9, owner: PROGRAM, lamports: 5, data: tokenData(MINT_2, ADDR_B, 3n) },
    { pubkey: ACC.other, slot: 1007, writeVersion: 6, owner: OTHER_PROGRAM, lamports: 5, data: tokenData(MINT_1, ADDR_B, 3n) },
  ];
  return { blocks: produced, txs, writes };
}

export async function loadWorld(ch: ClickHouseClient, db: string): Promise<World> {
  const w = buildWorld();
  await insertBlocks(ch, db, w.blocks);
  // Re-delivered blocks (not merged yet): must not be listed twice.
  await insertBlocks(
    ch,
    db,
    w.blocks.filter((b) => Number(b.slot) >= 1000 && Number(b.slot) <= 1012),
  );
  await insertSlotStatus(ch, db, [
    ...SKIPPED.map((slot) => ({ slot, status: 3 })),
    ...w.blocks.map((b) => ({ slot: b.slot, status: Number(b.slot) <= HEADS.finalized ? 2 : Number(b.slot) <= HEADS.confirmed ? 1 : 0 })),
    { slot: FORKED, status: 3 },
  ]);
  await insertTransactions(ch, db, w.txs);
  // A re-delivered part of the history (a projector crash before its commit): must not show twice.
  await insertTransactions(
    ch,
    db,
    w.txs.filter((t) => Number(t.slot) === 1020 || Number(t.slot) === 1001),
  );
  await insertAccountWrites(ch, db, w.writes);
  await insertAccountWrites(ch, db, w.writes.slice(0, 4));
  await insertEpoch(ch, db, { ...EPOCH, identities: VALIDATORS, schedule: EPOCH_SCHEDULE });
  await setHeads(ch, db, HEADS);
  return w;
}

export interface Served {
  server: JsonRpcServer;
  url: string;
  call(method: string, params?: unknown, id?: unknown): Promise<{ status: number; body: any }>;
  post(body: string, headers?: Record<string, string>): Promise<{ status: number; text: string; headers: Headers }>;
}

export async function serve(ch: ClickHouseClient, database: string, o: Partial<JsonRpcOptions> = {}): Promise<Served> {
  const server = await JsonRpcServer.open({
    ch,
    database,
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 50 * 1024,
    maxBatch: 100,
    maxSlotLag: 150,
    chainTip: () => undefined,
    log: silentLogger,
    stateTtlMs: 0,
    ...o,
  });
  const url = `http://127.0.0.1:${server.port}/`;
  const post = async (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
    const r = await fetch(url, { method: 'POST', headers, body });
    return { status: r.status, text: await r.text(), headers: r.headers };
  };
  return {
    server,
    url,
    post,
    async call(method, params, id = 1) {
      const r = await post(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
      return { status: r.status, body: r.text === '' ? undefined : JSON.parse(r.text) };
    },
  };
}

// Test fixtures: a real embedded ClickHouse with the migrations applied, and builders that insert rows
// into the views exactly as the projector would, so the methods' SQL is tested for real without Kafka.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { createClickHouse, type ClickHouseClient } from '../../../platform/clickhouse.js';
import { applyMigrations } from '../../../platform/migrations.js';

export interface TestStore {
  ch: ClickHouseClient;
  dir: string;
  /** A fresh database with the migrations applied. */
  database(name: string): Promise<string>;
  close(): Promise<void>;
}

/** One chdb data folder per process (chdb binds one); many databases inside it. */
export async function openTestStore(): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'slotstream-jsonrpc-'));
  const ch = await createClickHouse({ dataDir: dir, database: 'default' });
  return {
    ch,
    dir,
    async database(name) {
      await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${name}` });
      await applyMigrations(ch, name);
      return name;
    },
    async close() {
      await ch.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A deterministic 32-byte key as base58: byte 0 = tag, bytes 1..8 = n (big-endian, so n orders bytes). */
export function key(n: number, tag = 7): string {
  const b = Buffer.alloc(32);
  b[0] = tag;
  b.writeBigUInt64BE(BigInt(n), 1);
  return bs58.encode(b);
}

/** A deterministic 64-byte signature as base58. */
export function sig(n: number, tag = 9): string {
  const b = Buffer.alloc(64, 1);
  b[0] = tag;
  b.writeBigUInt64BE(BigInt(n), 1);
  return bs58.encode(b);
}

// The ids are schemas/programs.ts's (one spelling in the repository: a copy here once misspelt SPL Token's, issue 32).
export { SYSTEM_PROGRAM, TOKEN_PROGRAM } from '../../../schemas/programs.js';
export const U64_MAX = 18446744073709551615n;

export interface BlockRow {
  slot: bigint | number;
  parentSlot?: bigint | number;
  blockhash?: string;
  blockHeight: bigint | number;
  blockTime: number | null;
  leader?: string;
  transactionCount?: number;
  voteTransactionCount?: number;
}

const s = (v: bigint | number): string => String(v);

async function insert(ch: ClickHouseClient, table: string, columns: string[], values: Record<string, unknown>[]): Promise<void> {
  if (values.length === 0) return;
  await ch.insert({ table, columns: columns as [string, ...string[]], values, format: 'JSONEachRow' });
}

export async function insertBlocks(ch: ClickHouseClient, db: string, rows: BlockRow[]): Promise<void> {
  await insert(
    ch,
    `${db}.blocks`,
    ['slot', 'parent_slot', 'blockhash', 'block_height', 'block_time', 'leader', 'transaction_count', 'vote_transaction_count'],
    rows.map((r) => ({
      slot: s(r.slot),
      parent_slot: s(r.parentSlot ?? (BigInt(r.slot) > 0n ? BigInt(r.slot) - 1n : 0n)),
      blockhash: r.blockhash ?? key(Number(r.slot), 3),
      block_height: s(r.blockHeight),
      block_time: r.blockTime,
      leader: r.leader ?? key(1, 5),
      transaction_count: r.transactionCount ?? 0,
      vote_transaction_count: r.voteTransactionCount ?? 0,
    })),
  );
}

/** Status per slot: 0 processed, 1 confirmed, 2 finalized, 3 skipped. */
export async function insertSlotStatus(ch: ClickHouseClient, db: string, rows: { slot: bigint | number; status: number }[]): Promise<void> {
  await insert(
    ch,
    `${db}.slot_status`,
    ['slot', 'status'],
    rows.map((r) => ({ slot: s(r.slot), status: r.status })),
  );
}

export async function setHeads(
  ch: ClickHouseClient,
  db: string,
  heads: Partial<Record<'processed' | 'confirmed' | 'finalized', bigint | number>>,
): Promise<void> {
  await insert(
    ch,
    `${db}.heads`,
    ['commitment', 'slot'],
    Object.entries(heads).map(([commitment, slot]) => ({ commitment, slot: s(slot) })),
  );
}

export interface TxRow {
  signature: string;
  slot: bigint | number;
  position: number;
  /** Static keys and loaded addresses: one signatures_by_address row each. */
  addresses: string[];
  err?: string | null;
  memo?: string | null;
  blockTime?: number | null;
  isVote?: boolean;
  fee?: bigint | number;
}

export async function insertTransactions(ch: ClickHouseClient, db: string, txs: TxRow[]): Promise<void> {
  await insert(
    ch,
    `${db}.transactions`,
    ['signature', 'slot', 'position', 'err', 'memo', 'block_time', 'is_vote', 'fee'],
    txs.map((t) => ({
      signature: t.signature,
      slot: s(t.slot),
      position: t.position,
      err: t.err ?? null,
      memo: t.memo ?? null,
      block_time: t.blockTime ?? null,
      is_vote: t.isVote ?? false,
      fee: s(t.fee ?? 5000),
    })),
  );
  await insert(
    ch,
    `${db}.signatures_by_address`,
    ['address', 'slot', 'position', 'signature', 'err', 'memo', 'block_time'],
    txs.flatMap((t) =>
      t.addresses.map((address) => ({
        address,
        slot: s(t.slot),
        position: t.position,
        signature: t.signature,
        err: t.err ?? null,
        memo: t.memo ?? null,
        block_time: t.blockTime ?? null,
      })),
    ),
  );
}

export interface AccountWrite {
  pubkey: string;
  slot: bigint | number;
  writeVersion: bigint | number;
  owner: string;
  lamports: bigint | number;
  executable?: boolean;
  rentEpoch?: bigint | number;
  data: Uint8Array;
}

export async function insertAccountWrites(ch: ClickHouseClient, db: string, writes: AccountWrite[]): Promise<void> {
  // account_writes and its owner-keyed copies (006_program_accounts.sql), as the projector writes them.
  for (const table of ['account_writes', 'program_accounts', 'program_account_changes'])
    await insertWriteRows(ch, `${db}.${table}`, writes);
  // The ownership check's copy (011_owner_writes.sql).
  await insert(
    ch,
    `${db}.owner_writes`,
    ['pubkey', 'slot', 'write_version', 'owner'],
    writes.map((w) => ({ pubkey: w.pubkey, slot: s(w.slot), write_version: s(w.writeVersion), owner: w.owner })),
  );
}

async function insertWriteRows(ch: ClickHouseClient, table: string, writes: AccountWrite[]): Promise<void> {
  await insert(
    ch,
    table,
    ['pubkey', 'slot', 'write_version', 'owner', 'lamports', 'executable', 'rent_epoch', 'space', 'data'],
    writes.map((w) => ({
      pubkey: w.pubkey,
      slot: s(w.slot),
      write_version: s(w.writeVersion),
      owner: w.owner,
      lamports: s(w.lamports),
      executable: w.executable ?? false,
      rent_epoch: s(w.rentEpoch ?? U64_MAX),
      space: w.data.length,
      data: Buffer.from(w.data).toString('base64'),
    })),
  );
}

export interface EpochRowInput {
  epoch: number;
  firstSlot: number;
  slotsPerEpoch: number;
  slotsPerLeader: number;
  identities: string[];
  schedule: number[];
}

export async function insertEpoch(ch: ClickHouseClient, db: string, e: EpochRowInput): Promise<void> {
  await insert(
    ch,
    `${db}.epochs`,
    ['epoch', 'first_slot', 'slots_per_epoch', 'slots_per_leader', 'identities', 'schedule'],
    [
      {
        epoch: s(e.epoch),
        first_slot: s(e.firstSlot),
        slots_per_epoch: s(e.slotsPerEpoch),
        slots_per_leader: e.slotsPerLeader,
        identities: e.identities,
        schedule: e.schedule,
      },
    ],
  );
}

/**
 * A small chain: slots `first..last`, the given ones skipped (status 3, no block), block heights counting
 * produced blocks from `heightAtFirst`, block time = `time0 + 0.4 s per slot` (rounded down).
 */
export function chainBlocks(o: {
  first: number;
  last: number;
  skipped: Iterable<number>;
  heightAtFirst?: number;
  time0?: number;
  txPerBlock?: number;
  votesPerBlock?: number;
}): { blocks: BlockRow[]; skipped: number[] } {
  const skipped = new Set(o.skipped);
  const blocks: BlockRow[] = [];
  let height = o.heightAtFirst ?? o.first;
  for (let slot = o.first; slot <= o.last; slot++) {
    if (skipped.has(slot)) continue;
    blocks.push({
      slot,
      blockHeight: height++,
      blockTime: Math.floor((o.time0 ?? 1_700_000_000) + (slot - o.first) * 0.4),
      transactionCount: o.txPerBlock ?? 10,
      voteTransactionCount: o.votesPerBlock ?? 6,
    });
  }
  return { blocks, skipped: [...skipped].sort((a, b) => a - b) };
}

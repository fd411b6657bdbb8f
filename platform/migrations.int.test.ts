// Migrations against the real embedded engine: applying twice changes nothing, and the views answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, type ClickHouseClient } from './clickhouse.js';
import { applyMigrations, loadMigrations, MIGRATIONS_DIR } from './migrations.js';

const DB = 'mig_test';
let dir: string;
let ch: ClickHouseClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'slotstream-mig-'));
  ch = await createClickHouse({ dataDir: dir, database: DB });
});
afterAll(async () => {
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

const tables = async () => {
  const rs = await ch.query({
    query: 'SELECT name, engine FROM system.tables WHERE database = {db:String} ORDER BY name',
    query_params: { db: DB },
    format: 'JSONEachRow',
  });
  return rs.json<{ name: string; engine: string }>();
};

describe('applyMigrations', () => {
  it('applies every numbered file once, then nothing', async () => {
    const all = loadMigrations(MIGRATIONS_DIR, DB).map((m) => m.version);
    expect(all.length).toBeGreaterThan(0);
    expect(await applyMigrations(ch, DB)).toEqual(all);
    const first = await tables();
    expect(await applyMigrations(ch, DB)).toEqual([]);
    expect(await tables()).toEqual(first);
    const names = first.map((t) => t.name);
    for (const t of [
      'transactions',
      'signatures_by_address',
      'blocks',
      'slot_status',
      'heads',
      'account_writes',
      'owner_writes',
      'epochs',
      'slot_offsets',
      'performance_samples',
      'schema_migrations',
    ]) {
      expect(names).toContain(t);
    }
    const recorded = await ch.query({ query: `SELECT count() AS n FROM ${DB}.schema_migrations`, format: 'JSONEachRow' });
    expect(Number((await recorded.json<{ n: string }>())[0]!.n)).toBe(all.length);
  });

  it('the views answer queries: performance samples from blocks', async () => {
    // Two 60 s windows: slots 10..12 (11 skipped) at t=600..659, slots 13..14 at t=660..719.
    const block = (slot: number, t: number, txs: number, votes: number) => ({
      slot,
      parent_slot: slot - 1,
      blockhash: `h${slot}`,
      block_height: slot,
      block_time: t,
      leader: 'L',
      transaction_count: txs,
      vote_transaction_count: votes,
    });
    await ch.insert({
      table: `${DB}.blocks`,
      columns: ['slot', 'parent_slot', 'blockhash', 'block_height', 'block_time', 'leader', 'transaction_count', 'vote_transaction_count'],
      values: [block(10, 600, 5, 3), block(12, 630, 7, 4), block(13, 660, 2, 1), block(14, 700, 4, 4)],
      format: 'JSONEachRow',
    });
    const rs = await ch.query({
      query: `SELECT slot, num_slots, num_transactions, num_non_vote_transactions FROM ${DB}.performance_samples ORDER BY slot`,
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([
      { slot: '12', num_slots: '3', num_transactions: '12', num_non_vote_transactions: '5' },
      { slot: '14', num_slots: '2', num_transactions: '6', num_non_vote_transactions: '1' },
    ]);
  });
});

// RowBinary against TabSeparated in real embedded ClickHouse (chdb): every table the projector writes gets the same
// rows through both bodies, each into a database of its own, and reads back the same, byte for byte; the rows hold
// the corners a binary body meets (u64 max, 0x0a0a values, record bytes with every byte value and empty lines, free
// text with tabs, line breaks, backslashes and wide characters, empty strings, NULLs, arrays empty and not).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouse, insertTabSeparated, type ClickHouseClient } from '../platform/clickhouse.js';
import { applyMigrations } from '../platform/migrations.js';
import { insertRowBinary } from '../platform/row-binary-insert.js';
import { makeChain } from '../test/support/projector/chain.js';
import { project } from './projections/index.js';
import { appendRows, emptyRows, VIEW_COLUMNS, VIEW_TABLES, type Rows, type ViewTable } from './projections/rows.js';
import { rowBinaryRows, rowBinaryTypes } from './row-binary.js';
import { tabSeparatedRows } from './tsv.js';

const U64_MAX = '18446744073709551615';
let dir: string;
let ch: ClickHouseClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'projector-row-binary-int-'));
  ch = await createClickHouse({ dataDir: dir, database: 'rb_tsv' });
  for (const db of ['rb_tsv', 'rb_bin']) {
    await ch.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
    await applyMigrations(ch, db);
  }
});

afterAll(async () => {
  await ch?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A chain's rows for every table, plus the corners. */
function rowsWithCorners(): Rows {
  const rows = emptyRows();
  for (const b of makeChain({ slots: 12, txPerSlot: 20, writesPerSlot: 30, seed: 11 })) {
    for (const e of b.events) {
      const p = project(e);
      if (!p.ok) throw new Error(p.reason);
      appendRows(rows, p.rows);
    }
  }
  const tx = rows.transactions[0]!;
  rows.transactions.push(
    {
      ...tx,
      signature: 'corner1',
      slot: U64_MAX,
      position: 4294967295,
      err: '',
      memo: 'a\tb\nc\rd\\e\n\nf',
      block_time: null,
      fee: U64_MAX,
    },
    { ...tx, signature: 'corner2', slot: '2570', position: 0, err: '{"x":"é✓😀"}', memo: null, block_time: '-1', is_vote: true, fee: '0' },
    {
      ...tx,
      signature: 'corner3',
      slot: '9007199254740993',
      err: null,
      memo: '',
      block_time: '-9223372036854775808',
      fee: '9007199254740993',
    },
  );
  const sba = rows.signatures_by_address[0]!;
  rows.signatures_by_address.push(
    { ...sba, address: 'corner', slot: U64_MAX, err: 'tab\there', memo: '\\N', block_time: '9223372036854775807' },
    { ...sba, address: '', slot: '2570', err: null, memo: null, block_time: null },
  );
  const tbc = rows.token_balance_changes[0] ?? { ...sba, account: 'x' };
  rows.token_balance_changes.push({ ...tbc, account: 'corner', err: 'e\n\ne', memo: '✓', block_time: null });
  const aw = rows.account_writes[0]!;
  const corner = {
    ...aw,
    pubkey: 'corner',
    slot: '2570',
    write_version: '2570',
    lamports: U64_MAX,
    rent_epoch: U64_MAX,
    space: 0,
    data: '',
    executable: true,
  };
  // The same row objects in the three tables, as the projector gives them (owner_writes takes four of the columns).
  for (const t of ['account_writes', 'program_accounts', 'program_account_changes', 'owner_writes'] as const) rows[t].push(corner);
  const rec = rows.transaction_records[0]!;
  rows.transaction_records.push(
    { ...rec, position: 9001, record: Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 7) % 256)) },
    { ...rec, position: 9002, record: Buffer.from([0x0a, 0x0a, 0x0a, 0x5c, 0x09, 0x0d, 0x00, 0xff]) },
    { ...rec, position: 9003, record: Buffer.alloc(0) },
  );
  const blk = rows.blocks[0]!;
  rows.blocks.push({ ...blk, slot: U64_MAX, parent_slot: '2570', block_time: null, transaction_count: 0 });
  rows.block_details.push({ slot: '2570', previous_blockhash: '', rewards: 'AAEC', num_partitions: null });
  rows.block_details.push({ slot: U64_MAX, previous_blockhash: 'x', rewards: '', num_partitions: U64_MAX });
  rows.epochs.push(
    { epoch: U64_MAX, first_slot: '2570', slots_per_epoch: '32', slots_per_leader: 4, identities: [], schedule: [] },
    { epoch: '2570', first_slot: '0', slots_per_epoch: '1', slots_per_leader: 1, identities: ['a', ''], schedule: [0, 4294967295, 2570] },
  );
  rows.slot_status.push({ slot: '2570', status: 255 });
  rows.slot_offsets.push({ topic: 'corner.topic', partition: 2570, slot: U64_MAX, first_offset: '0', last_offset: U64_MAX });
  rows.blockhashes.push({ blockhash: '', slot: '2570', block_height: U64_MAX });
  rows.transaction_index.push({ signature: '', slot: U64_MAX, position: 2570 });
  rows.token_accounts_by_owner.push({ owner: '', program: 'p', mint: 'm', pubkey: 'k' });
  rows.token_accounts_by_mint.push({ mint: '', program: 'p', pubkey: 'k' });
  rows.token_accounts_by_delegate.push({ delegate: 'd', program: '', mint: 'm', pubkey: 'k' });
  return rows;
}

/** A table's inserted columns, every row, in a fixed order, as TabSeparated text (bytes escaped, so exact). */
async function dump(db: string, table: ViewTable): Promise<string> {
  const cols = (VIEW_COLUMNS[table] as readonly string[]).join(', ');
  const rs = await ch.query({ query: `SELECT ${cols} FROM ${db}.${table} ORDER BY ${cols}`, format: 'TabSeparated' });
  return rs.text();
}

describe('RowBinary insert bodies', () => {
  it('given each table, when its columns are listed, then the writer types them as the table does', async () => {
    for (const t of VIEW_TABLES) {
      const rs = await ch.query({
        query: `SELECT name, type FROM system.columns WHERE database = 'rb_bin' AND table = {t:String}`,
        query_params: { t },
        format: 'JSONEachRow',
      });
      const types = new Map(
        (await rs.json<{ name: string; type: string }>()).map((c) => [c.name, c.type.replace(/^LowCardinality\((.*)\)$/, '$1')]),
      );
      const want = (VIEW_COLUMNS[t] as readonly string[]).map((c) => types.get(c));
      expect(rowBinaryTypes(t), t).toEqual(want);
    }
  });

  it('given every table with corner values, when inserted as RowBinary and as TabSeparated, then both read back the same', async () => {
    const rows = rowsWithCorners();
    for (const t of VIEW_TABLES) {
      expect(rows[t].length, t).toBeGreaterThan(0);
      const settings = { insert_deduplication_token: `rb-int:${t}`, async_insert: 0, optimize_on_insert: 0 } as const;
      // No merge may fold rows between the two reads: each database keeps every inserted row.
      for (const db of ['rb_tsv', 'rb_bin']) await ch.command({ query: `SYSTEM STOP MERGES ${db}.${t}` });
      await insertTabSeparated(ch, {
        table: `rb_tsv.${t}`,
        columns: VIEW_COLUMNS[t],
        body: tabSeparatedRows(t, rows[t] as never[]),
        settings,
      });
      await insertRowBinary(ch, {
        table: `rb_bin.${t}`,
        columns: VIEW_COLUMNS[t],
        body: rowBinaryRows(t, rows[t] as never[]),
        settings,
      });
      const [tsv, bin] = [await dump('rb_tsv', t), await dump('rb_bin', t)];
      expect(tsv.split('\n').length - 1, t).toBe(rows[t].length);
      expect(bin, t).toBe(tsv);
    }
    // The corners arrived as written (not only equally).
    const rs = await ch.query({
      query: `SELECT hex(record) AS h FROM rb_bin.transaction_records WHERE position = 9002`,
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([{ h: '0A0A0A5C090D00FF' }]);
    const tx = await ch.query({
      query: `SELECT slot, fee, memo FROM rb_bin.transactions WHERE signature = 'corner1'`,
      format: 'JSONEachRow',
    });
    expect(await tx.json()).toEqual([{ slot: U64_MAX, fee: U64_MAX, memo: 'a\tb\nc\rd\\e\n\nf' }]);
  });

  it('given a dedup token, when the same body is inserted twice, then it is stored once, and the token stays off the next insert', async () => {
    const rows = [{ slot: '1', status: 1 }];
    const table = 'rb_bin.slot_status';
    await ch.command({ query: `SYSTEM START MERGES ${table}` });
    await ch.command({ query: `TRUNCATE TABLE ${table}` });
    const insert = (token?: string, body = rowBinaryRows('slot_status', rows)) =>
      insertRowBinary(ch, {
        table,
        columns: VIEW_COLUMNS.slot_status,
        body,
        settings: token === undefined ? { async_insert: 0 } : { insert_deduplication_token: token, async_insert: 0 },
      });
    await insert('same');
    await insert('same');
    // No token: a different body is stored (a token left on the engine's session would have dropped it).
    await insert(undefined, rowBinaryRows('slot_status', [{ slot: '2', status: 1 }]));
    const rs = await ch.query({ query: `SELECT slot FROM ${table} ORDER BY slot`, format: 'JSONEachRow' });
    expect(await rs.json()).toEqual([{ slot: '1' }, { slot: '2' }]);
  });
});
